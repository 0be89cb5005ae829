/** `ops bm links list|get|add|edit|rm|open|notes`: each verb's command, typed options and run function. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { addVerbs } from '../factory.js';
import { examples } from '../help-text.js';
import type { Link, LinkInput, SearchLinksQuery } from '../../clients/bookmarks.js';
import { parseStatus } from '../../clients/bookmarks/visibility.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { linkColumns, linkFields, noteColumns } from './format.js';
import { bm, collect, mode, NameResolver, orderDir, pagingOptions, parseId, parseIds, positiveInt, printStream, runBm, trashEach, visibilityOption, type PagingOptions } from './shared.js';

/** `ops bm links`: the group and its verbs. */
export function newCmdLinks(f: Factory): Command {
  const links = new Command('links')
    .alias('link')
    .description('Links (bookmarks): list, get, add, edit, rm, open, notes')
    .addHelpText('after', examples('ops bm links list --tag docs --limit 10', 'ops bm links add https://example.com --tag reading --create-missing', 'ops bm links rm 12 --yes'));
  return addVerbs(links, newCmdLinksList(f), newCmdLinksGet(f), newCmdLinksAdd(f), newCmdLinksEdit(f), newCmdLinksRm(f), newCmdLinksOpen(f), newCmdLinksNotes(f));
}

export interface LinksListOptions extends PagingOptions {
  tag?: string[];
  list?: string[];
  visibility?: string;
  broken?: boolean;
  status?: string;
  query?: string;
  sort?: string;
  order?: string;
}

export function newCmdLinksList(f: Factory, runF: RunFunction<LinksListOptions> = runLinksList): Command {
  return pagingOptions(
    new Command('list')
      .alias('ls')
      .description('List links, newest first; filters use the search API (your own links)')
      .option('--tag <name>', 'with this tag (repeatable or comma-separated; any of them)', collect)
      .option('--list <name>', 'in this list (repeatable or comma-separated; any of them)', collect)
      .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
      .option('--broken', 'only moved or broken links')
      .option('--status <s>', 'only ok, moved or broken links')
      .option('-q, --query <text>', 'URL, title or description contains this')
      .option('--sort <field>', 'id, url, title, created_at, updated_at, visibility, status, random')
      .option('--order <dir>', 'asc or desc (default desc)'),
  )
    .addHelpText('after', examples('ops bm links list', 'ops bm links list --tag docs --tag rust --limit 50', 'ops bm links list --broken --all --json | jq -r ".[].url"'))
    .action((flags: LinksListOptions) => runBm(f, runF, { ...flags }));
}

const LINK_SORT = ['id', 'url', 'title', 'description', 'visibility', 'status', 'check_disabled', 'created_at', 'updated_at', 'random'];
const SEARCH_SORT = ['title', 'url', 'created_at'];

export async function runLinksList(opts: LinksListOptions, ctx: Context): Promise<void> {
  const client = bm(ctx);
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  const dir = orderDir(opts.order);
  const visibility = visibilityOption(opts.visibility);
  const status = opts.status !== undefined ? safeStatus(opts.status) : undefined;
  if (opts.sort !== undefined && !LINK_SORT.includes(opts.sort)) throw new UsageError(`--sort must be one of ${LINK_SORT.join(', ')}`);
  // --status is filtered here (the API has no status filter); moved/broken narrow a search with broken_only.
  const searching = Boolean(opts.tag?.length || opts.list?.length || opts.broken || opts.query || (status !== undefined && status > 1));
  // A filter applied here reads pages until --limit rows match.
  const localFilter = status !== undefined || (!searching && visibility !== undefined);
  let chunks: AsyncIterable<Link[]>;
  let filter: ((l: Link) => boolean) | undefined;
  const seen = { total: 0 };
  const onPage = (page: { total: number }) => void (seen.total = page.total);
  if (searching) {
    if (opts.sort !== undefined && !SEARCH_SORT.includes(opts.sort)) throw new UsageError(`with filters, --sort must be one of ${SEARCH_SORT.join(', ')}`);
    const resolver = new NameResolver(client);
    const q: SearchLinksQuery = {
      only_tags: opts.tag?.length ? await resolver.ids('tags', opts.tag) : undefined,
      only_lists: opts.list?.length ? await resolver.ids('lists', opts.list) : undefined,
      broken_only: opts.broken || (status !== undefined && status > 1) || undefined,
      visibility,
      order_by: `${opts.sort ?? 'created_at'}:${dir ?? 'desc'}`,
    };
    if (opts.query) Object.assign(q, { query: opts.query, search_title: true, search_description: true });
    chunks = client.searchLinks(q, { limit: localFilter ? undefined : limit, all: opts.all || localFilter, onPage });
  } else {
    chunks = client.links({ order_by: opts.sort, order_dir: dir }, { limit: localFilter ? undefined : limit, all: opts.all || localFilter, onPage });
  }
  if (localFilter) filter = (l) => (status === undefined || l.status === status) && (visibility === undefined || l.visibility === visibility);
  const shown = await printStream(ctx, chunks, linkColumns(mode(ctx), { tags: searching }), filter, limit);
  // a page (the default 25, or --limit N) is not everything: say how much there is and how to see it
  if (!ctx.json && !localFilter && limit !== undefined && seen.total > shown) {
    ctx.out.info(`showing ${shown} of ${seen.total} links; --all for all of them${opts.limit === undefined ? ', --limit N for more' : ''}`);
  }
}

