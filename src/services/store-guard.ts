/**
 * The SQLite stores of `ops serve` (bookmarks.sqlite, pipelines.db, notifications.db) against faults of
 * the disk and of the file itself.
 *
 * Contract:
 *  - openCheckedDatabase(file, label, options): opens a store's file (WAL, STORE_SYNCHRONOUS) and runs
 *    `PRAGMA quick_check` on it before the caller migrates or writes anything. A file SQLite cannot
 *    open as a database, or one that fails the check, throws StoreDamagedError naming the file and
 *    what to do; nothing is written into it. With
 *    recovery 'reset' a damaged file (with its -wal and -shm) is first moved aside to
 *    `<file>.damaged-<time>` and an empty store is opened in its place; a sound file is left alone.
 *  - StoreGuard.fault(err): what a failed store operation means for the client, or null when it is no
 *    fault of the store. The disk full (SQLITE_FULL, ENOSPC) answers 507 naming the store; nothing of
 *    the request was written (SQLite rolls the statement or transaction back) and the next write that
 *    finds space succeeds, with no restart. A store found damaged while running (SQLITE_CORRUPT,
 *    SQLITE_NOTADB) is switched to read-only at once (`PRAGMA query_only`) so that nothing more is
 *    written into it, and every failed operation on it answers 503 naming the file and what to do
 *    until the server is restarted with the file restored or reset.
 *  - Each state change is logged once (disk full, writes succeed again, damaged), not once per
 *    request: `noteWriteSucceeded()` (called after a write answered below 500) ends a disk-full episode.
 *  - Synchronous mode (see docs/security.md, "Power loss"): STORE_SYNCHRONOUS is the setting every store
 *    opens with (the notification store runs its worker's own bookkeeping NORMAL, store/index.ts).
 *  - Helpers for the services: storeOpenOptions (`--reset-store`), guardLog (stderr when the JSON log is
 *    off), watchWrites (an onResponse hook feeding noteWriteSucceeded).
 */
import { existsSync, renameSync } from 'node:fs';
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';

/**
 * `synchronous = FULL` for every store: an acknowledged write survives a power cut, not only a crash of
 * the process. Measured (test/bench/store-sync.bench.mjs): FULL costs one fsync of the WAL per commit.
 */
export const STORE_SYNCHRONOUS = 'FULL';

/** What to do with a store that fails its check at start. */
export type StoreRecovery = 'refuse' | 'reset';

/** A store that cannot be used: its file is not a database, or fails `PRAGMA quick_check`. */
export class StoreDamagedError extends Error {
  constructor(
    readonly file: string,
    readonly label: string,
    readonly problem: string,
  ) {
    super(`the ${label} store ${file} is damaged (${problem})`);
    this.name = 'StoreDamagedError';
  }

  /** What the user can do about it (for the CLI's hint). */
  get remedy(): string {
    return remedy(this.file, this.label);
  }
}

export function remedy(file: string, label: string): string {
  return (
    `Stop the server and restore ${basename(file)} from a backup, or start with \`ops serve --reset-store ${label}\` to move the damaged file aside ` +
    `(kept as ${basename(file)}.damaged-<time>) and start that store empty; \`sqlite3 ${file} .recover\` may salvage rows from the moved file.`
  );
}

const DAMAGED_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_SHMSIZE']);

const codeOf = (err: unknown): string => (err && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : '');

/** True for an error that says the store's file is damaged. */
export function isDamagedError(err: unknown): boolean {
  return DAMAGED_CODES.has(codeOf(err));
}

/** True for an error that says the disk (or the file's filesystem) is full. */
export function isDiskFullError(err: unknown): boolean {
  const code = codeOf(err);
  return FULL_CODES.has(code) || (code.startsWith('SQLITE_IOERR') && /disk is full|no space/i.test((err as Error).message));
}

/** Runs `PRAGMA quick_check`; the first problems it reports, or null when the file is sound. */
export function quickCheck(db: Database.Database): string | null {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
  return problems.length ? problems.join('; ') : null;
}

