/** `ops bm trash list|restore|clear`: commands, options, run functions. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { addVerbs } from '../factory.js';
import { examples } from '../help-text.js';
import type { ModelKind } from '../../clients/bookmarks.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { relativeTime } from './format.js';
import { bm, parseIds, runBm, singular } from './shared.js';

/** `ops bm trash`: the group and its verbs. */
export function newCmdTrash(f: Factory): Command {
  const trash = new Command('trash')
    .description('Deleted links, lists, tags and notes: list, restore, clear')
    .addHelpText('after', examples('ops bm trash list', 'ops bm trash restore link 12 13', 'ops bm trash clear --yes'));
  return addVerbs(trash, newCmdTrashList(f), newCmdTrashRestore(f), newCmdTrashClear(f));
}

const KINDS: ModelKind[] = ['links', 'lists', 'tags', 'notes'];

export function trashKind(value: string): ModelKind {
  const v = value.toLowerCase().trim();
  const kind = KINDS.find((k) => k === v || singular(k) === v);
  if (!kind) throw new UsageError(`the type must be one of links, lists, tags, notes (or link, list, tag, note), not "${value}"`);
  return kind;
}

function kindsOf(type: string | undefined): ModelKind[] {
  return type === undefined || type === 'all' ? KINDS : [trashKind(type)];
}

interface TrashRow {
  type: string;
  id: number;
  name: string;
  deleted_at: string | null;
}

function label(kind: ModelKind, item: Record<string, unknown>): string {
  if (kind === 'links') return String(item.title || item.url || '');
  if (kind === 'notes') return `${String(item.note ?? '')} (link ${String(item.link_id ?? '?')})`;
  return String(item.name ?? '');
}

export interface TrashListOptions {
  /** links, lists, tags, notes or all */
  type?: string;
}

export function newCmdTrashList(f: Factory, runF: RunFunction<TrashListOptions> = runTrashList): Command {
  return new Command('list')
    .alias('ls')
    .description('What is in the trash')
    .option('--type <type>', 'links, lists, tags, notes or all (default all)')
    .addHelpText('after', examples('ops bm trash list', 'ops bm trash list --type links --json'))
    .action((flags: TrashListOptions) => runBm(f, runF, { ...flags }));
}

export async function runTrashList(opts: TrashListOptions, ctx: Context): Promise<void> {
  const client = bm(ctx);
  const kinds = kindsOf(opts.type);
  const found: Record<string, Record<string, unknown>[]> = {};
  for (const kind of kinds) found[kind] = await client.trash<Record<string, unknown>>(kind);
  if (ctx.json) return ctx.out.writeJson(kinds.length === 1 ? found[kinds[0]!] : found);
  const rows: TrashRow[] = kinds.flatMap((kind) =>
    found[kind]!.map((item) => ({ type: singular(kind), id: Number(item.id), name: label(kind, item), deleted_at: (item.deleted_at as string | null) ?? null })),
  );
  const table = ctx.out.format === 'table';
  await ctx.out.list(rows, [
    { header: 'type', key: 'type' },
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', shrink: true },
    { header: 'deleted', get: (r) => (table ? relativeTime(r.deleted_at) : (r.deleted_at ?? '')), style: (t, _r, c) => c.dim(t) },
  ]);
  if (rows.length === 0 && table) ctx.out.info('The trash is empty.');
}

export interface TrashRestoreOptions {
  /** link, list, tag or note */
  type: string;
  ids: string[];
}

export function newCmdTrashRestore(f: Factory, runF: RunFunction<TrashRestoreOptions> = runTrashRestore): Command {
  return new Command('restore')
    .arguments('<type> [id...]')
    .description('Restore items (type: link, list, tag or note)')
    .addHelpText('after', examples('ops bm trash restore link 42', 'ops bm trash restore tag 3 4'))
    .action((type: string, ids: string[]) => runBm(f, runF, { type, ids }));
}

export async function runTrashRestore(opts: TrashRestoreOptions, ctx: Context): Promise<void> {
  // `restore 37`: an id where the type goes (the ids are optional in the grammar so that this is caught here)
  if (/^\d+$/.test(opts.type.trim()))
    throw new UsageError(
      `"${opts.type}" is an id: say first what it is, e.g. \`ops bm trash restore link ${[opts.type, ...opts.ids].join(' ')}\``,
      'The type is one of link, list, tag or note; `ops bm trash list` shows the types and ids in the trash.',
    );
  const kind = trashKind(opts.type);
  const ids = parseIds(opts.ids, `${singular(kind)} id`);
  if (ids.length === 0) throw new UsageError(`give at least one ${singular(kind)} id`);
  const client = bm(ctx);
  const results: { type: string; id: number; restored: boolean; error: string | null }[] = [];
  let lastError: unknown;
  // LinkAce "restores" an item that is not in the trash at all (and answers 200): look first, in one read.
  const inTrash = new Set((await client.trash<{ id: number }>(kind)).map((item) => item.id));
  for (const id of ids) {
    if (!inTrash.has(id)) {
      lastError = new OpsError(`${singular(kind)} ${id} is not in the trash`, 1, `\`ops bm trash list ${kind}\` shows what is.`);
      results.push({ type: singular(kind), id, restored: false, error: 'not in the trash' });
      continue;
    }
    try {
      await client.restore(kind, id);
      results.push({ type: singular(kind), id, restored: true, error: null });
    } catch (err) {
      lastError = err;
      results.push({ type: singular(kind), id, restored: false, error: (err as Error).message });
    }
  }
  if (ctx.json) await ctx.out.writeJson(results);
  else for (const r of results) if (r.restored) ctx.out.success(`restored ${r.type} ${r.id}`);
  const failed = results.filter((r) => !r.restored);
  if (!ctx.json && ids.length > 1) for (const r of failed) ctx.out.warn(`${r.type} ${r.id}: ${r.error}`);
  if (failed.length) {
    if (ids.length === 1 && !ctx.json) throw lastError;
    throw new OpsError(`${failed.length} of ${ids.length} were not restored`);
  }
}

export interface TrashClearOptions {
  /** links, lists, tags, notes or all */
  type?: string;
}

export function newCmdTrashClear(f: Factory, runF: RunFunction<TrashClearOptions> = runTrashClear): Command {
  return new Command('clear')
    .description('Delete the trash for good (asks first; --yes in scripts)')
    .option('--type <type>', 'links, lists, tags, notes or all (default all)')
    .addHelpText('after', examples('ops bm trash clear', 'ops bm trash clear --type links --yes'))
    .action((flags: TrashClearOptions) => runBm(f, runF, { ...flags }));
}

export async function runTrashClear(opts: TrashClearOptions, ctx: Context): Promise<void> {
  const kinds = kindsOf(opts.type);
  const what = kinds.length === KINDS.length ? 'everything in the trash' : `the ${kinds.map(singular).join(', ')} trash`;
  if (!(await ctx.prompter.confirm(`Permanently delete ${what}? This cannot be undone.`, { action: `permanently delete ${what}` }))) {
    throw new OpsError('cancelled', 2);
  }
  const client = bm(ctx);
  for (const kind of kinds) await client.clearTrash(kind);
  if (ctx.json) await ctx.out.writeJson({ cleared: kinds });
  else ctx.out.success(`cleared ${what}`);
}
