/**
 * `ops bm bulk add|edit|rm [FILE|-]`: many links (or lists, tags) from a JSON array, NDJSON or CSV, with one
 * result per item. Items that fail locally (no URL, bad visibility, unknown tag) never reach the server;
 * the others go in bulk requests where the server has them. Exit 1 when any item failed.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { addVerbs } from '../factory.js';
import { examples } from '../help-text.js';
import type { BookmarkClient, CollectionKind, LinkInput } from '../../clients/bookmarks.js';
import { parseVisibility } from '../../clients/bookmarks/visibility.js';
import { detectFormat, listField, parseRecords, type InputRecord, type RecordFormat } from '../../clients/bookmarks/records.js';
import { ApiError, OpsError, UsageError } from '../../core/errors.js';
import { startProgress, type Progress } from '../../core/progress.js';
import { createMany } from './create-many.js';
import { bm, mapLimit, NameResolver, readText, runBm, singular } from './shared.js';

/** `ops bm bulk`: the group and its verbs. */
export function newCmdBulk(f: Factory): Command {
  const bulk = new Command('bulk')
    .description('Add, edit or delete many items from a file or stdin (JSON array, NDJSON or CSV)')
    .addHelpText('after', examples('ops bm bulk add links.csv --create-missing', 'ops bm bulk rm ids.txt --yes'));
  return addVerbs(bulk, newCmdBulkAdd(f), newCmdBulkEdit(f), newCmdBulkRm(f));
}

/** The flags every bulk verb has. */
function bulkCommand(name: string, description: string): Command {
  return new Command(name)
    .arguments('[file]')
    .description(description)
    .option('--type <type>', 'links, lists or tags (default links)')
    .option('--format <format>', 'json, ndjson or csv (default: from the file name or content)');
}

export function newCmdBulkAdd(f: Factory, runF: RunFunction<BulkOptions> = runBulkAdd): Command {
  return bulkCommand('add', 'Create items, one result per item; URLs already saved are skipped')
    .option('--create-missing', 'create tags and lists named by the items')
    .option('--force', 'do not skip URLs (tags: names) that exist')
    .addHelpText('after', examples('ops bm bulk add links.csv', 'jq -c ".[]" links.json | ops bm bulk add - --create-missing', 'ops bm bulk add tags.json --type tags'))
    .action((file: string | undefined, flags: Omit<BulkOptions, 'file'>) => runBm(f, runF, { ...flags, file }));
}

export function newCmdBulkEdit(f: Factory, runF: RunFunction<BulkOptions> = runBulkEdit): Command {
  return bulkCommand('edit', 'Update items by id (each record: id plus the fields to change)')
    .option('--create-missing', 'create tags and lists named by the items')
    .addHelpText('after', examples('ops bm bulk edit changes.ndjson', 'printf "id,visibility\\n4,private\\n" | ops bm bulk edit - --format csv'))
    .action((file: string | undefined, flags: Omit<BulkOptions, 'file'>) => runBm(f, runF, { ...flags, file }));
}

export function newCmdBulkRm(f: Factory, runF: RunFunction<BulkOptions> = runBulkRm): Command {
  return bulkCommand('rm', 'Move items to the trash by id (asks first; --yes in scripts)')
    .addHelpText('after', examples('ops bm bulk rm ids.json --yes', 'ops bm links list --broken --all --json | jq -c ".[].id" | ops bm bulk rm - --yes'))
    .action((file: string | undefined, flags: Omit<BulkOptions, 'file'>) => runBm(f, runF, { ...flags, file }));
}

export interface BulkOptions {
  /** the records; "-" or undefined reads stdin */
  file?: string;
  type?: string;
  format?: string;
  createMissing?: boolean;
  force?: boolean;
}

export interface BulkRow {
  item: number;
  status: 'created' | 'updated' | 'deleted' | 'skipped' | 'failed' | 'not found';
  id: number | null;
  ref: string;
  error: string | null;
}

type Kind = 'links' | 'lists' | 'tags';

function kindOf(type: string | undefined): Kind {
  const t = (type ?? 'links').toLowerCase();
  const kind = (['links', 'lists', 'tags'] as const).find((k) => k === t || singular(k) === t);
  if (!kind) throw new UsageError(`--type must be links, lists or tags, not "${type}"`);
  return kind;
}

async function readItems(ctx: Context, file: string, format: string | undefined): Promise<InputRecord[]> {
  if (format !== undefined && !['json', 'ndjson', 'csv'].includes(format)) throw new UsageError(`--format must be json, ndjson or csv, not "${format}"`);
  if (file === '-' && ctx.io.stdinIsTTY) throw new UsageError('give a file, or pipe the items on stdin');
  const text = await readText(ctx, file);
  const items = parseRecords(text, (format as RecordFormat | undefined) ?? detectFormat(text, file === '-' ? undefined : file));
  if (items.length === 0) throw new UsageError('the input has no items');
  return items;
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

function bool(v: unknown): boolean | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  const t = String(v).toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off'].includes(t)) return false;
  throw new Error(`check_disabled must be true or false, not "${String(v)}"`);
}

