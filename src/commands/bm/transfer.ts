/**
 * `ops bm import FILE` and `ops bm export`.
 * Import: a Netscape HTML file goes to the server's import endpoint where there is one (`ops serve`);
 * otherwise (a real LinkAce, a JSON file, --client-side or --dry-run) the file is parsed here and links,
 * lists and tags are created through the v2 API, skipping URLs that already exist (also in the trash).
 * Export: HTML (Netscape; lists as folders, tags in TAGS), our JSON document, or CSV, built from the server's
 * one-request export document where it has one (`ops serve`), else read through the v2 API.
 * The Netscape parser/writer (htmlparser2) is imported when a verb needs it, not when `ops bm` loads this module.
 */
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import type { Factory, RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import type { BookmarkClient, Link, LinkInput, List, Tag } from '../../clients/bookmarks.js';
import {
  CSV_HEADER,
  exportDocument,
  exportLinks,
  ImportFormatError,
  itemsFromJson,
  itemsFromNetscape,
  mergeDuplicates,
  type ExportDocument,
  type FolderMode,
  type ImportDocument,
} from '../../clients/bookmarks/transfer.js';
import { toCsv } from '../../clients/bookmarks/records.js';
import { ApiError, OpsError, UsageError } from '../../core/errors.js';
import { startProgress } from '../../core/progress.js';
import { createMany } from './create-many.js';
import { bm, isNameTaken, NameResolver, readText, runBm, visibilityOption } from './shared.js';

export interface ImportOptions {
  /** a Netscape bookmark file or an `ops bm export` JSON file; "-" reads stdin */
  file: string;
  dryRun?: boolean;
  folders?: string;
  visibility?: string;
  clientSide?: boolean;
}

export function newCmdImport(f: Factory, runF: RunFunction<ImportOptions> = runImport): Command {
  return new Command('import')
    .arguments('<file>')
    .description('Import a Netscape bookmark file (or an `ops bm export` JSON file); "-" reads stdin')
    .option('--dry-run', 'show what would be created, create nothing')
    .option('--folders <mode>', 'folders become lists (default), tags, or none')
    .option('--visibility <v>', 'visibility of links the file says nothing about')
    .option('--client-side', 'parse the file here even when the server has an importer')
    .addHelpText('after', examples('ops bm import bookmarks.html', 'ops bm import bookmarks.html --dry-run --folders tags', 'ops bm import backup.json --json'))
    .action((file: string, flags: Omit<ImportOptions, 'file'>) => runBm(f, runF, { ...flags, file }));
}

/**
 * What an import did (or, with --dry-run, would do): the same object for both, so that a dry run can be
 * compared with the real run field by field.
 */
export interface ImportSummary {
  file: string;
  /** server: the server's importer did it (folders become tags); client: parsed here, created through the API */
  mode: 'server' | 'client';
  dry_run: boolean;
  /** entries in the file */
  found: number;
  links: {
    created: number;
    /** already saved (also in the trash): left alone */
    existing: number;
    /** repeated in the file after their first entry */
    duplicates: number;
    /** not web links (place:, javascript:, data: ...): left out, not an error */
    invalid: number;
    failed: number;
  };
  lists: { created: number };
  tags: { created: number };
  failures: { url: string; error: string }[];
}

function looksLikeJson(text: string): boolean {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

export async function readDocument(text: string, folders: FolderMode): Promise<{ doc: ImportDocument; html: boolean }> {
  if (looksLikeJson(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new UsageError(`the file looks like JSON but is not valid: ${(err as Error).message}`);
    }
    try {
      return { doc: itemsFromJson(value), html: false };
    } catch (err) {
      if (err instanceof ImportFormatError) throw new UsageError(err.message);
      throw err;
    }
  }
  const { parseNetscape } = await import('../../clients/bookmarks/netscape.js');
  const parsed = parseNetscape(text);
  if (parsed.bookmarks.length === 0 && !/<dl/i.test(text)) {
    throw new UsageError('the file is neither a Netscape bookmark file (HTML) nor an `ops bm export` JSON file');
  }
  return { doc: itemsFromNetscape(parsed, folders), html: true };
}

export async function runImport(opts: ImportOptions, ctx: Context): Promise<void> {
  const { file } = opts;
  const folders = (opts.folders ?? 'lists') as FolderMode;
  if (!['lists', 'tags', 'none'].includes(folders)) throw new UsageError(`--folders must be lists, tags or none, not "${opts.folders}"`);
  const defaultVisibility = visibilityOption(opts.visibility);
  if (file === '-' && ctx.io.stdinIsTTY) throw new UsageError('give a file, or pipe it on stdin with "-"');
  const text = await readText(ctx, file);
  const { doc, html } = await readDocument(text, folders);
  const client = bm(ctx);
  const info = await client.detect();
  const summary: ImportSummary = {
    file,
    mode: 'client',
    dry_run: Boolean(opts.dryRun),
    found: doc.items.length,
    links: { created: 0, existing: 0, duplicates: 0, invalid: 0, failed: 0 },
    lists: { created: 0 },
    tags: { created: 0 },
    failures: [],
  };
  // The dry run goes where the real run goes: to the server's importer when it can preview (dry_run=1 runs
  // the very import and rolls it back), so the prediction is exact.
  let serverSide = html && info.serverImport && !opts.clientSide && opts.folders === undefined && opts.visibility === undefined;
  if (serverSide && opts.dryRun && !info.serverImportDryRun) {
    serverSide = false;
    ctx.out.warn("this server's importer cannot preview an import: the dry run shows an import through the API (as with --client-side)");
  }
  if (serverSide) {
    const progress = await startProgress(ctx.io, `uploading ${file} to the server's importer`, { json: ctx.json, plainLines: false });
    try {
      const res = await client.serverImport(Buffer.from(text, 'utf8'), file === '-' ? 'bookmarks.html' : file.split(/[\\/]/).pop(), { dryRun: opts.dryRun });
      progress.stop();
      const raw = (res.raw ?? {}) as Record<string, unknown>;
      const num = (key: string, fallback: number) => (typeof raw[key] === 'number' ? (raw[key] as number) : fallback);
      summary.mode = 'server';
      if (res.total !== undefined) summary.found = res.total;
      summary.links = { created: res.created, existing: num('existing', res.skipped), duplicates: num('duplicates', 0), invalid: res.invalid, failed: res.failed };
      summary.lists.created = num('lists_created', 0);
      summary.tags.created = num('tags_created', 0);
      if (Array.isArray(raw.failures)) summary.failures = raw.failures as ImportSummary['failures'];
      if (opts.dryRun && raw.dry_run !== true) throw new OpsError('the server imported the file: it did not take the dry run');
    } catch (err) {
      progress.stop();
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 405))) throw err;
      ctx.out.warn('the server has no import endpoint after all; importing through the API');
      await clientImport(ctx, client, doc, summary, defaultVisibility, info.flavor);
    }
  } else {
    await clientImport(ctx, client, doc, summary, defaultVisibility, info.flavor);
  }
  await printSummary(ctx, summary);
}

