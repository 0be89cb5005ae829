/**
 * `ops serve key create|list|revoke`: API keys of the local notification service (hashed at rest, shown once),
 * through the running server's admin route or, with no server, on the data dir (admin-call.ts).
 */
import type { Command } from 'commander';
import { contextFor, type Context } from '../../context.js';
import { resolveDataDir } from './flags.js';
import { callAdmin } from './admin-call.js';
import type { ApiKeyInfo } from '../../services/notifications/admin.js';
import { examples } from '../help-text.js';

interface Flags {
  dataDir?: string;
  name?: string;
}

/** Runs an admin action of the notification service: through the running server, or on the data dir (admin-call.ts). */
function call<T>(ctx: Context, flags: Flags, action: string, args: Record<string, unknown> = {}): Promise<T> {
  return callAdmin<T>(dir(ctx, flags), 'notifications', action, args);
}

const dataDirOption = (cmd: Command) => cmd.option('--data-dir <dir>', 'data directory of ops serve (default $XDG_DATA_HOME/ops, env OPS_DATA_DIR)');

export function registerKeys(serve: Command): void {
  const key = serve
    .command('key')
    .description('API keys of the local notification service')
    .addHelpText(
      'after',
      examples('ops serve key create --name ci', 'ops serve key list', 'ops serve key revoke 3 --yes') +
        '\nKeys are stored as SHA-256 hashes: a key is shown once, on create. A key in OPS_NOTIFY_API_KEY is\naccepted while ops serve runs with it set, and is never stored.\n',
    );
  dataDirOption(
    key
      .command('create')
      .description('Create an API key (its value is shown only now)')
      .option('--name <name>', 'a name to recognise the key by', 'key')
      .addHelpText('after', examples('ops serve key create --name ci', 'ops serve key create --name ci --json | jq -r .key')),
  ).action(async (_f: unknown, cmd: Command) => keyCreate(contextFor(cmd), cmd.optsWithGlobals()));
  dataDirOption(
    key
      .command('list')
      .alias('ls')
      .description('List the keys: id, name, a masked prefix, created and last used (never their values)')
      .addHelpText('after', examples('ops serve key list', 'ops serve key list --json')),
  ).action(async (_f: unknown, cmd: Command) => keyList(contextFor(cmd), cmd.optsWithGlobals()));
  dataDirOption(
    key
      .command('revoke')
      .argument('<id>', 'the key id (see `ops serve key list`)')
      .description('Revoke a key: it stops working at once, also on a running server')
      .addHelpText('after', examples('ops serve key revoke 3', 'ops serve key revoke 3 --yes')),
  ).action(async (id: string, _f: unknown, cmd: Command) => keyRevoke(contextFor(cmd), id, cmd.optsWithGlobals()));
}

function dir(ctx: Context, flags: Flags): string {
  return resolveDataDir(flags.dataDir, ctx.env);
}

export async function keyCreate(ctx: Context, flags: Flags): Promise<void> {
  const r = await call<{ info: ApiKeyInfo; key: string }>(ctx, flags, 'key.create', { name: flags.name });
  if (ctx.json) return ctx.out.ndjson({ ...r.info, key: r.key });
  ctx.out.success(`notification API key "${r.info.name}" (id ${r.info.id}) created; its value (shown only now):`);
  await ctx.out.write(`${r.key}\n`);
}

export async function keyList(ctx: Context, flags: Flags): Promise<void> {
  const rows = await call<ApiKeyInfo[]>(ctx, flags, 'key.list');
  await ctx.out.list(rows, [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', shrink: true },
    { header: 'key', key: 'prefix' },
    { header: 'created', key: 'created_at' },
    { header: 'last used', get: (r) => r.last_used_at ?? '' },
  ]);
}

export async function keyRevoke(ctx: Context, id: string, flags: Flags): Promise<void> {
  if (!(await ctx.prompter.confirm(`Revoke notification API key ${id}?`, { action: `revoke key ${id}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const info = await call<ApiKeyInfo>(ctx, flags, 'key.revoke', { id });
  if (ctx.json) return ctx.out.ndjson({ revoked: info });
  ctx.out.success(`key ${info.id} "${info.name}" revoked`);
}
