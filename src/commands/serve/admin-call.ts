/**
 * How `ops serve user|token|key` reach a service: through the admin route of the server that owns the data
 * dir when one runs (so it acts and publishes its events at once), else on the data dir's databases.
 *
 * Rules: the running server is the holder of the data dir's lock, named by <data-dir>/server.json; one that is
 * starting is waited for (up to 30 s in all) until it listens; with no holder the databases are used under the
 * lock (services/admin-offline.ts), and if the server's URL refuses the connection (it stopped meanwhile) too; a
 * server that takes the lock first is then gone through. Nothing else falls back: an action that may have reached
 * the server is never run twice. The route is called directly, never
 * through HTTP_PROXY (the secret stays on this machine). Refusals keep their exit code (2 usage, 1 failure).
 */
import { ApiError, NetworkError, OpsError, UsageError } from '../../core/errors.js';
import { HttpClient } from '../../core/http.js';
import { ServeAdminClient } from '../../clients/serve-admin.js';

export type AdminService = 'bookmarks' | 'notifications';

export async function callAdmin<T>(dataDir: string, service: AdminService, action: string, args: Record<string, unknown> = {}): Promise<T> {
  const [{ runAdminOffline }, { AdminError }, { DataDirInUseError }] = await Promise.all([
    import('../../services/admin-offline.js'),
    import('../../services/admin-actions.js'),
    import('../../services/data-dir-lock.js'),
  ]);
  const end = Date.now() + LISTEN_WAIT_MS;
  for (;;) {
    const server = await listeningServer(dataDir, end);
    if (server) {
      const http = new HttpClient({ baseUrl: server.url, authorization: `Bearer ${server.secret}`, serviceName: 'ops serve admin route', env: {} });
      try {
        return await new ServeAdminClient(http).call<T>(service, action, args);
      } catch (err) {
        if (!(err instanceof NetworkError && err.code === 'ECONNREFUSED')) throw refusal(err);
      }
    }
    try {
      return (await runAdminOffline(dataDir, service, action, args)) as T;
    } catch (err) {
      if (err instanceof AdminError) throw err.exitCode === 2 ? new UsageError(err.message) : new OpsError(err.message);
      // a damaged store (services/store-guard.ts): its message names the file, its remedy what to do
      if ((err as Error).name === 'StoreDamagedError') throw new OpsError((err as Error).message, undefined, (err as { remedy?: string }).remedy);
      // a server took the data dir meanwhile (or holds it and refused the connection): go through it
      if (!(err instanceof DataDirInUseError)) throw err;
      if (Date.now() > end) throw new OpsError(`the data dir ${dataDir} is held by a server that does not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The route's refusal as the CLI error with the same exit code. */
function refusal(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const exitCode = (err.body as { exit_code?: unknown } | undefined)?.exit_code;
  if (exitCode === 2) return new UsageError(err.message);
  if (exitCode === 1) return new OpsError(err.message);
  return err;
}

/** How long an admin command waits for a server that holds the data dir to listen. */
const LISTEN_WAIT_MS = 30_000;

/** The server holding the data dir once it listens; undefined when none holds it. */
async function listeningServer(dataDir: string, end: number): Promise<{ url: string; secret: string } | undefined> {
  const [{ ownerOf }, { describeOwner }] = await Promise.all([import('../../services/server-file.js'), import('./owner.js')]);
  for (;;) {
    const owner = ownerOf(dataDir);
    if (!owner) return undefined;
    const { file } = owner;
    if (file?.url !== undefined && file.secret !== undefined && file.state !== 'stopping') return { url: file.url, secret: file.secret };
    if (file?.state === 'stopping') throw new OpsError(`the server on ${dataDir} is stopping; run the command again once it stopped`);
    if (Date.now() > end) throw new OpsError(`the data dir ${dataDir} is held by ${describeOwner(file)}, which does not answer yet`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
