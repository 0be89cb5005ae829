/**
 * What every `ops bm` verb needs: the client, id/visibility parsing, names -> ids, streaming lists, and the
 * shared pieces of its command (paging flags; an action that runs with the factory's context and turns
 * helper errors into CLI errors).
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { BookmarkClient, type CollectionKind, type Tag } from '../../clients/bookmarks.js';
import { parseVisibility, VisibilityError } from '../../clients/bookmarks/visibility.js';
import { ShapeError } from '../../clients/bookmarks/pages.js';
import { RecordsError } from '../../clients/bookmarks/records.js';
import { ApiError, OpsError, UsageError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import type { Mode } from './format.js';
import { cannotRead } from '../../core/file-errors.js';

const clients = new WeakMap<Context, BookmarkClient>();

export function bm(ctx: Context): BookmarkClient {
  let client = clients.get(ctx);
  if (!client) {
    client = new BookmarkClient(ctx.http('bm'));
    clients.set(ctx, client);
  }
  return client;
}

export function mode(ctx: Context): Mode {
  return ctx.out.format;
}

export function parseId(value: string, what = 'id'): number {
  const text = String(value).trim();
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new UsageError(`${what} must be a positive whole number, not "${value}"`);
  return Number(text);
}

export function parseIds(values: readonly string[], what = 'id'): number[] {
  // An id given twice is acted on once (a second delete or restore would fail as "not found").
  return [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .filter((v) => v.trim() !== '')
        .map((v) => parseId(v, what)),
    ),
  ];
}

export function visibilityOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseVisibility(value);
  } catch (err) {
    throw new UsageError(`--visibility: ${(err as Error).message}`);
  }
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number, not "${value}"`);
  return Number(value);
}

/** Commander collector for repeatable options that also take comma-separated values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

export const SORT_DIRS = ['asc', 'desc'] as const;

export function orderDir(value: string | undefined): 'asc' | 'desc' | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (v !== 'asc' && v !== 'desc') throw new UsageError(`--order must be asc or desc, not "${value}"`);
  return v;
}

/** `--limit N` and `--all`, for verbs that list pages of items. */
export interface PagingOptions {
  limit?: string;
  all?: boolean;
}

export function pagingOptions(cmd: Command): Command {
  return cmd.option('--limit <n>', 'at most this many (default 25)').option('--all', 'every item, following pages (rows print as pages arrive)');
}

/** Run a bm verb with the factory's context, helper errors turned into CLI errors. */
export async function runBm<O>(f: Factory, runF: RunFunction<O>, options: O): Promise<void> {
  try {
    await runWith(f, runF, options);
  } catch (err) {
    throw cliError(err);
  }
}

/** Errors of pure helpers as CLI errors. */
export function cliError(err: unknown): unknown {
  if (err instanceof VisibilityError || err instanceof RecordsError) return new UsageError(err.message);
  if (err instanceof ShapeError) return new OpsError(err.message, 1, 'Is --bm-url the base URL of a LinkAce (or `ops serve`) instance?');
  return err;
}

/**
 * True for a create refused because the caller already has a list or tag of that name (422 on `name`,
 * "has already been taken"): another client created it meanwhile, so the existing one is to be used.
 */
export function isNameTaken(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 422) return false;
  const messages = err.fieldErrors.name ?? [];
  return messages.some((m) => /already been taken|already exists/i.test(m));
}

/** Resolves tag or list names (or ids) to ids; missing names are created when `create`, else an error. */
export class NameResolver {
  private cache = new Map<CollectionKind, Promise<Tag[]>>();
  readonly created: { kind: CollectionKind; tag: Tag }[] = [];

  constructor(
    private readonly client: BookmarkClient,
    private readonly options: { create: boolean; dryRun?: boolean; visibility?: number } = { create: false },
  ) {}

  /** Forgets what it knows of `kind`: the next look-up asks the server again (another client changed it). */
  forget(kind: CollectionKind): void {
    this.cache.delete(kind);
  }

  all(kind: CollectionKind): Promise<Tag[]> {
    let p = this.cache.get(kind);
    if (!p) {
      p = this.client.allCollections<Tag>(kind);
      this.cache.set(kind, p);
    }
    return p;
  }

  /** Every visible list/tag a ref names: by id (a number), else by exact name, else ignoring case, else a digit string as id. */
  async matches(kind: CollectionKind, ref: string | number): Promise<{ items: Tag[]; exact: boolean }> {
    const items = await this.all(kind);
    if (typeof ref === 'number') return { items: items.filter((t) => t.id === ref), exact: false };
    const name = ref.trim();
    const exact = items.filter((t) => t.name === name);
    if (exact.length) return { items: exact, exact: true };
    const folded = items.filter((t) => t.name.toLowerCase() === name.toLowerCase());
    if (folded.length) return { items: folded, exact: false };
    return { items: /^\d+$/.test(name) ? items.filter((t) => t.id === Number(name)) : [], exact: false };
  }

  async find(kind: CollectionKind, ref: string | number): Promise<Tag | undefined> {
    return (await this.matches(kind, ref)).items[0];
  }

  /**
   * Ids for filters (search `only_tags`/`only_lists`): a name shared by several visible lists/tags
   * (yours and other users') gives all of them, so a filter matches any.
   */
  async ids(kind: CollectionKind, refs: readonly (string | number)[]): Promise<number[]> {
    return (await this.resolve(kind, refs, false)) as number[];
  }

  /**
   * Refs to send with a link (create, update, bulk): one id per name, or, where several visible
   * lists/tags carry that exact name (another user's internal tag "news" and yours), the name itself,
   * which the server resolves to the caller's own (LinkAce: firstOrCreate by user and name).
   */
  async refs(kind: CollectionKind, refs: readonly (string | number)[]): Promise<(number | string)[]> {
    return this.resolve(kind, refs, true);
  }

