/**
 * Data at rest of `ops serve`: the data directory and every directory in it 0700, every file in it
 * (databases, their -wal/-shm files, key files) 0600, whatever the umask. An existing install is
 * tightened on every start. SQLite gives the -wal/-shm files it creates later the mode of their
 * database, so they stay private too.
 *
 * Rules: symlinks are never followed or changed; the connector root (pipeline input and output files the
 * user put there) is made 0700 itself but its contents are left as they are.
 *
 * `emptyDataDir` (ops serve reset) removes only what ops serve keeps there, and only under the data dir's lock.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { CONNECTOR_DIR, LOCK_FILE, LOG_FILE, OLD_LOG_FILE, SERVER_FILE, SERVICE_DIRS } from './data-dir-layout.js';

/** Creates a directory (and its parents) and makes it 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Makes everything under `dir` private: directories 0700, regular files 0600; `keepContents` are entered no further. */
export function tightenDataDir(dir: string, keepContents: string[] = []): void {
  const skip = new Set(keepContents.map((p) => resolve(p)));
  const walk = (d: string) => {
    chmodSync(d, 0o700);
    if (skip.has(resolve(d))) return;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue; // removed meanwhile
      }
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && (st.mode & 0o777) !== 0o600) chmodSync(p, 0o600);
    }
  };
  walk(dir);
}

/**
 * Empties a data dir for `ops serve reset`: under the data dir's lock (so no server starts meanwhile; a server that
 * holds it throws DataDirInUseError and nothing is removed), removes what ops serve keeps there (SERVICE_DIRS,
 * the connector root `files`, server.json, the detached server's logs, temporary files of interrupted writes) and
 * leaves anything else, which it names in `kept`. The lock file stays (it is empty).
 */
export function emptyDataDir(dataDir: string): { removed: string[]; kept: string[] } {
  const lock = lockDataDir(dataDir, { waitMs: 0 });
  try {
    const ours = new Set<string>([...SERVICE_DIRS, CONNECTOR_DIR, SERVER_FILE, LOG_FILE, OLD_LOG_FILE]);
    const removed: string[] = [];
    const kept: string[] = [];
    for (const name of readdirSync(dataDir).sort()) {
      if (name === LOCK_FILE || name === `${LOCK_FILE}-journal`) continue;
      if (ours.has(name) || /^server\.json\.\d+\.tmp$/.test(name)) {
        rmSync(join(dataDir, name), { recursive: true, force: true });
        removed.push(name);
      } else kept.push(name);
    }
    return { removed, kept };
  } finally {
    lock.release();
  }
}