function safeStatus(value: string): number {
  try {
    return parseStatus(value);
  } catch (err) {
    throw new UsageError(`--status: ${(err as Error).message}`);
  }
}

export interface LinksGetOptions {
  id: string;
}

export function newCmdLinksGet(f: Factory, runF: RunFunction<LinksGetOptions> = runLinksGet): Command {
  return new Command('get')
    .arguments('<id>')
    .alias('show')
    .description('Show one link with its tags and lists')
    .addHelpText('after', examples('ops bm links get 42', 'ops bm links get 42 --json'))
    .action((id: string) => runBm(f, runF, { id }));
}

export async function runLinksGet(opts: LinksGetOptions, ctx: Context): Promise<void> {
  const link = await bm(ctx).getLink(parseId(opts.id, 'link id'));
  await ctx.out.item(link, linkFields(mode(ctx)));
}

/** The fields `add` and `edit` share. */
export interface LinkFieldOptions {
  title?: string;
  description?: string;
  tag?: string[];
  list?: string[];
  visibility?: string;
  checkDisabled?: boolean;
  createMissing?: boolean;
}

function linkFieldOptions(cmd: Command): Command {
  return cmd
    .option('--title <text>', 'title (fetched from the page when omitted on add)')
    .option('--description <text>', 'description')
    .option('--tag <name>', 'tag by name (repeatable or comma-separated)', collect)
    .option('--list <name>', 'list by name (repeatable or comma-separated)', collect)
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
    .option('--check-disabled', 'exclude the link from health checks')
    .option('--create-missing', 'create tags and lists that do not exist yet');
}

export interface LinksAddOptions extends LinkFieldOptions {
  url: string;
  force?: boolean;
}

export function newCmdLinksAdd(f: Factory, runF: RunFunction<LinksAddOptions> = runLinksAdd): Command {
  return linkFieldOptions(new Command('add').arguments('<url>').description('Add a link (warns about a URL that is already saved)'))
    .option('--force', 'skip the duplicate check')
    .addHelpText('after', examples('ops bm links add https://example.com --tag docs --visibility internal', 'ops bm links add https://example.com/new --tag new-tag --create-missing --json'))
    .action((url: string, flags: Omit<LinksAddOptions, 'url'>) => runBm(f, runF, { ...flags, url }));
}

