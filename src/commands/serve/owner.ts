/**
 * Who serves a data dir, as `ops serve`'s commands say it: the refusal of a second server (or of a reset) on a
 * data dir in use, with the owner's pid and URL, and a short wait for that owner to name itself.
 *
 * Rules: the lock decides (services/data-dir-lock.ts); server.json only says who holds it (services/server-file.ts).
 * A holder that took the lock an instant ago may not have written its file yet: `waitForOwner` gives it
 * `namingMs` to do so before the refusal says "another process".
 */
import { OpsError } from '../../core/errors.js';
import type { Owner, ServerFile } from '../../services/server-file.js';

/** How long a refusal waits for the lock's holder to write its server file. */
const NAMING_MS = 2000;

/** The owner of the data dir, waiting up to `namingMs` for its file when the lock is held but names no one yet. */
export async function waitForOwner(dataDir: string, namingMs = NAMING_MS): Promise<Owner | undefined> {
  const { ownerOf } = await import('../../services/server-file.js');
  const end = Date.now() + namingMs;
  for (;;) {
    const owner = ownerOf(dataDir);
    if (!owner || owner.file || Date.now() >= end) return owner;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** "ops serve (pid 123, http://127.0.0.1:8700, running since ...)" or what is known of the holder. */
export function describeOwner(file: ServerFile | undefined): string {
  if (!file) return 'another process (it has not written its server.json)';
  const where = file.url ?? 'not listening yet';
  const state = file.state === 'running' ? `running since ${file.started_at}` : (file.state ?? 'running');
  return `ops serve (pid ${file.pid}, ${where}, ${state})`;
}

/** The error of a command refused because a server holds the data dir. */
export async function dataDirInUse(dataDir: string, doing: string): Promise<OpsError> {
  const owner = await waitForOwner(dataDir);
  return new OpsError(
    `cannot ${doing}: the data dir ${dataDir} is in use by ${describeOwner(owner?.file)}`,
    undefined,
    `Stop it first with \`ops serve stop --data-dir ${dataDir}\`, or use another --data-dir.`,
  );
}
