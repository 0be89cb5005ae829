/** `ops bm lists ...` and `ops bm tags ...`: list, get, add, edit, rm, links; each verb's command, options and run function. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { addVerbs } from '../factory.js';
import { examples } from '../help-text.js';
import type { CollectionInput, CollectionKind, List } from '../../clients/bookmarks.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { collectionColumns, collectionFields, linkColumns } from './format.js';
import { bm, collectionRef, mode, orderDir, pagingOptions, parseIds, positiveInt, printStream, runBm, singular, trashEach, visibilityOption, type PagingOptions } from './shared.js';

const SORT = ['id', 'name', 'description', 'visibility', 'created_at', 'updated_at', 'random'];

/** `ops bm lists` or `ops bm tags`: the group and its verbs (the same verbs for both kinds). */
export function newCmdCollections(f: Factory, kind: CollectionKind): Command {
  const group = new Command(kind)
    .alias(singular(kind))
    .description(`${kind === 'lists' ? 'Lists' : 'Tags'}: list, get, add, edit, rm, links`)
    .addHelpText(
      'after',
      examples(`ops bm ${kind} list`, `ops bm ${kind} add ${kind === 'lists' ? '"Reading list"' : 'reading'}`, `ops bm ${kind} links ${kind === 'lists' ? '"Reading list"' : 'reading'} --json`),
    );
  return addVerbs(
    group,
    newCmdCollectionsList(f, kind),
    newCmdCollectionsGet(f, kind),
    newCmdCollectionsAdd(f, kind),
    newCmdCollectionsEdit(f, kind),
    newCmdCollectionsRm(f, kind),
    newCmdCollectionsLinks(f, kind),
  );
}

/** Every collection verb acts on one kind. */
interface KindOption {
  kind: CollectionKind;
}

export interface CollectionsListOptions extends KindOption, PagingOptions {
  sort?: string;
  order?: string;
}

export function newCmdCollectionsList(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsListOptions> = runCollectionsList): Command {
  return pagingOptions(new Command('list').alias('ls').description(`List ${kind}`))
    .option('--sort <field>', `id, name, ${kind === 'lists' ? 'description, ' : ''}visibility, created_at, updated_at, random`)
    .option('--order <dir>', 'asc or desc (default desc)')
    .addHelpText('after', examples(`ops bm ${kind} list --all`, `ops bm ${kind} list --sort name --order asc`))
    .action((flags: Omit<CollectionsListOptions, 'kind'>) => runBm(f, runF, { ...flags, kind }));
}

export async function runCollectionsList(opts: CollectionsListOptions, ctx: Context): Promise<void> {
  const { kind } = opts;
  // Tags have no description column (LinkAce whitelists it for tags and then fails on it).
  const allowed = SORT.filter((s) => kind === 'lists' || s !== 'description');
  if (opts.sort !== undefined && !allowed.includes(opts.sort)) throw new UsageError(`--sort must be one of ${allowed.join(', ')}`);
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  const chunks = bm(ctx).collections<List>(kind, { order_by: opts.sort, order_dir: orderDir(opts.order) }, { limit, all: opts.all });
  await printStream(ctx, chunks, collectionColumns(mode(ctx), kind), undefined, limit);
}

export interface CollectionsGetOptions extends KindOption {
  /** id or name */
  ref: string;
}

export function newCmdCollectionsGet(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsGetOptions> = runCollectionsGet): Command {
  return new Command('get')
    .arguments(`<${singular(kind)}>`)
    .alias('show')
    .description(`Show a ${singular(kind)} (by id or name)`)
    .addHelpText('after', examples(`ops bm ${kind} get 3`, `ops bm ${kind} get "reading"`))
    .action((ref: string) => runBm(f, runF, { kind, ref }));
}

export async function runCollectionsGet(opts: CollectionsGetOptions, ctx: Context): Promise<void> {
  const { kind, ref } = opts;
  const client = bm(ctx);
  const item = await client.getCollection<List>(kind, await collectionRef(client, kind, ref));
  await ctx.out.item(item, collectionFields(mode(ctx), kind));
}

export interface CollectionsAddOptions extends KindOption {
  name: string;
  description?: string;
  visibility?: string;
}

export function newCmdCollectionsAdd(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsAddOptions> = runCollectionsAdd): Command {
  const add = new Command('add')
    .arguments('<name>')
    .description(`Create a ${singular(kind)}`)
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)');
  if (kind === 'lists') add.option('--description <text>', 'description');
  return add
    .addHelpText('after', examples(`ops bm ${kind} add reading --visibility internal`))
    .action((name: string, flags: Omit<CollectionsAddOptions, 'kind' | 'name'>) => runBm(f, runF, { ...flags, kind, name }));
}

