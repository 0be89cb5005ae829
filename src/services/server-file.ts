/**
 * The running-server file of a data dir, `<data-dir>/server.json`: who holds the data dir's lock
 * (data-dir-lock.ts) and where it answers. `ops serve status|stop|logs`, a second `ops serve` that is refused,
 * and `ops serve user|token|key` (which prove with its secret that they may use the admin route,
 * services/admin-route.ts) read it.
 *
 * Rules:
 * - Written by the server right after it took the lock (`state: "starting"`, its pid), again once it listens
 *   (its URL and a secret new on every start, 32 random bytes), once every service started (`running`) and when
 *   it begins to stop (`stopping`); removed last, before the lock is released. Each write is to a temporary
 *   name renamed over the file (a reader never sees half a file), 0600 in the 0700 data dir: only the user who
 *   runs the server can read the secret (docs/security.md).
 * - The file is trusted only while the lock is held (`ownerOf`): a file left by a killed server names nothing.
 *   `pid_start` (the process's start time, from /proc where there is one) tells a live holder from another
 *   process that got its pid later.
 * - A server rewrites or removes the file only while it is still its own (same pid and start).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirLocked } from './data-dir-lock.js';
import { SERVER_FILE } from './data-dir-layout.js';

export { SERVER_FILE };

export type ServerState = 'starting' | 'running' | 'stopping';

export interface ServerFile {
  pid: number;
  /** the process's start time in clock ticks since boot (Linux /proc), to tell it from a later one with its pid */
  pid_start?: string;
  state?: ServerState;
  /** the base URL the server answers on, e.g. http://127.0.0.1:8700 (once it listens) */
  url?: string;
  /** the admin route's bearer secret (once it listens) */
  secret?: string;
  started_at: string;
}

/** A server file of a server that listens: its URL and admin secret are known. */
export type ListeningServerFile = ServerFile & { url: string; secret: string };

export function newAdminSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function writeServerFile(dataDir: string, info: ServerFile): void {
  const path = join(dataDir, SERVER_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(info)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Removes the file if it is still this process's. */
export function removeServerFile(dataDir: string, own: Pick<ServerFile, 'pid' | 'started_at'>): void {
  const f = readServerFileAsIs(dataDir);
  if (f && f.pid === own.pid && f.started_at === own.started_at) rmSync(join(dataDir, SERVER_FILE), { force: true });
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
  if (!f || typeof f !== 'object' || Array.isArray(f)) return undefined;
  if (!Number.isSafeInteger(f.pid) || (f.pid as number) <= 0) return undefined;
  if (f.url !== undefined && typeof f.url !== 'string') return undefined;
  if (f.secret !== undefined && (typeof f.secret !== 'string' || !f.secret)) return undefined;
  const state = f.state === 'starting' || f.state === 'running' || f.state === 'stopping' ? f.state : undefined;
  return {
    pid: f.pid as number,
    ...(typeof f.pid_start === 'string' ? { pid_start: f.pid_start } : {}),
    ...(state ? { state } : {}),
    ...(f.url !== undefined ? { url: f.url } : {}),
    ...(f.secret !== undefined ? { secret: f.secret } : {}),
    started_at: String(f.started_at ?? ''),
  };
}

/** Who serves the data dir: the lock is held, and the file names a live process (undefined when free). */
export type Owner = { file: ServerFile } | { file: undefined };

/**
 * The holder of the data dir's lock, with its server file when the file names a process that lives (the
 * holder writes it right after taking the lock; until then, or for a holder that is not a server, `file` is
 * undefined). Undefined when no one holds the lock.
 */
export function ownerOf(dataDir: string): Owner | undefined {
  if (!dataDirLocked(dataDir)) return undefined;
  const f = readServerFileAsIs(dataDir);
  return { file: f && sameProcess(f.pid, f.pid_start) ? f : undefined };
}

/** The server that owns the data dir and listens (URL and secret known), if there is one. */
export function runningServer(dataDir: string): ListeningServerFile | undefined {
  const f = ownerOf(dataDir)?.file;
  return f && f.url !== undefined && f.secret !== undefined ? (f as ListeningServerFile) : undefined;
}

/** Fields 3 on of /proc/PID/stat (state first, start time at index 19), where the system has /proc. */
function procStat(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name (field 2) is in parentheses and may hold spaces or parentheses itself
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The start time of a process (field 22 of /proc/PID/stat), where the system has /proc. */
export function processStart(pid: number): string | undefined {
  return procStat(pid)?.[19];
}

/**
 * Whether `pid` is alive and, when its start time was recorded and can be read, the same process. A process that
 * has exited but is not reaped yet (a zombie: a detached server's parent is gone, and some init processes reap
 * late) is not alive.
 */
export function sameProcess(pid: number, start: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone; EPERM: another user's process, so not a server of ours (it runs as us)
    return false;
  }
  const stat = procStat(pid);
  if (stat === undefined) return true; // no /proc: alive is all we can know
  if (stat[0] === 'Z' || stat[0] === 'X') return false;
  return start === undefined || stat[19] === start;
}
