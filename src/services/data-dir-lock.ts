/**
 * One server per data dir: the lock of `<data-dir>/serve.lock`, held by the server for its whole life.
 *
 * Contract:
 * - The lock is the exclusive lock of an SQLite database file (better-sqlite3, `BEGIN EXCLUSIVE` kept open),
 *   which SQLite takes as a POSIX record lock (fcntl). The kernel decides: of two servers starting at the same
 *   instant exactly one gets it, and it is released when its holder ends in any way (close, exit, crash,
 *   `kill -9`), so a lock left by a killed server is simply free again; no pid is trusted to decide. SQLite
 *   also keeps two connections of one process apart (in-process servers in tests are refused alike).
 * - `lockDataDir` is called before any store of the data dir is opened or written; it throws
 *   `DataDirInUseError` when another holder has it (after `waitMs`, which only covers a `dataDirLocked` probe
 *   holding the file for an instant). `release()` is idempotent.
 * - `dataDirLocked` probes without taking the lock (a shared read that fails while the lock is held), so a
 *   status check never keeps a server from starting for longer than the probe itself.
 * - POSIX record locks belong to the process and end when the process closes any descriptor of the file: in a
 *   process that may hold the lock, serve.lock is opened only through SQLite (this module), which keeps such
 *   descriptors open while a lock is held. Nothing else may open it (chmod and stat are harmless).
 * - Who holds the lock (pid, URL) is not in this file: the holder writes it to server.json (server-file.ts)
 *   right after taking the lock; readers trust that file only while the lock is held.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE } from './data-dir-layout.js';

export { LOCK_FILE };

/** How long a starting server waits for the lock file while a probe reads it (never for another server). */
const DEFAULT_WAIT_MS = 200;

export interface DataDirLock {
  readonly dataDir: string;
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(`the data dir ${dataDir} is in use by another ops serve`);
    this.name = 'DataDirInUseError';
  }
}

const isBusy = (err: unknown) => {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/** Takes the data dir's lock (the directory must exist), or throws DataDirInUseError. */
export function lockDataDir(dataDir: string, options: { waitMs?: number } = {}): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (err) {
    throw lockFileError(path, err);
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.round(options.waitMs ?? DEFAULT_WAIT_MS))}`);
    // nothing is ever written: no journal file beside the lock
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if (isBusy(err)) throw new DataDirInUseError(dataDir);
    throw lockFileError(path, err);
  }
  let held = true;
  return {
    dataDir,
    release() {
      if (!held) return;
      held = false;
      db.close(); // rolls the empty transaction back and lets go of the file lock
    },
  };
}

/** A lock file that cannot be opened or is not an SQLite file: an error that names it and what to do. */
function lockFileError(path: string, err: unknown): Error {
  const code = (err as { code?: unknown }).code;
  const why = code === 'SQLITE_NOTADB' ? 'it is not an SQLite file (damaged?); remove it while no ops serve runs' : (err as Error).message;
  return Object.assign(new Error(`cannot take the data dir's lock ${path}: ${why}`), { code });
}

/** Whether some process holds the data dir's lock now (false when there is no lock file at all). */
export function dataDirLocked(dataDir: string): boolean {
  const path = join(dataDir, LOCK_FILE);
  if (!existsSync(path)) return false;
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_CANTOPEN') return false; // removed meanwhile
    throw err;
  }
  try {
    db.pragma('busy_timeout = 0');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (err) {
    if (isBusy(err)) return true;
    throw err;
  } finally {
    db.close();
  }
}
