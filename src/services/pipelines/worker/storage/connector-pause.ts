/**
 * Which input connectors the user paused (`.../connectors/{c}/pause`), kept in the pipeline's storage folder so
 * that a restart keeps them paused, as today's Feldera journals the paused state. The file goes with the rest
 * of the storage when the state is discarded (`/stop?force=true`, `/shutdown`, `/clear`): the next start
 * takes each connector's `paused` config again.
 *
 * Contract: `readPausedConnectors(dir)` is the set last written, or null when none was (or the file does not
 * read back as a list of names: then the configs rule, and the start goes on). `writePausedConnectors` replaces
 * the file whole (written beside it, synced, renamed over it: never half written), 0600; it throws the fs
 * error (a full disk), and the caller refuses the request.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'paused-connectors.json';

export function readPausedConnectors(dir: string): Set<string> | null {
  let text: string;
  try {
    text = readFileSync(join(dir, FILE), 'utf8');
  } catch {
    return null;
  }
  try {
    const names: unknown = JSON.parse(text);
    if (Array.isArray(names) && names.every((n) => typeof n === 'string')) return new Set(names as string[]);
  } catch {
    // unreadable: the connectors' configs rule
  }
  return null;
}

export function writePausedConnectors(dir: string, names: readonly string[]): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, FILE);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify([...names].sort()));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