async function clientImport(ctx: Context, client: BookmarkClient, doc: ImportDocument, summary: ImportSummary, defaultVisibility: number | undefined, flavor: 'ops' | 'linkace'): Promise<void> {
  const progress = await startProgress(ctx.io, 'reading what the server has', { json: ctx.json, plainLines: false });
  try {
    const valid = doc.items.filter((i) => isWebUrl(i.url));
    summary.links.invalid = doc.items.length - valid.length;
    const { items, duplicates } = mergeDuplicates(valid);
    summary.links.duplicates = duplicates;
    const existing = new Set((await client.allLinks()).map((l) => l.url));
    try {
      for (const l of await client.trash<Link>('links')) existing.add(l.url);
    } catch (err) {
      if (!(err instanceof ApiError && (err.status === 404 || err.status === 405))) throw err;
    }
    const fresh = items.filter((i) => !existing.has(i.url));
    summary.links.existing = items.length - fresh.length;
    // Lists and tags: the document's own (with their settings), then every name the new links use.
    const resolver = new NameResolver(client, { create: true, dryRun: summary.dry_run });
    // names another client created meanwhile (a second import at once): used, never created twice
    const takenMeanwhile = { lists: new Set<string>(), tags: new Set<string>() };
    for (const kind of ['lists', 'tags'] as const) {
      const known = new Map((await resolver.all(kind)).map((t) => [t.name, t]));
      const wanted = new Map<string, { name: string; description?: string | null; visibility?: number }>();
      for (const c of doc[kind]) wanted.set(c.name, c);
      for (const item of fresh) for (const name of item[kind]) if (!wanted.has(name)) wanted.set(name, { name });
      for (const c of wanted.values()) {
        if (known.has(c.name)) continue;
        progress.update(`creating ${kind === 'lists' ? 'list' : 'tag'} ${c.name}`);
        if (summary.dry_run) await resolver.create(kind, c.name);
        else {
          const body: Record<string, unknown> = { name: c.name };
          if (kind === 'lists' && c.description) body.description = c.description;
          const vis = c.visibility ?? defaultVisibility;
          if (vis !== undefined) body.visibility = vis;
          try {
            const created = await client.createCollection<Tag>(kind, body);
            (await resolver.all(kind)).push(created);
            resolver.created.push({ kind, tag: created });
          } catch (err) {
            if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw err;
            if (isNameTaken(err)) {
              resolver.forget(kind);
              takenMeanwhile[kind].add(c.name);
              continue;
            }
            summary.failures.push({ url: `(${kind === 'lists' ? 'list' : 'tag'} ${c.name})`, error: (err as Error).message });
          }
        }
      }
    }
    summary.lists.created = resolver.created.filter((c) => c.kind === 'lists').length;
    summary.tags.created = resolver.created.filter((c) => c.kind === 'tags').length;
    // A name that several visible users' lists/tags share is sent as the name: the server takes the caller's own.
    const idOf = async (kind: 'lists' | 'tags', name: string) => {
      const { items, exact } = await resolver.matches(kind, name);
      // one taken meanwhile that the look-up cannot see (in the trash): by name, the server takes the caller's own
      if (items.length === 0 && takenMeanwhile[kind].has(name)) return name;
      return items.length > 1 && exact && !/^\d+$/.test(name) ? name : items[0]?.id;
    };
    const models: LinkInput[] = [];
    for (const item of fresh) {
      const model: LinkInput = { url: item.url, title: item.title };
      if (item.description) model.description = item.description;
      const vis = item.visibility ?? defaultVisibility ?? (flavor === 'linkace' ? 3 : undefined);
      if (vis !== undefined) model.visibility = vis;
      const tagIds = (await Promise.all(item.tags.map((n) => idOf('tags', n)))).filter((i) => i !== undefined);
      const listIds = (await Promise.all(item.lists.map((n) => idOf('lists', n)))).filter((i) => i !== undefined);
      if (tagIds.length) model.tags = tagIds;
      if (listIds.length) model.lists = listIds;
      models.push(model);
    }
    if (summary.dry_run) {
      summary.links.created = models.length;
      return;
    }
    progress.update(`importing 0/${models.length} links`);
    const outcomes = await createMany(client, 'links', models as Record<string, unknown>[], {
      onProgress: (n) => progress.update(`importing ${n}/${models.length} links`),
    });
    outcomes.forEach((o, i) => {
      if (o.ok) summary.links.created++;
      else {
        summary.links.failed++;
        summary.failures.push({ url: models[i]!.url!, error: o.error ?? 'failed' });
      }
    });
  } finally {
    progress.stop();
  }
}