/** Moves a damaged store file and its -wal/-shm aside; the new name of the file. */
function moveAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.damaged-${stamp}`;
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  return target;
}

/** How a store is opened: what to do if it is damaged, where to say what was done. */
export interface OpenStoreOptions {
  recovery?: StoreRecovery;
  log?: (message: string) => void;
}

/**
 * Opens a store's database file in WAL mode with STORE_SYNCHRONOUS and checks it before anything is
 * written (the caller migrates after): see the contract above. ':memory:' is opened unchecked.
 */
export function openCheckedDatabase(file: string, label: string, options: OpenStoreOptions = {}): Database.Database {
  const attempt = (): Database.Database => {
    let db: Database.Database | undefined;
    try {
      db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${STORE_SYNCHRONOUS}`);
      if (file === ':memory:') return db;
      const problem = quickCheck(db);
      if (problem) throw new StoreDamagedError(file, label, `PRAGMA quick_check: ${problem}`);
      return db;
    } catch (err) {
      try {
        db?.close();
      } catch {
        // already unusable
      }
      if (err instanceof StoreDamagedError) throw err;
      if (isDamagedError(err)) throw new StoreDamagedError(file, label, (err as Error).message);
      throw err;
    }
  };
  try {
    return attempt();
  } catch (err) {
    if (!(err instanceof StoreDamagedError) || options.recovery !== 'reset') throw err;
    const moved = moveAside(file);
    options.log?.(`${label}: the damaged store ${file} was moved aside to ${moved} (--reset-store); starting it empty`);
    return attempt();
  }
}

/** What a client is told about a store fault. */
export interface StoreFault {
  status: 503 | 507;
  code: 'insufficient_storage' | 'store_damaged';
  message: string;
}

/** The running state of one store: ok, full (the last write found no space) or damaged. */
export class StoreGuard {
  private state: 'ok' | 'full' | 'damaged' = 'ok';

  constructor(
    readonly file: string,
    readonly label: string,
    private readonly db: () => Database.Database | undefined,
    private readonly log: (level: 'error' | 'warn' | 'info', message: string) => void,
  ) {}

  get status(): 'ok' | 'full' | 'damaged' {
    return this.state;
  }

  /** The answer for a failed store operation, or null when the error is not a fault of the store. */
  fault(err: unknown): StoreFault | null {
    if (isDamagedError(err) || (this.state === 'damaged' && codeOf(err).startsWith('SQLITE_READONLY'))) {
      this.markDamaged((err as Error).message);
      return {
        status: 503,
        code: 'store_damaged',
        message: `The ${this.label} store ${this.file} is damaged; it takes no more writes until the server is restarted. ${remedy(this.file, this.label)}`,
      };
    }
    if (isDiskFullError(err)) {
      if (this.state === 'ok') {
        this.state = 'full';
        this.log('error', `${this.label}: the disk is full: writes to ${this.file} fail (answered 507) until space is freed`);
      }
      return {
        status: 507,
        code: 'insufficient_storage',
        message: `The disk is full: the ${this.label} store ${this.file} cannot take this write. Nothing of it was saved; free some space and try again.`,
      };
    }
    return null;
  }

  /** A write succeeded: a disk-full episode is over. */
  noteWriteSucceeded(): void {
    if (this.state !== 'full') return;
    this.state = 'ok';
    this.log('info', `${this.label}: writes to ${this.file} succeed again`);
  }

  private markDamaged(detail: string): void {
    if (this.state === 'damaged') return;
    this.state = 'damaged';
    try {
      this.db()?.pragma('query_only = ON');
    } catch {
      // a closed or unusable connection writes nothing anyway
    }
    this.log('error', `${this.label}: the store ${this.file} is damaged (${detail}); it is read-only until the server restarts. ${remedy(this.file, this.label)}`);
  }
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for a request that may have written and was answered without a server error. */
export function wroteSuccessfully(method: string, status: number): boolean {
  return WRITE_METHODS.has(method) && status < 500;
}

/** The stores `--reset-store` names (ServeOptions.resetStores). */
export const STORE_LABELS = ['bookmarks', 'pipelines', 'notifications'] as const;

/** The open options of one service's store from the server's options (`resetStores`) and its log. */
export function storeOpenOptions(resetStores: unknown, label: string, log: (message: string) => void): OpenStoreOptions {
  const reset = Array.isArray(resetStores) && (resetStores as unknown[]).includes(label);
  return { recovery: reset ? 'reset' : 'refuse', log };
}

/**
 * A service logger's three levels as StoreGuard wants them. A store fault must reach the operator even
 * when the server's JSON log is off (the default of `ops serve`): then it goes to stderr as one line.
 */
export function guardLog(log: { level?: string; error(msg: string): void; warn(msg: string): void; info(msg: string): void }) {
  return (level: 'error' | 'warn' | 'info', message: string) => {
    if (log.level === undefined || log.level === 'silent') process.stderr.write(`ops serve: ${message}\n`);
    else log[level](message);
  };
}

/** Ends a disk-full episode of `guard` at the first write request of this scope answered below 500. */
export function watchWrites(app: FastifyInstance, guard: StoreGuard): void {
  app.addHook('onResponse', async (req, reply) => {
    if (wroteSuccessfully(req.method, reply.statusCode)) guard.noteWriteSucceeded();
  });
}
