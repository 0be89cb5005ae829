/** `ops bm version`: this client's version, the server's API version and what it offers. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { version as cliVersion } from '../../core/version.js';
import { bm, runBm } from './shared.js';

/** No options: the server is the active profile's. */
export type BmVersionOptions = Record<string, never>;

export function newCmdVersion(f: Factory, runF: RunFunction<BmVersionOptions> = runBmVersion): Command {
  return new Command('version')
    .description("The server's API version and what it offers (import endpoint, health check)")
    .addHelpText('after', examples('ops bm version', 'ops bm version --json'))
    .action(() => runBm(f, runF, {}));
}

export async function runBmVersion(_opts: BmVersionOptions, ctx: Context): Promise<void> {
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
