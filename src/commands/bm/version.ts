/** `ops bm version`: this client's version, the server's API version and what it offers. */
import type { Context } from '../../context.js';
import { version as cliVersion } from '../../core/version.js';
import { bm } from './shared.js';

export async function bmVersion(ctx: Context): Promise<void> {
  const client = bm(ctx);
  const info = await client.detect();
  const row = {
    client: cliVersion(),
    server: ctx.http('bm').baseUrl,
    api_version: info.version,
    flavor: info.flavor,
    server_import: info.serverImport,
    health_check: info.healthCheck,
    v1: info.v1,
  };
  await ctx.out.item(row, [
    { header: 'client', key: 'client' },
    { header: 'server', key: 'server' },
    { header: 'api version', get: (r) => r.api_version ?? 'unknown (no /api/version)' },
    { header: 'server kind', get: (r) => (r.flavor === 'ops' ? 'ops serve' : 'LinkAce') },
    { header: 'import endpoint', get: (r) => (r.server_import ? 'yes' : 'no (ops parses files itself)') },
    { header: 'health check', get: (r) => (r.health_check ? 'on request' : 'server schedule only') },
  ]);
}