/** Only http(s) URLs are bookmarks worth importing (browsers also export place:, javascript:, data: ...). */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

async function printSummary(ctx: Context, s: ImportSummary): Promise<void> {
  if (ctx.json) await ctx.out.writeJson(s);
  else {
    const verb = s.dry_run ? 'would create' : 'created';
    await ctx.out.item(s, [
      { header: 'mode', get: (r) => (r.mode === 'server' ? "server's importer" : 'through the API') + (r.dry_run ? ' (dry run: nothing changed)' : '') },
      { header: 'found', key: 'found' },
      { header: `links ${verb}`, get: (r) => r.links.created, style: (t, _r, c) => c.green(t) },
      { header: 'already saved', get: (r) => r.links.existing },
      { header: 'repeated in file', get: (r) => r.links.duplicates },
      { header: 'not web links', get: (r) => r.links.invalid },
      { header: 'failed', get: (r) => r.links.failed, style: (t, r, c) => (r.links.failed ? c.red(t) : t) },
      { header: `lists ${verb}`, get: (r) => r.lists.created },
      { header: `tags ${verb}`, get: (r) => r.tags.created },
    ]);
    for (const f of s.failures.slice(0, 20)) ctx.out.warn(`${f.url}: ${f.error}`);
    if (s.failures.length > 20) ctx.out.warn(`... and ${s.failures.length - 20} more (use --json for all)`);
  }
  if (s.links.failed > 0) throw new OpsError(`${s.links.failed} of ${s.found} links failed to import`);
}

// ---------- export ----------

interface ExportData {
  rows: ExportDocument['links'];
  lists: { name: string; description?: string | null; visibility?: number }[];
  tags: { name: string; visibility?: number }[];
}