export async function runCollectionsAdd(opts: CollectionsAddOptions, ctx: Context): Promise<void> {
  const { kind, name } = opts;
  const input: CollectionInput = { name: name.trim() };
  if (!input.name) throw new UsageError(`the ${singular(kind)} name is empty`);
  if (opts.description !== undefined) {
    if (kind === 'tags') throw new UsageError('tags have no description');
    input.description = opts.description;
  }
  const visibility = visibilityOption(opts.visibility);
  if (visibility !== undefined) input.visibility = visibility;
  const item = await bm(ctx).createCollection<List>(kind, input);
  if (!ctx.json) ctx.out.success(`added ${singular(kind)} ${item.id}`);
  await ctx.out.item(item, collectionFields(mode(ctx), kind));
}

export interface CollectionsEditOptions extends KindOption {
  /** id or name */
  ref: string;
  name?: string;
  description?: string;
  visibility?: string;
}

export function newCmdCollectionsEdit(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsEditOptions> = runCollectionsEdit): Command {
  const edit = new Command('edit')
    .arguments(`<${singular(kind)}>`)
    .description(`Change a ${singular(kind)} (by id or name)`)
    .option('--name <name>', 'new name')
    .option('--visibility <v>', 'public, internal or private (or 1, 2, 3)');
  if (kind === 'lists') edit.option('--description <text>', 'description ("" clears it)');
  return edit
    .addHelpText('after', examples(`ops bm ${kind} edit 3 --name later`, `ops bm ${kind} edit reading --visibility private`))
    .action((ref: string, flags: Omit<CollectionsEditOptions, 'kind' | 'ref'>) => runBm(f, runF, { ...flags, kind, ref }));
}

export async function runCollectionsEdit(opts: CollectionsEditOptions, ctx: Context): Promise<void> {
  const { kind, ref } = opts;
  const client = bm(ctx);
  const id = await collectionRef(client, kind, ref);
  const changes: CollectionInput = {};
  if (opts.name !== undefined) {
    if (!opts.name.trim()) throw new UsageError('--name is empty');
    changes.name = opts.name.trim();
  }
  if (opts.description !== undefined) {
    if (kind === 'tags') throw new UsageError('tags have no description');
    changes.description = opts.description === '' ? null : opts.description;
  }
  const visibility = visibilityOption(opts.visibility);
  if (visibility !== undefined) changes.visibility = visibility;
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change', `Give --name${kind === 'lists' ? ', --description' : ''} or --visibility.`);
  const item = await client.updateCollection<List>(kind, id, changes);
  if (!ctx.json) ctx.out.success(`updated ${singular(kind)} ${item.id}`);
  await ctx.out.item(item, collectionFields(mode(ctx), kind));
}

export interface CollectionsRmOptions extends KindOption {
  /** ids or names */
  refs: string[];
}

export function newCmdCollectionsRm(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsRmOptions> = runCollectionsRm): Command {
  return new Command('rm')
    .arguments(`<${singular(kind)}...>`)
    .alias('delete')
    .description(`Move ${kind} to the trash (asks first; --yes in scripts)`)
    .addHelpText('after', examples(`ops bm ${kind} rm 3`, `ops bm ${kind} rm old-stuff --yes`))
    .action((refs: string[]) => runBm(f, runF, { kind, refs }));
}

export async function runCollectionsRm(opts: CollectionsRmOptions, ctx: Context): Promise<void> {
  const { kind, refs } = opts;
  const client = bm(ctx);
  const ids: number[] = [];
  for (const ref of refs) {
    if (/^[\d,]+$/.test(ref)) ids.push(...parseIds([ref], `${singular(kind)} id`));
    else ids.push(await collectionRef(client, kind, ref));
  }
  if (ids.length === 0) throw new UsageError(`give at least one ${singular(kind)}`);
  const what = ids.length === 1 ? `${singular(kind)} ${ids[0]}` : `${ids.length} ${kind} (${ids.join(', ')})`;
  const note = kind === 'tags' ? ' Its links stay; they lose the tag.' : ' Its links stay; they leave the list.';
  if (!(await ctx.prompter.confirm(`Move ${what} to the trash?${note}`, { action: `delete ${what}` }))) throw new OpsError('cancelled', 2);
  await trashEach(ctx, ids, (id) => client.deleteCollection(kind, id), singular(kind), kind);
}

export interface CollectionsLinksOptions extends KindOption, PagingOptions {
  /** id or name */
  ref: string;
}

export function newCmdCollectionsLinks(f: Factory, kind: CollectionKind, runF: RunFunction<CollectionsLinksOptions> = runCollectionsLinks): Command {
  return pagingOptions(new Command('links').arguments(`<${singular(kind)}>`).description(`Links ${kind === 'lists' ? 'in a list' : 'with a tag'} (by id or name)`))
    .addHelpText('after', examples(`ops bm ${kind} links 3`, `ops bm ${kind} links reading --all --json`))
    .action((ref: string, flags: PagingOptions) => runBm(f, runF, { ...flags, kind, ref }));
}

export async function runCollectionsLinks(opts: CollectionsLinksOptions, ctx: Context): Promise<void> {
  const { kind, ref } = opts;
  const client = bm(ctx);
  const id = await collectionRef(client, kind, ref);
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  await printStream(ctx, client.collectionLinks(kind, id, { limit, all: opts.all }), linkColumns(mode(ctx)), undefined, limit);
}