export async function runLinksAdd(opts: LinksAddOptions, ctx: Context): Promise<void> {
  const { url } = opts;
  const client = bm(ctx);
  const input: LinkInput = { url: url.trim() };
  if (!input.url) throw new UsageError('the URL is empty');
  try {
    new URL(input.url);
  } catch {
    throw new UsageError(`"${url}" is not a URL (include the scheme, e.g. https://)`);
  }
  if (opts.title !== undefined) input.title = opts.title;
  if (opts.description !== undefined) input.description = opts.description;
  const visibility = visibilityOption(opts.visibility);
  if (visibility !== undefined) input.visibility = visibility;
  if (opts.checkDisabled) input.check_disabled = true;
  const resolver = new NameResolver(client, { create: Boolean(opts.createMissing) });
  // Unknown names fail before the duplicate question; nothing is created until we know we go ahead.
  if (!opts.createMissing) {
    if (opts.tag?.length) await resolver.ids('tags', opts.tag);
    if (opts.list?.length) await resolver.ids('lists', opts.list);
  }
  if (!opts.force && (await client.urlExists(input.url))) {
    ctx.out.warn(`${input.url} is already saved`);
    const go = ctx.prompter.interactive || ctx.options.yes ? await ctx.prompter.confirm('Create another link with the same URL?', { action: 'create a duplicate link' }) : false;
    if (!go) throw new OpsError('not created: the URL is already saved', 1, 'Pass --force to create it anyway; `ops bm search URL` finds the existing one.');
  }
  if (opts.tag?.length) input.tags = await resolver.refs('tags', opts.tag);
  if (opts.list?.length) input.lists = await resolver.refs('lists', opts.list);
  for (const c of resolver.created) ctx.out.info(`created ${c.kind === 'tags' ? 'tag' : 'list'} "${c.tag.name}" (${c.tag.id})`);
  const link = await client.createLink(input);
  if (!ctx.json) ctx.out.success(`added link ${link.id}`);
  // LinkAce saves a page it cannot fetch as broken with its check disabled, and says nothing of why: say it
  if (!ctx.json && link.status === 3 && link.check_disabled && !opts.checkDisabled)
    ctx.out.warn(
      `the bookmark service could not fetch ${link.url} when saving it (offline, unreachable from the service, or refused): saved as broken, with the host as title and its health check disabled\n  Once the page is up: ops bm links edit ${link.id} --check-enabled, then ops bm check`,
    );
  await ctx.out.item(link, linkFields(mode(ctx)));
}

export interface LinksEditOptions extends LinkFieldOptions {
  id: string;
  url?: string;
  addTag?: string[];
  removeTag?: string[];
  addList?: string[];
  removeList?: string[];
  checkEnabled?: boolean;
}

export function newCmdLinksEdit(f: Factory, runF: RunFunction<LinksEditOptions> = runLinksEdit): Command {
  return linkFieldOptions(new Command('edit').arguments('<id>').description('Change a link (only the given fields; --tag/--list replace, --add-*/--remove-* adjust)'))
    .option('--url <url>', 'new URL')
    .option('--add-tag <name>', 'add a tag (repeatable)', collect)
    .option('--remove-tag <name>', 'remove a tag (repeatable)', collect)
    .option('--add-list <name>', 'add to a list (repeatable)', collect)
    .option('--remove-list <name>', 'remove from a list (repeatable)', collect)
    .option('--check-enabled', 'include the link in health checks again')
    .addHelpText('after', examples('ops bm links edit 42 --title "Better title" --add-tag reading', 'ops bm links edit 42 --visibility private'))
    .action((id: string, flags: Omit<LinksEditOptions, 'id'>) => runBm(f, runF, { ...flags, id }));
}

export async function runLinksEdit(opts: LinksEditOptions, ctx: Context): Promise<void> {
  const client = bm(ctx);
  const id = parseId(opts.id, 'link id');
  const current = await client.getLink(id);
  const changes: LinkInput = {};
  if (opts.url !== undefined) changes.url = opts.url;
  if (opts.title !== undefined) changes.title = opts.title;
  if (opts.description !== undefined) changes.description = opts.description === '' ? null : opts.description;
  const visibility = visibilityOption(opts.visibility);
  if (visibility !== undefined) changes.visibility = visibility;
  if (opts.checkDisabled) changes.check_disabled = true;
  if (opts.checkEnabled) changes.check_disabled = false;
  const resolver = new NameResolver(client, { create: Boolean(opts.createMissing) });
  for (const kind of ['tags', 'lists'] as const) {
    const set = kind === 'tags' ? opts.tag : opts.list;
    const add = kind === 'tags' ? opts.addTag : opts.addList;
    const remove = kind === 'tags' ? opts.removeTag : opts.removeList;
    if (!set && !add?.length && !remove?.length) continue;
    let ids: (number | string)[] = set ? await resolver.refs(kind, set) : (current[kind] ?? []).map((t) => t.id);
    if (add?.length) ids = [...new Set([...ids, ...(await resolver.refs(kind, add))])];
    if (remove?.length) {
      const gone = new Set(await new NameResolver(client).ids(kind, remove));
      ids = ids.filter((i) => typeof i !== 'number' || !gone.has(i));
    }
    changes[kind] = ids;
  }
  for (const c of resolver.created) ctx.out.info(`created ${c.kind === 'tags' ? 'tag' : 'list'} "${c.tag.name}" (${c.tag.id})`);
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change', 'Give at least one of --url, --title, --description, --visibility, --tag, --add-tag, --remove-tag, --list, ...');
  const link = await client.updateLink(id, changes, current);
  if (!ctx.json) ctx.out.success(`updated link ${link.id}`);
  await ctx.out.item(link, linkFields(mode(ctx)));
}

