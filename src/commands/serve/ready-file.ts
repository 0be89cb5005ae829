/**
 * The readiness rule of `ops serve`: with `--ready-file PATH` the server writes PATH once every service has
 * started and answers (and the demo content, with --demo, is in), so that a script or `ops serve --detach`
 * waits for the file instead of guessing. The file is JSON, the same object as the `--json` listening line
 * (url, services, dataDir, profile, pid), written to a temporary name and renamed (never seen half written),
 * 0600. It is removed when the server stops, so a file there means a server that was ready.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface ReadyInfo {
  event: 'ready';
  pid: number;
  url: string;
  services: { bookmarks: string; pipelines: string; notifications: string };
  dataDir: string;
  profile: string | null;
}

export function writeReadyFile(path: string, info: ReadyInfo): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** The ready file's content, or undefined while it is absent (or not a ready file). */
export function readReadyFile(path: string): ReadyInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as Partial<ReadyInfo> | null;
    return info && info.event === 'ready' && typeof info.url === 'string' && typeof info.pid === 'number' ? (info as ReadyInfo) : undefined;
  } catch {
    return undefined;
  }
}

export function removeReadyFile(path: string): void {
  rmSync(path, { force: true });
}
