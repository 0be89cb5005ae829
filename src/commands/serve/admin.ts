/**
 * `ops serve user add|list|rm` and `ops serve token create|list|revoke`: users and API tokens of the local bookmark
 * service, through the running server's admin route or, with no server, on the data dir (admin-call.ts).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';
import { callAdmin } from './admin-call.js';
import type { TokenInfo, UserInfo } from '../../services/bookmarks/admin.js';
import { examples } from '../help-text.js';

/** Runs an admin action of the bookmark service: through the running server, or on the data dir (admin-call.ts). */
function call<T>(ctx: Context, flags: DataDirOption, action: string, args: Record<string, unknown> = {}): Promise<T> {
  return callAdmin<T>(dir(ctx, flags), 'bookmarks', action, args);
}

/** `ops serve user`: the group and its verbs. */
export function newCmdServeUser(f: Factory): Command {
  const user = new Command('user')
    .description('Users of the local bookmark service')
    .addHelpText(
      'after',
      examples(
        'ops serve user add --name Alice --email alice@example.com',
        'ops serve user list',
        'ops serve user update alice@example.com --name "Alice B."',
        'ops serve user rm alice@example.com --yes',
      ),
    );
  return addVerbs(user, newCmdUserAdd(f), newCmdUserList(f), newCmdUserUpdate(f), newCmdUserRm(f));
}

export interface UserAddOptions extends DataDirOption {
  name: string;
  email: string;
  /** name of the first token */
  tokenName?: string;
}