function itemId(rec: InputRecord): number {
  const v = rec.id;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim()) && Number(v) > 0) return Number(v);
  throw new Error(v === undefined ? 'no id' : `id must be a positive whole number, not "${String(v)}"`);
}

/** The link fields of a record (names of tags/lists resolved through `resolver`). */
async function linkFields(rec: InputRecord, resolver: NameResolver, create: boolean): Promise<LinkInput> {
  const input: LinkInput = {};
  const url = str(rec.url)?.trim();
  if (url !== undefined) {
    try {
      new URL(url);
    } catch {
      throw new Error(`"${url}" is not a URL`);
    }
    input.url = url;
  } else if (create) throw new Error('no url');
  if (rec.title !== undefined) input.title = str(rec.title) ?? null;
  if (rec.description !== undefined) input.description = str(rec.description) ?? null;
  if (rec.visibility !== undefined && rec.visibility !== null && rec.visibility !== '') input.visibility = parseVisibility(rec.visibility as string);
  const cd = bool(rec.check_disabled);
  if (cd !== undefined) input.check_disabled = cd;
  const tags = listField(rec.tags);
  if (tags) input.tags = await resolver.refs('tags', tags);
  const lists = listField(rec.lists);
  if (lists) input.lists = await resolver.refs('lists', lists);
  return input;
}

async function report(ctx: Context, rows: BulkRow[], verb: string): Promise<void> {
  await ctx.out.list(rows, [
    { header: 'item', key: 'item' },
    { header: 'status', key: 'status', style: (t, r, c) => (r.status === 'failed' || r.status === 'not found' ? c.red(t) : r.status === 'skipped' ? c.yellow(t) : c.green(t)) },
    { header: 'id', get: (r) => r.id ?? '' },
    { header: 'ref', key: 'ref', shrink: true },
    { header: 'error', get: (r) => r.error ?? '', shrink: true },
  ]);
  const failed = rows.filter((r) => r.status === 'failed' || r.status === 'not found').length;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = [...counts.entries()].map(([k, v]) => `${v} ${k}`).join(', ');
  if (failed) throw new OpsError(`${failed} of ${rows.length} items failed (${summary})`);
  ctx.out.info(`${verb} ${rows.length} item${rows.length === 1 ? '' : 's'}: ${summary}`);
}

async function progressFor(ctx: Context, text: string): Promise<Progress> {
  return startProgress(ctx.io, text, { json: ctx.json, plainLines: false });
}

export async function runBulkAdd(opts: BulkOptions, ctx: Context): Promise<void> {
  const kind = kindOf(opts.type);
  const items = await readItems(ctx, opts.file ?? '-', opts.format);
  const client = bm(ctx);
  const rows: BulkRow[] = items.map((rec, i) => ({ item: i + 1, status: 'failed', id: null, ref: str(kind === 'links' ? rec.url : rec.name) ?? '', error: null }));
  const models: Record<string, unknown>[] = [];
  const modelRow: number[] = [];
  const info = await client.detect();
  const resolver = new NameResolver(client, { create: Boolean(opts.createMissing) });
  const existing = kind === 'links' && !opts.force ? new Set((await client.allLinks()).map((l) => l.url)) : new Set<string>();
  const existingNames = kind !== 'links' ? new Set((await resolver.all(kind)).map((t) => t.name)) : new Set<string>();
  for (const [i, rec] of items.entries()) {
    try {
      if (kind === 'links') {
        const input = await linkFields(rec, resolver, true);
        if (existing.has(input.url!)) {
          rows[i] = { ...rows[i]!, status: 'skipped', error: 'the URL is already saved' };
          continue;
        }
        existing.add(input.url!);
        // LinkAce's bulk store requires a visibility: private unless told otherwise.
        if (input.visibility === undefined && info.flavor === 'linkace') input.visibility = 3;
        models.push(input as Record<string, unknown>);
      } else {
        const name = str(rec.name)?.trim();
        if (!name) throw new Error('no name');
        if (kind === 'tags' && existingNames.has(name) && !opts.force) {
          rows[i] = { ...rows[i]!, status: 'skipped', error: 'a tag with this name exists' };
          continue;
        }
        const model: Record<string, unknown> = { name };
        if (kind === 'lists' && rec.description !== undefined) model.description = str(rec.description) ?? null;
        if (rec.visibility !== undefined && rec.visibility !== '') model.visibility = parseVisibility(rec.visibility as string);
        models.push(model);
      }
      modelRow.push(i);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
      rows[i] = { ...rows[i]!, status: 'failed', error: (err as Error).message };
    }
  }
  for (const c of resolver.created) ctx.out.info(`created ${singular(c.kind)} "${c.tag.name}" (${c.tag.id})`);
  const progress = await progressFor(ctx, `creating ${models.length} ${kind}`);
  let outcomes;
  try {
    outcomes = await createMany(client, kind, models, { onProgress: (n) => progress.update(`creating ${kind}: ${n}/${models.length}`) });
  } finally {
    progress.stop();
  }
  outcomes.forEach((o, k) => {
    const i = modelRow[k]!;
    rows[i] = { ...rows[i]!, status: o.ok ? 'created' : 'failed', id: o.id ?? null, error: o.error ?? null };
  });
  await report(ctx, rows, 'added');
}

