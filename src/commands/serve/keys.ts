/**
 * `ops serve key create|list|revoke`: API keys of the local notification service (hashed at rest, shown once),
 * through the running server's admin route or, with no server, on the data dir (admin-call.ts).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';
import { callAdmin } from './admin-call.js';
import type { ApiKeyInfo } from '../../services/notifications/admin.js';
import { examples } from '../help-text.js';

/** Runs an admin action of the notification service: through the running server, or on the data dir (admin-call.ts). */
function call<T>(ctx: Context, flags: DataDirOption, action: string, args: Record<string, unknown> = {}): Promise<T> {
  return callAdmin<T>(dir(ctx, flags), 'notifications', action, args);
}

/** `ops serve key`: the group and its verbs. */
export function newCmdServeKey(f: Factory): Command {
  const key = new Command('key')
    .description('API keys of the local notification service')
    .addHelpText(
      'after',
      examples('ops serve key create --name ci', 'ops serve key list', 'ops serve key revoke 3 --yes') +
        '\nKeys are stored as SHA-256 hashes: a key is shown once, on create. A key in OPS_NOTIFY_API_KEY is\naccepted while ops serve runs with it set, and is never stored.\n',
    );
  return addVerbs(key, newCmdKeyCreate(f), newCmdKeyList(f), newCmdKeyRevoke(f));
}

export interface KeyCreateOptions extends DataDirOption {
  /** a name to recognise the key by */
  name: string;
}

export function newCmdKeyCreate(f: Factory, runF: RunFunction<KeyCreateOptions> = runKeyCreate): Command {
  return dataDirOption(
    new Command('create')
      .description('Create an API key (its value is shown only now)')
      .option('--name <name>', 'a name to recognise the key by', 'key')
      .addHelpText('after', examples('ops serve key create --name ci', 'ops serve key create --name ci --json | jq -r .key')),
  ).action((flags: KeyCreateOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export type KeyListOptions = DataDirOption;

export function newCmdKeyList(f: Factory, runF: RunFunction<KeyListOptions> = runKeyList): Command {
  return dataDirOption(
    new Command('list')
      .alias('ls')
      .description('List the keys: id, name, a masked prefix, created and last used (never their values)')
      .addHelpText('after', examples('ops serve key list', 'ops serve key list --json')),
  ).action((flags: KeyListOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export interface KeyRevokeOptions extends DataDirOption {
  /** the key id */
  id: string;
}

export function newCmdKeyRevoke(f: Factory, runF: RunFunction<KeyRevokeOptions> = runKeyRevoke): Command {
  return dataDirOption(
    new Command('revoke')
      .argument('<id>', 'the key id (see `ops serve key list`)')
      .description('Revoke a key: it stops working at once, also on a running server')
      .addHelpText('after', examples('ops serve key revoke 3', 'ops serve key revoke 3 --yes')),
  ).action((id: string, flags: DataDirOption, cmd: Command) => runWith(f, runF, withDataDir({ ...flags, id }, cmd)));
}

function dir(ctx: Context, flags: DataDirOption): string {
  return resolveDataDir(flags.dataDir, ctx.env);
}

export async function runKeyCreate(flags: KeyCreateOptions, ctx: Context): Promise<void> {
  const r = await call<{ info: ApiKeyInfo; key: string }>(ctx, flags, 'key.create', { name: flags.name });
  if (ctx.json) return ctx.out.ndjson({ ...r.info, key: r.key });
  ctx.out.success(`notification API key "${r.info.name}" (id ${r.info.id}) created; its value (shown only now):`);
  await ctx.out.write(`${r.key}\n`);
}

export async function runKeyList(flags: KeyListOptions, ctx: Context): Promise<void> {
  const rows = await call<ApiKeyInfo[]>(ctx, flags, 'key.list');
  await ctx.out.list(rows, [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', shrink: true },
    { header: 'key', key: 'prefix' },
    { header: 'created', key: 'created_at' },
    { header: 'last used', get: (r) => r.last_used_at ?? '' },
  ]);
}

export async function runKeyRevoke(flags: KeyRevokeOptions, ctx: Context): Promise<void> {
  const { id } = flags;
  if (!(await ctx.prompter.confirm(`Revoke notification API key ${id}?`, { action: `revoke key ${id}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const info = await call<ApiKeyInfo>(ctx, flags, 'key.revoke', { id });
  if (ctx.json) return ctx.out.ndjson({ revoked: info });
  ctx.out.success(`key ${info.id} "${info.name}" revoked`);
}
