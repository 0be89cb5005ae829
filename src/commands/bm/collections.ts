/** `ops bm lists ...` and `ops bm tags ...`: list, get, add, edit, rm, links. */
import type { Context } from '../../context.js';
import type { CollectionInput, CollectionKind, List } from '../../clients/bookmarks.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { collectionColumns, collectionFields, linkColumns } from './format.js';
import { bm, collectionRef, mode, orderDir, parseIds, positiveInt, printStream, singular, visibilityOption } from './shared.js';

const SORT = ['id', 'name', 'description', 'visibility', 'created_at', 'updated_at', 'random'];

export async function collectionsList(ctx: Context, kind: CollectionKind, opts: { sort?: string; order?: string; limit?: string; all?: boolean }): Promise<void> {
  // Tags have no description column (LinkAce whitelists it for tags and then fails on it).
  const allowed = SORT.filter((s) => kind === 'lists' || s !== 'description');
  if (opts.sort !== undefined && !allowed.includes(opts.sort)) throw new UsageError(`--sort must be one of ${allowed.join(', ')}`);
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  const chunks = bm(ctx).collections<List>(kind, { order_by: opts.sort, order_dir: orderDir(opts.order) }, { limit, all: opts.all });
  await printStream(ctx, chunks, collectionColumns(mode(ctx), kind), undefined, limit);
}

export async function collectionsGet(ctx: Context, kind: CollectionKind, ref: string): Promise<void> {
  const client = bm(ctx);
  const item = await client.getCollection<List>(kind, await collectionRef(client, kind, ref));
  await ctx.out.item(item, collectionFields(mode(ctx), kind));
}

export async function collectionsAdd(ctx: Context, kind: CollectionKind, name: string, opts: { description?: string; visibility?: string }): Promise<void> {
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

export async function collectionsEdit(ctx: Context, kind: CollectionKind, ref: string, opts: { name?: string; description?: string; visibility?: string }): Promise<void> {
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

export async function collectionsRemove(ctx: Context, kind: CollectionKind, refs: string[]): Promise<void> {
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
  const results: { id: number; deleted: boolean; error: string | null }[] = [];
  let lastError: unknown;
  for (const id of ids) {
    try {
      await client.deleteCollection(kind, id);
      results.push({ id, deleted: true, error: null });
    } catch (err) {
      lastError = err;
      results.push({ id, deleted: false, error: (err as Error).message });
    }
  }
  const failed = results.filter((r) => !r.deleted);
  if (ctx.json) await ctx.out.writeJson(results);
  else for (const r of results) if (r.deleted) ctx.out.success(`moved ${singular(kind)} ${r.id} to the trash`);
  if (!ctx.json && ids.length > 1) for (const r of failed) ctx.out.warn(`${singular(kind)} ${r.id}: ${r.error}`);
  if (failed.length) {
    if (ids.length === 1 && !ctx.json) throw lastError;
    throw new OpsError(`${failed.length} of ${ids.length} ${kind} were not deleted`);
  }
}

export async function collectionsLinks(ctx: Context, kind: CollectionKind, ref: string, opts: { limit?: string; all?: boolean }): Promise<void> {
  const client = bm(ctx);
  const id = await collectionRef(client, kind, ref);
  const limit = positiveInt(opts.limit, '--limit') ?? (opts.all ? undefined : 25);
  await printStream(ctx, client.collectionLinks(kind, id, { limit, all: opts.all }), linkColumns(mode(ctx)), undefined, limit);
}
