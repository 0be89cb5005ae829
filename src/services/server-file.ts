/**
 * The running-server file of a data dir, `<data-dir>/server.json`: how `ops serve user|token|key` finds the
 * server that owns the data dir and proves it may use its admin route (services/admin-route.ts).
 *
 * Rules:
 * - Written by the server once it listens, removed when it closes; `{pid, url, secret, started_at}`.
 * - 0600 in the 0700 data dir, written to a temporary name and renamed (a reader never sees half a file):
 *   only the user who runs the server can read the secret (docs/security.md).
 * - The secret is new on every start (32 random bytes); a file left behind by a crashed server names a
 *   process that no longer exists and is treated as absent. A file of a live process whose URL refuses
 *   connections is the caller's to judge (the CLI then falls back to the database).
 * - A server removes the file only while it is still its own (another server may have taken the data dir).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SERVER_FILE = 'server.json';

export interface ServerFile {
  pid: number;
  /** the base URL the server answers on, e.g. http://127.0.0.1:8700 */
  url: string;
  /** the admin route's bearer secret */
  secret: string;
  started_at: string;
}

export function newAdminSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function writeServerFile(dataDir: string, info: ServerFile): void {
  const path = join(dataDir, SERVER_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Removes the file if it is still the one this server wrote (same secret). */
export function removeServerFile(dataDir: string, secret: string): void {
  if (readServerFileAsIs(dataDir)?.secret === secret) rmSync(join(dataDir, SERVER_FILE), { force: true });
}

/** The file's content when it is well formed, whether or not its process lives. */
export function readServerFileAsIs(dataDir: string): ServerFile | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dataDir, SERVER_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  const f = parsed as Partial<ServerFile> | null;
  if (!f || typeof f !== 'object') return undefined;
  if (!Number.isSafeInteger(f.pid) || (f.pid as number) <= 0 || typeof f.url !== 'string' || typeof f.secret !== 'string' || !f.secret) return undefined;
  return { pid: f.pid as number, url: f.url, secret: f.secret, started_at: String(f.started_at ?? '') };
}

/** The server that owns the data dir, if its file is there and its process is alive. */
export function runningServer(dataDir: string): ServerFile | undefined {
  const f = readServerFileAsIs(dataDir);
  return f && processAlive(f.pid) ? f : undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone; EPERM: another user's process, so not the server that wrote this file (it runs as us)
    return false;
  }
}
