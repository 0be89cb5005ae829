/**
 * How `ops serve user|token|key` reach a service: through the admin route of the server that owns the data
 * dir when one runs (so it acts and publishes its events at once), else on the data dir's databases.
 *
 * Rules: the running server is the one named by <data-dir>/server.json whose process lives; if its URL
 * refuses the connection (a crashed server whose pid was reused) the databases are used. Nothing else falls
 * back: an action that may have reached the server is never run twice. The route is called directly, never
 * through HTTP_PROXY (the secret stays on this machine). Refusals keep their exit code (2 usage, 1 failure).
 */
import { ApiError, NetworkError, OpsError, UsageError } from '../../core/errors.js';
import { HttpClient } from '../../core/http.js';
import { ServeAdminClient } from '../../clients/serve-admin.js';

export type AdminService = 'bookmarks' | 'notifications';

export async function callAdmin<T>(dataDir: string, service: AdminService, action: string, args: Record<string, unknown> = {}): Promise<T> {
  const { runningServer } = await import('../../services/server-file.js');
  const server = runningServer(dataDir);
  if (server) {
    const http = new HttpClient({ baseUrl: server.url, authorization: `Bearer ${server.secret}`, serviceName: 'ops serve admin route', env: {} });
    try {
      return await new ServeAdminClient(http).call<T>(service, action, args);
    } catch (err) {
      if (!(err instanceof NetworkError && err.code === 'ECONNREFUSED')) throw refusal(err);
    }
  }
  const [{ runAdminOffline }, { AdminError }] = await Promise.all([import('../../services/admin-offline.js'), import('../../services/admin-actions.js')]);
  try {
    return (await runAdminOffline(dataDir, service, action, args)) as T;
  } catch (err) {
    if (err instanceof AdminError) throw err.exitCode === 2 ? new UsageError(err.message) : new OpsError(err.message);
    // a damaged store (services/store-guard.ts): its message names the file, its remedy what to do
    if ((err as Error).name === 'StoreDamagedError') throw new OpsError((err as Error).message, undefined, (err as { remedy?: string }).remedy);
    throw err;
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