  private async resolve(kind: CollectionKind, refs: readonly (string | number)[], forLink: boolean): Promise<(number | string)[]> {
    const out: (number | string)[] = [];
    const missing: string[] = [];
    for (const ref of refs) {
      const { items, exact } = await this.matches(kind, ref);
      if (items.length === 0) {
        if (typeof ref === 'number') throw new OpsError(`no ${singular(kind)} with id ${ref}`);
        missing.push(ref.trim());
      } else if (!forLink) out.push(...items.map((t) => t.id));
      else if (items.length > 1 && exact && typeof ref === 'string' && !/^\d+$/.test(ref.trim())) out.push(ref.trim());
      else out.push(items[0]!.id);
    }
    if (missing.length && !this.options.create) {
      throw new OpsError(
        `no ${kind === 'tags' ? 'tag' : 'list'} named ${missing.map((m) => `"${m}"`).join(', ')}`,
        1,
        `Pass --create-missing to create ${missing.length === 1 ? 'it' : 'them'}, or see \`ops bm ${kind} list\`.`,
      );
    }
    for (const name of missing) out.push((await this.create(kind, name)).id);
    return [...new Set(out)];
  }

  async create(kind: CollectionKind, name: string): Promise<Tag> {
    const items = await this.all(kind);
    const existing = items.find((t) => t.name === name);
    if (existing) return existing;
    let tag: Tag;
    try {
      tag = this.options.dryRun
        ? { id: -(items.length + 1), name }
        : await this.client.createCollection<Tag>(kind, { name, ...(this.options.visibility ? { visibility: this.options.visibility } : {}) });
    } catch (err) {
      // another client created it since the look-up: use theirs
      if (!isNameTaken(err)) throw err;
      this.forget(kind);
      const theirs = (await this.all(kind)).find((t) => t.name === name);
      if (theirs) return theirs;
      throw err;
    }
    items.push(tag);
    this.created.push({ kind, tag });
    return tag;
  }
}

export function singular(kind: string): string {
  return kind.replace(/s$/, '');
}

/** Resolves an argument that is an id or a name of a list/tag. */
export async function collectionRef(client: BookmarkClient, kind: CollectionKind, ref: string): Promise<number> {
  const resolver = new NameResolver(client);
  if (/^\d+$/.test(ref.trim())) {
    // An id, unless there is no such id and a list/tag is named like that ("2024").
    const byName = (await resolver.all(kind)).find((t) => t.name === ref.trim());
    const byId = (await resolver.all(kind)).some((t) => t.id === Number(ref));
    return !byId && byName ? byName.id : parseId(ref);
  }
  const { items } = await resolver.matches(kind, ref);
  if (!items.length) throw new OpsError(`no ${singular(kind)} named "${ref}"`, 1, `See \`ops bm ${kind} list\`.`);
  // Several (yours and other users', or lists of the same name): never guess which one to change or delete.
  if (items.length > 1)
    throw new OpsError(`${items.length} ${kind} are named "${ref.trim()}" (ids ${items.map((t) => t.id).join(', ')})`, 1, `Give the id instead: \`ops bm ${kind} list\` shows them.`);
  return items[0]!.id;
}

/** Print chunks as they arrive (table/TSV rows, or one JSON array). */
export async function printStream<T>(ctx: Context, chunks: AsyncIterable<T[]>, columns: Column<T>[], filter?: (row: T) => boolean, limit?: number): Promise<number> {
  const stream = ctx.out.listStream(columns);
  let count = 0;
  try {
    for await (let chunk of chunks) {
      if (filter) chunk = chunk.filter(filter);
      if (limit !== undefined && count + chunk.length > limit) chunk = chunk.slice(0, limit - count);
      count += chunk.length;
      await stream.push(chunk);
      if (limit !== undefined && count >= limit) break;
    }
  } finally {
    await stream.end();
  }
  if (count === 0 && ctx.out.format === 'table') ctx.out.info('No results.');
  return count;
}

export async function readText(ctx: Context, file: string): Promise<string> {
  if (file === '-') {
    const { readStdin } = await import('../../core/prompts.js');
    return readStdin(ctx.io);
  }
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new OpsError(cannotRead(file, err));
  }
}

/** Run `fn` over items with at most `n` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], n: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(n, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Moves each id to the trash in turn (`remove`; a failure does not stop the others), then reports: with --json
 * the list of `{id, deleted, error}`, else a line for each one moved and, of several, a warning for each failure.
 * A lone failure is thrown as it is (without --json); failures among several are one OpsError that counts them.
 * `thing` names one item in messages ("link", "tag"), `things` several ("links", "tags").
 */
export async function trashEach(ctx: Context, ids: readonly number[], remove: (id: number) => Promise<unknown>, thing: string, things: string): Promise<void> {
  const results: { id: number; deleted: boolean; error: string | null }[] = [];
  let lastError: unknown;
  for (const id of ids) {
    try {
      await remove(id);
      results.push({ id, deleted: true, error: null });
    } catch (err) {
      lastError = err;
      results.push({ id, deleted: false, error: (err as Error).message });
    }
  }
  const failed = results.filter((r) => !r.deleted);
  if (ctx.json) await ctx.out.writeJson(results);
  else for (const r of results) if (r.deleted) ctx.out.success(`moved ${thing} ${r.id} to the trash`);
  if (!ctx.json && ids.length > 1) for (const r of failed) ctx.out.warn(`${thing} ${r.id}: ${r.error}`);
  if (failed.length) {
    if (ids.length === 1 && !ctx.json) throw lastError;
    throw new OpsError(`${failed.length} of ${ids.length} ${things} were not deleted`);
  }
}