export async function runBulkEdit(opts: BulkOptions, ctx: Context): Promise<void> {
  const kind = kindOf(opts.type);
  const items = await readItems(ctx, opts.file ?? '-', opts.format);
  const client = bm(ctx);
  const resolver = new NameResolver(client, { create: Boolean(opts.createMissing) });
  const progress = await progressFor(ctx, `updating ${items.length} ${kind}`);
  let done = 0;
  const rows = await mapLimit(items, 4, async (rec, i): Promise<BulkRow> => {
    const row: BulkRow = { item: i + 1, status: 'failed', id: null, ref: str(rec.id) ?? '', error: null };
    try {
      row.id = itemId(rec);
      if (kind === 'links') {
        const changes = await linkFields(rec, resolver, false);
        if (Object.keys(changes).length === 0) throw new Error('nothing to change');
        const link = await client.updateLink(row.id, changes);
        row.ref = link.url;
      } else {
        const changes: Record<string, unknown> = {};
        if (rec.name !== undefined) changes.name = str(rec.name);
        if (kind === 'lists' && rec.description !== undefined) changes.description = str(rec.description) ?? null;
        if (rec.visibility !== undefined && rec.visibility !== '') changes.visibility = parseVisibility(rec.visibility as string);
        if (Object.keys(changes).length === 0) throw new Error('nothing to change');
        const item = await client.updateCollection(kind as CollectionKind, row.id, changes);
        row.ref = item.name;
      }
      row.status = 'updated';
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) throw err;
      row.status = err instanceof ApiError && err.status === 404 ? 'not found' : 'failed';
      row.error = (err as Error).message;
    }
    progress.update(`updating ${kind}: ${++done}/${items.length}`);
    return row;
  }).finally(() => progress.stop());
  await report(ctx, rows, 'updated');
}

export async function runBulkRm(opts: BulkOptions, ctx: Context): Promise<void> {
  const kind = kindOf(opts.type);
  const items = await readItems(ctx, opts.file ?? '-', opts.format);
  const rows: BulkRow[] = items.map((rec, i) => ({ item: i + 1, status: 'failed', id: null, ref: str(rec.id) ?? '', error: null }));
  const ids: number[] = [];
  for (const [i, rec] of items.entries()) {
    try {
      rows[i]!.id = itemId(rec);
      ids.push(rows[i]!.id!);
    } catch (err) {
      rows[i]!.error = (err as Error).message;
    }
  }
  const unique = [...new Set(ids)];
  if (unique.length && !(await ctx.prompter.confirm(`Move ${unique.length} ${kind} to the trash?`, { action: `delete ${unique.length} ${kind}` }))) {
    throw new OpsError('cancelled', 2);
  }
  const client = bm(ctx);
  const outcome = new Map<number, BulkRow['status'] | string>();
  let bulk = true;
  for (let start = 0; start < unique.length && bulk; start += 100) {
    const chunk = unique.slice(start, start + 100);
    try {
      const res = await client.bulkDelete(kind, chunk);
      for (const id of chunk) {
        const v = res[String(id)];
        outcome.set(id, v === true ? 'deleted' : v === false ? 'not allowed (not yours, or already gone)' : 'not found');
      }
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 405) && start === 0) bulk = false;
      else throw err;
    }
  }
  if (!bulk) {
    await mapLimit(unique, 4, async (id) => {
      try {
        if (kind === 'links') await client.deleteLink(id);
        else await client.deleteCollection(kind, id);
        outcome.set(id, 'deleted');
      } catch (err) {
        outcome.set(id, err instanceof ApiError && err.status === 404 ? 'not found' : (err as Error).message);
      }
    });
  }
  for (const row of rows) {
    if (row.id === null) continue;
    const o = outcome.get(row.id);
    if (o === 'deleted' || o === 'not found') row.status = o;
    else row.error = o ?? 'not processed';
  }
  await report(ctx, rows, 'deleted');
}

export type { BookmarkClient };
