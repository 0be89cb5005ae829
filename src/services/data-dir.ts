/**
 * Data at rest of `ops serve`: the data directory and every directory in it 0700, every file in it
 * (databases, their -wal/-shm files, key files) 0600, whatever the umask. An existing install is
 * tightened on every start. SQLite gives the -wal/-shm files it creates later the mode of their
 * database, so they stay private too.
 *
 * Rules: symlinks are never followed or changed; the connector root (pipeline input and output files the
 * user put there) is made 0700 itself but its contents are left as they are.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
