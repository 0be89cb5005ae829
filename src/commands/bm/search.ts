/** `ops bm search <query>`: links (title/description switches, tags, lists, visibility, broken only), tags, lists. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import type { SearchLinksQuery } from '../../clients/bookmarks.js';
import { UsageError } from '../../core/errors.js';
import { linkColumns } from './format.js';
import { bm, collect, mode, NameResolver, orderDir, pagingOptions, positiveInt, printStream, runBm, visibilityOption, type PagingOptions } from './shared.js';

export interface SearchOptions extends PagingOptions {
  query?: string;
  type?: string;
  title?: boolean;
  description?: boolean;
  urlOnly?: boolean;
  tag?: string[];
  list?: string[];
  visibility?: string;
  broken?: boolean;
  sort?: string;
  order?: string;
}

export function newCmdSearch(f: Factory, runF: RunFunction<SearchOptions> = runSearch): Command {
  return pagingOptions(
    new Command('search')
      .arguments('[query]')
      .description('Search your links (URL, title, description; filters), or tags or lists by name')
      .option('--type <type>', 'links, tags or lists (default links)')
      .option('--title', 'match the title (with --description: only those; default URL, title and description)')
      .option('--description', 'match the description')
      .option('--url-only', 'match the URL only')
      .option('--tag <name>', 'with this tag (repeatable; any of them)', collect)
      .option('--list <name>', 'in this list (repeatable; any of them)', collect)
      .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)')
      .option('--broken', 'only moved or broken links')
      .option('--sort <field>', 'title, url or created_at')
      .option('--order <dir>', 'asc or desc'),
  )
    .addHelpText('after', examples('ops bm search rust', 'ops bm search rust --title --tag reading', 'ops bm search --broken --all', 'ops bm search prog --type tags'))
    .action((query: string | undefined, flags: Omit<SearchOptions, 'query'>) => runBm(f, runF, { ...flags, query }));
}

export async function runSearch(opts: SearchOptions, ctx: Context): Promise<void> {
  const { query } = opts;
  const type = opts.type ?? 'links';
  if (!['links', 'tags', 'lists'].includes(type)) throw new UsageError(`--type must be links, tags or lists, not "${type}"`);
  const client = bm(ctx);
  if (type !== 'links') {
    if (!query?.trim()) throw new UsageError(`searching ${type} needs a query`);
    const found = await client.searchCollections(type as 'tags' | 'lists', query.trim());
    await ctx.out.list(found, [
      { header: 'id', key: 'id' },
      { header: 'name', key: 'name', style: (t, _r, c) => c.bold(t) },
    ]);
    if (found.length === 0 && ctx.out.format === 'table') ctx.out.info('No results.');
    return;
  }
  const resolver = new NameResolver(client);
  const q: SearchLinksQuery = {};
  if (query?.trim()) {
    q.query = query.trim();
    const both = !opts.title && !opts.description && !opts.urlOnly;
    q.search_title = both || Boolean(opts.title);
    q.search_description = both || Boolean(opts.description);
  }
  if (opts.tag?.length) q.only_tags = await resolver.ids('tags', opts.tag);
  if (opts.list?.length) q.only_lists = await resolver.ids('lists', opts.list);
  if (opts.broken) q.broken_only = true;
  q.visibility = visibilityOption(opts.visibility);
  if (!q.query && !q.only_tags && !q.only_lists && !q.broken_only) {
    throw new UsageError('give a search query, or one of --tag, --list, --broken');
  }
  if (opts.sort !== undefined) {
    if (!['title', 'url', 'created_at'].includes(opts.sort)) throw new UsageError('--sort must be title, url or created_at');
    q.order_by = `${opts.sort}:${orderDir(opts.order) ?? 'asc'}`;
  } else if (opts.order !== undefined) q.order_by = `title:${orderDir(opts.order)}`;
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  await printStream(ctx, client.searchLinks(q, { limit, all: opts.all }), linkColumns(mode(ctx), { tags: true }), undefined, limit);
}