export function newCmdUserAdd(f: Factory, runF: RunFunction<UserAddOptions> = runUserAdd): Command {
  return dataDirOption(
    new Command('add')
      .description('Add a user and a first API token for it (the token is shown once)')
      .requiredOption('--name <name>', 'display name')
      .requiredOption('--email <email>', 'email address (unique)')
      .option('--token-name <name>', 'name of the first token', 'default')
      .addHelpText('after', '\nExamples:\n  ops serve user add --name Alice --email alice@example.com\n  ops serve user add --name CI --email ci@example.com --json | jq -r .token'),
  ).action((flags: UserAddOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export type UserListOptions = DataDirOption;

export function newCmdUserList(f: Factory, runF: RunFunction<UserListOptions> = runUserList): Command {
  return dataDirOption(new Command('list').alias('ls').description('List the users').addHelpText('after', examples('ops serve user list', 'ops serve user list --json | jq -r ".[].email"'))).action(
    (flags: UserListOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)),
  );
}

export interface UserUpdateOptions extends DataDirOption {
  /** the user, by id or email */
  ref: string;
  name?: string;
  email?: string;
}

export function newCmdUserUpdate(f: Factory, runF: RunFunction<UserUpdateOptions> = runUserUpdate): Command {
  return dataDirOption(
    new Command('update')
      .arguments('<user>')
      .description("Change a user's name or email (webhooks get user.updated)")
      .option('--name <name>', 'the new display name')
      .option('--email <email>', 'the new email address (unique)')
      .addHelpText('after', examples('ops serve user update alice@example.com --name "Alice B."', 'ops serve user update 2 --email alice@example.org --json')),
  ).action((ref: string, flags: Omit<UserUpdateOptions, 'ref'>, cmd: Command) => runWith(f, runF, withDataDir({ ...flags, ref }, cmd)));
}

export interface UserRmOptions extends DataDirOption {
  /** the user, by id or email */
  ref: string;
}

export function newCmdUserRm(f: Factory, runF: RunFunction<UserRmOptions> = runUserRm): Command {
  return dataDirOption(
    new Command('rm')
      .arguments('<user>')
      .description('Remove a user (id or email) with all their links, lists, tags, notes and tokens')
      .addHelpText('after', '\nExample:\n  ops serve user rm alice@example.com --yes'),
  ).action((ref: string, flags: DataDirOption, cmd: Command) => runWith(f, runF, withDataDir({ ...flags, ref }, cmd)));
}

/** `ops serve token`: the group and its verbs. */
export function newCmdServeToken(f: Factory): Command {
  const token = new Command('token')
    .description('API tokens of the local bookmark service')
    .addHelpText('after', examples('ops serve token create --user alice@example.com --name laptop', 'ops serve token list', 'ops serve token revoke 7 --yes'));
  return addVerbs(token, newCmdTokenCreate(f), newCmdTokenList(f), newCmdTokenRevoke(f));
}

export interface TokenCreateOptions extends DataDirOption {
  /** the user (id or email) the token acts as */
  user?: string;
  system?: boolean;
  privateAccess?: boolean;
  name?: string;
}

export function newCmdTokenCreate(f: Factory, runF: RunFunction<TokenCreateOptions> = runTokenCreate): Command {
  return dataDirOption(
    new Command('create')
      .description('Create an API token (shown once): for a user, or a system token')
      .option('--user <user>', 'the user (id or email) the token acts as')
      .option('--system', 'a system token: reads public and internal items of every user')
      .option('--private-access', 'with --system: also read private items')
      .option('--name <name>', 'a name to recognise the token by')
      .addHelpText('after', '\nExamples:\n  ops serve token create --user alice@example.com --name laptop\n  ops serve token create --system --private-access --name backup --json'),
  ).action((flags: TokenCreateOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export interface TokenListOptions extends DataDirOption {
  /** only this user's tokens */
  user?: string;
}

export function newCmdTokenList(f: Factory, runF: RunFunction<TokenListOptions> = runTokenList): Command {
  return dataDirOption(
    new Command('list')
      .alias('ls')
      .description('List tokens (never their values)')
      .option('--user <user>', "only this user's tokens")
      .addHelpText('after', examples('ops serve token list', 'ops serve token list --user alice@example.com --json')),
  ).action((flags: TokenListOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export interface TokenRevokeOptions extends DataDirOption {
  /** the token id */
  id: string;
}

export function newCmdTokenRevoke(f: Factory, runF: RunFunction<TokenRevokeOptions> = runTokenRevoke): Command {
  return dataDirOption(
    new Command('revoke').arguments('<id>').description('Revoke a token: it stops working at once').addHelpText('after', examples('ops serve token revoke 7', 'ops serve token revoke 7 --yes')),
  ).action((id: string, flags: DataDirOption, cmd: Command) => runWith(f, runF, withDataDir({ ...flags, id }, cmd)));
}

function dir(ctx: Context, flags: DataDirOption): string {
  return resolveDataDir(flags.dataDir, ctx.env);
}

export async function runUserAdd(flags: UserAddOptions, ctx: Context): Promise<void> {
  const r = await call<{ user: UserInfo; token: string }>(ctx, flags, 'user.add', { name: flags.name, email: flags.email, tokenName: flags.tokenName });
  if (ctx.json) return ctx.out.ndjson({ user: r.user, token: r.token });
  ctx.out.success(`user ${r.user.id} ${r.user.email} added; its API token (shown only now):`);
  await ctx.out.write(`${r.token}\n`);
}

export async function runUserList(flags: UserListOptions, ctx: Context): Promise<void> {
  const rows = await call<UserInfo[]>(ctx, flags, 'user.list');
  await ctx.out.list(rows, [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', shrink: true },
    { header: 'email', key: 'email', shrink: true },
    { header: 'tokens', key: 'tokens' },
    { header: 'created', key: 'created_at' },
  ]);
}

export async function runUserUpdate(flags: UserUpdateOptions, ctx: Context): Promise<void> {
  const { ref } = flags;
  if (flags.name === undefined && flags.email === undefined) throw new UsageError('nothing to change: give --name or --email');
  const u = await call<UserInfo>(ctx, flags, 'user.update', { user: ref, name: flags.name, email: flags.email });
  if (ctx.json) return ctx.out.ndjson({ user: u });
  ctx.out.success(`user ${u.id} ${u.email} updated`);
}

export async function runUserRm(flags: UserRmOptions, ctx: Context): Promise<void> {
  const { ref } = flags;
  const u = (await call<UserInfo[]>(ctx, flags, 'user.list')).find((x) => String(x.id) === ref || x.email.toLowerCase() === ref.toLowerCase());
  if (!u) throw new OpsError(`no user "${ref}"`, undefined, 'See `ops serve user list`.');
  if (!(await ctx.prompter.confirm(`Remove user ${u.email} and all their bookmarks?`, { action: `remove user ${u.email}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const removed = await call<UserInfo>(ctx, flags, 'user.remove', { user: String(u.id) });
  if (ctx.json) return ctx.out.ndjson({ removed });
  ctx.out.success(`user ${removed.id} ${removed.email} removed`);
}

export async function runTokenCreate(flags: TokenCreateOptions, ctx: Context): Promise<void> {
  const r = await call<{ token: string; info: TokenInfo }>(ctx, flags, 'token.create', { user: flags.user, system: flags.system, privateAccess: flags.privateAccess, name: flags.name });
  if (ctx.json) return ctx.out.ndjson({ ...r.info, token: r.token });
  const who = r.info.system ? `system token${r.info.private_access ? ' with private access' : ''}` : `token for ${r.info.user_email}`;
  ctx.out.success(`${who} "${r.info.name}" (id ${r.info.id}) created; its value (shown only now):`);
  await ctx.out.write(`${r.token}\n`);
}

export async function runTokenList(flags: TokenListOptions, ctx: Context): Promise<void> {
  const rows = await call<TokenInfo[]>(ctx, flags, 'token.list', { user: flags.user });
  await ctx.out.list(rows, [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', shrink: true },
    { header: 'user', get: (r) => r.user_email ?? (r.system ? (r.private_access ? 'system (private access)' : 'system') : '') },
    { header: 'created', key: 'created_at' },
    { header: 'last used', get: (r) => r.last_used_at ?? '' },
  ]);
}

export async function runTokenRevoke(flags: TokenRevokeOptions, ctx: Context): Promise<void> {
  const { id } = flags;
  if (!(await ctx.prompter.confirm(`Revoke token ${id}?`, { action: `revoke token ${id}` }))) {
    ctx.out.info('cancelled');
    return;
  }
  const info = await call<TokenInfo>(ctx, flags, 'token.revoke', { id });
  if (ctx.json) return ctx.out.ndjson({ revoked: info });
  ctx.out.success(`token ${info.id} "${info.name}" revoked`);
}