/**
 * Everything an export needs. `ops serve` answers it in one request (GET /api/v1/export?format=json: three
 * requests in all with the detection); elsewhere the links, lists and tags are read in whole pages
 * (per_page=0) and the members of each tag and list likewise, one request each.
 */
export async function readExport(client: BookmarkClient, progress: { update(text: string): void }): Promise<ExportData> {
  const info = await client.detect();
  if (info.flavor === 'ops' && info.serverExport) {
    const doc = await client.exportDocument();
    if (doc) {
      const links = doc.links.map((l) => ({ ...l, tags: [...l.tags].sort((a, b) => a.localeCompare(b)), lists: [...l.lists].sort((a, b) => a.localeCompare(b)) }));
      return { rows: links.sort((a, b) => a.id - b.id), lists: doc.lists, tags: doc.tags };
    }
  }
  return readExportThroughApi(client, progress);
}

/** The export read through the v2 API (servers without the one-request export, e.g. a real LinkAce 2.x). */
export async function readExportThroughApi(client: BookmarkClient, progress: { update(text: string): void }): Promise<ExportData> {
  const links = await client.allLinks();
  progress.update('reading tags and lists');
  const tags = await client.allCollections<Tag>('tags');
  const lists = await client.allCollections<List>('lists');
  const tagsOf = new Map<number, string[]>();
  const listsOf = new Map<number, string[]>();
  const members = async (kind: 'tags' | 'lists', items: Tag[], into: Map<number, string[]>) => {
    let n = 0;
    for (const item of items) {
      progress.update(`reading ${kind}: ${++n}/${items.length}`);
      for (const link of await client.allCollectionLinks(kind, item.id)) {
        const names = into.get(link.id) ?? [];
        if (!names.includes(item.name)) names.push(item.name);
        into.set(link.id, names);
      }
    }
  };
  await members('tags', tags, tagsOf);
  await members('lists', lists, listsOf);
  return {
    rows: exportLinks(
      [...links].sort((a, b) => a.id - b.id),
      tagsOf,
      listsOf,
    ),
    lists,
    tags,
  };
}

export interface ExportOptions {
  /** html, json or csv (default html, or from the output file's name) */
  format?: string;
  /** a file to write instead of stdout */
  output?: string;
}

export function newCmdExport(f: Factory, runF: RunFunction<ExportOptions> = runExport): Command {
  return new Command('export')
    .description('Export every link you can see: Netscape HTML (browsers, LinkAce), JSON or CSV')
    .option('--format <format>', 'html, json or csv (default html, or from -o)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', examples('ops bm export -o bookmarks.html', 'ops bm export --format json > backup.json', 'ops bm export --format csv | column -s, -t'))
    .action((flags: ExportOptions) => runBm(f, runF, { ...flags }));
}

export async function runExport(opts: ExportOptions, ctx: Context): Promise<void> {
  const format = (opts.format ?? inferFormat(opts.output) ?? 'html').toLowerCase();
  if (!['html', 'json', 'csv'].includes(format)) throw new UsageError(`--format must be html, json or csv, not "${opts.format}"`);
  const client = bm(ctx);
  const progress = await startProgress(ctx.io, 'reading links', { json: ctx.json, plainLines: false });
  let text: string;
  let count: number;
  try {
    const { rows, lists, tags } = await readExport(client, progress);
    count = rows.length;
    if (format === 'html') text = (await import('../../clients/bookmarks/netscape.js')).serializeNetscape(rows, { title: 'Bookmarks' });
    else if (format === 'json') text = JSON.stringify(exportDocument(rows, lists, tags), null, 2) + '\n';
    else
      text = toCsv(
        CSV_HEADER,
        rows.map((r) => ({ ...r, tags: r.tags.join(','), lists: r.lists.join(',') })),
      );
  } finally {
    progress.stop();
  }
  if (opts.output && opts.output !== '-') {
    try {
      await writeFile(opts.output, text);
    } catch (err) {
      throw new OpsError(`cannot write ${opts.output}: ${(err as Error).message}`);
    }
    ctx.out.success(`exported ${count} links to ${opts.output}`);
  } else {
    await ctx.out.write(text);
  }
}

function inferFormat(output: string | undefined): string | undefined {
  const m = output ? /\.(html?|json|csv)$/i.exec(output) : null;
  if (!m) return undefined;
  return m[1]!.toLowerCase().startsWith('htm') ? 'html' : m[1]!.toLowerCase();
}