export interface LinksRmOptions {
  ids: string[];
}

export function newCmdLinksRm(f: Factory, runF: RunFunction<LinksRmOptions> = runLinksRm): Command {
  return new Command('rm')
    .arguments('<id...>')
    .alias('delete')
    .description('Move links to the trash (asks first; --yes in scripts)')
    .addHelpText('after', examples('ops bm links rm 42', 'ops bm links rm 42 43 --yes'))
    .action((ids: string[]) => runBm(f, runF, { ids }));
}

export async function runLinksRm(opts: LinksRmOptions, ctx: Context): Promise<void> {
  const ids = parseIds(opts.ids, 'link id');
  if (ids.length === 0) throw new UsageError('give at least one link id');
  const what = ids.length === 1 ? `link ${ids[0]}` : `${ids.length} links (${ids.join(', ')})`;
  if (!(await ctx.prompter.confirm(`Move ${what} to the trash?`, { action: `delete ${what}` }))) throw new OpsError('cancelled', 2);
  const client = bm(ctx);
  await trashEach(ctx, ids, (id) => client.deleteLink(id), 'link', 'links');
}

export interface LinksOpenOptions {
  id: string;
  print?: boolean;
}

export function newCmdLinksOpen(f: Factory, runF: RunFunction<LinksOpenOptions> = runLinksOpen): Command {
  return new Command('open')
    .arguments('<id>')
    .description('Open a link in the browser ($BROWSER, else the system opener)')
    .option('--print', 'print the URL instead')
    .addHelpText('after', examples('ops bm links open 42', 'ops bm links open 42 --print'))
    .action((id: string, flags: Omit<LinksOpenOptions, 'id'>) => runBm(f, runF, { ...flags, id }));
}

export async function runLinksOpen(opts: LinksOpenOptions, ctx: Context): Promise<void> {
  const link = await bm(ctx).getLink(parseId(opts.id, 'link id'));
  if (opts.print || ctx.json) {
    if (ctx.json) await ctx.out.writeJson({ id: link.id, url: link.url });
    else await ctx.out.write(sanitize(link.url) + '\n');
    return;
  }
  let url: URL;
  try {
    url = new URL(link.url);
  } catch {
    throw new OpsError(`link ${link.id} has no openable URL: ${link.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OpsError(`refusing to open a ${url.protocol} URL; use --print to see it`);
  await openInBrowser(ctx, url.toString());
  ctx.out.info(`opened ${url.toString()}`);
}

/** $BROWSER if set, else the platform's opener. The URL is an argument, never part of a shell string. */
export async function openInBrowser(ctx: Context, url: string): Promise<void> {
  // loaded here: the other `ops bm links` verbs never start a process
  const browser = ctx.env.BROWSER?.trim().split(/\s+/).filter(Boolean);
  const [cmd, args] = browser?.length
    ? [browser[0]!, [...browser.slice(1), url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: !browser?.length, env: ctx.env });
    child.once('error', (err) => reject(new OpsError(`could not start a browser (${cmd}): ${err.message}`, 1, 'Set BROWSER, or use --print and open the URL yourself.')));
    if (browser?.length) child.once('exit', (code) => (code === 0 ? resolve() : reject(new OpsError(`${cmd} exited with ${code}`))));
    else
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
  });
}

export interface LinksNotesOptions {
  id: string;
}

export function newCmdLinksNotes(f: Factory, runF: RunFunction<LinksNotesOptions> = runLinksNotes): Command {
  return new Command('notes')
    .arguments('<id>')
    .description('List the notes of a link')
    .addHelpText('after', examples('ops bm links notes 42'))
    .action((id: string) => runBm(f, runF, { id }));
}

export async function runLinksNotes(opts: LinksNotesOptions, ctx: Context): Promise<void> {
  const id = parseId(opts.id, 'link id');
  await printStream(ctx, bm(ctx).linkNotes(id), noteColumns(mode(ctx)));
}
