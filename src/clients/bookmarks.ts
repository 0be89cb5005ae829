/**
 * A typed client for the bookmark API: `ops serve` (v2 envelope, v1 import/export, health check) and a real
 * LinkAce 2.x (flat Laravel pagination, `per_page=0` for all, `links/check` as a duplicate check, no
 * import/export). No CLI concerns: it takes an HttpClient and returns plain objects.
 */
import type { HttpClient, Query } from '../core/http.js';
import { ApiError } from '../core/errors.js';
import { normalizeNameMap, normalizePage } from './bookmarks/pages.js';
import type { CollectionInput, Link, LinkInput, List, ModelKind, Note, Page, SearchLinksQuery, ServerInfo, Tag } from './bookmarks/types.js';

export * from './bookmarks/types.js';
export { normalizePage, normalizeNameMap } from './bookmarks/pages.js';

const V2 = '/api/v2';

export interface PageOptions {
  /** Stop after this many items (undefined = one page of the server's default size, unless `all`). */
  limit?: number;
  /** Follow every page. */
  all?: boolean;
  /** Page size when following pages. */
  perPage?: number;
  /** Told about each page read: how many items the server has in all, and whether more pages follow. */
  onPage?: (page: { total: number; hasNext: boolean }) => void;
}

export interface HealthResult {
  id: number;
  url: string;
  status: number;
  last_checked_at?: string | null;
}

export interface ImportResult {
  /** Entries in the file, when the server says. */
  total?: number;
  created: number;
  skipped: number;
  /** Entries the server refused (e.g. `place:` or `javascript:` URLs). */
  invalid: number;
  failed: number;
  raw: unknown;
}

export type CollectionKind = 'lists' | 'tags';

/** `GET /api/v1/export?format=json` of `ops serve`: the `ops-bookmarks` document, version 1. */
export interface ServerExportDocument {
  format: 'ops-bookmarks';
  version: number;
  exported_at: string;
  links: { id: number; url: string; title: string; description: string | null; visibility: number; status?: number; tags: string[]; lists: string[]; created_at?: string; updated_at?: string }[];
  lists: { name: string; description?: string | null; visibility?: number }[];
  tags: { name: string; visibility?: number }[];
}

function isMissingRoute(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}

/**
 * A boolean query flag as LinkAce v2's contract types it: `true` when set, left out otherwise. Never `false`:
 * LinkAce reads flags with PHP's (bool), for which the string "false" is true.
 */
function boolFlag(value: boolean | undefined): 'true' | undefined {
  return value ? 'true' : undefined;
}

/**
 * The string fields of a request body as the contract types them: a field being cleared (null) is sent as ""
 * (a string; LinkAce and `ops serve` store an empty string as null).
 */
function stringsForWire<T extends object>(body: T, fields: readonly (keyof T)[]): T {
  const out = { ...body };
  for (const f of fields) if (out[f] === null) (out as Record<keyof T, unknown>)[f] = '';
  for (const key of Object.keys(out) as (keyof T)[]) if (out[key] === undefined) delete out[key];
  return out;
}

const LINK_STRINGS = ['title', 'description'] as const;

export class BookmarkClient {
  private info?: Promise<ServerInfo>;

  constructor(readonly http: HttpClient) {}

  /** What the server offers: `/api/version`, then `/openapi.json` (only `ops serve` publishes one). */
  detect(): Promise<ServerInfo> {
    this.info ??= (async () => {
      let version: string | null = null;
      try {
        const v = await this.http.json<{ version?: unknown }>('GET', '/api/version');
        if (v && typeof v === 'object' && v.version !== undefined) version = String(v.version);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
      let paths: Record<string, unknown> | undefined;
      try {
        const doc = await this.http.json<{ paths?: Record<string, unknown> }>('GET', '/openapi.json');
        if (doc && typeof doc === 'object' && doc.paths && typeof doc.paths === 'object') paths = doc.paths;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
      if (paths) {
        return {
          version,
          flavor: 'ops',
          serverImport: '/api/v1/import' in paths,
          serverImportDryRun: hasQueryParameter(paths['/api/v1/import'], 'post', 'dry_run'),
          serverExport: '/api/v1/export' in paths,
          healthCheck: '/api/v2/links/check' in paths,
          v1: Object.keys(paths).some((p) => p.startsWith('/api/v1/')),
        };
      }
      return { version, flavor: 'linkace', serverImport: false, healthCheck: false, v1: false };
    })();
    return this.info;
  }

  // ---------- paging ----------

  async page<T>(path: string, query: Query = {}): Promise<Page<T>> {
    return normalizePage<T>(await this.http.json('GET', path, { query }));
  }

  /**
   * Items of a paginated endpoint, chunk by chunk as pages arrive. Follows pages by number with the same
   * parameters (LinkAce's page URLs drop them), stops at `limit`.
   */
  async *chunks<T>(path: string, query: Query = {}, opts: PageOptions = {}): AsyncGenerator<T[]> {
    const limit = opts.limit;
    const perPage = opts.all ? (opts.perPage ?? (limit !== undefined ? Math.min(limit, 100) : 100)) : (limit ?? opts.perPage);
    let seen = 0;
    for (let n = 1; ; n++) {
      const p = await this.page<T>(path, { ...query, ...(perPage !== undefined ? { per_page: perPage } : {}), page: n });
      opts.onPage?.({ total: p.total, hasNext: p.hasNext });
      let items = p.items;
      if (limit !== undefined && seen + items.length > limit) items = items.slice(0, limit - seen);
      seen += items.length;
      if (items.length > 0) yield items;
      const wantMore = opts.all || (limit !== undefined && seen < limit);
      if (!wantMore || !p.hasNext || (limit !== undefined && seen >= limit)) return;
    }
  }

  /** Every item in one request (`per_page=0`: all rows on LinkAce and on `ops serve`). */
  async all<T>(path: string, query: Query = {}): Promise<T[]> {
    const p = await this.page<T>(path, { ...query, per_page: 0 });
    if (!p.hasNext) return p.items;
    // A server that ignored per_page=0: follow its pages.
    const out: T[] = [...p.items];
    for await (const chunk of this.chunks<T>(path, query, { all: true })) out.push(...chunk);
    return dedupeById(out);
  }

  // ---------- links ----------

  links(query: { order_by?: string; order_dir?: string } = {}, opts: PageOptions = {}): AsyncGenerator<Link[]> {
    return this.chunks<Link>(`${V2}/links`, query, opts);
  }

  allLinks(): Promise<Link[]> {
    return this.all<Link>(`${V2}/links`);
  }

  getLink(id: number): Promise<Link> {
    return this.http.json<Link>('GET', `${V2}/links/${id}`);
  }

  createLink(input: LinkInput): Promise<Link> {
    return this.http.json<Link>('POST', `${V2}/links`, { body: stringsForWire(input, LINK_STRINGS) });
  }

  /**
   * Update a link with the fields that change. Three more are sent along because LinkAce needs them: `url`
   * (required on every update) and the current `tags` and `lists` (LinkAce detaches those not sent).
   */
  async updateLink(id: number, changes: LinkInput, current?: Link): Promise<Link> {
    const link = current ?? (await this.getLink(id));
    const body: LinkInput = {
      url: link.url,
      tags: (link.tags ?? []).map((t) => t.id),
      lists: (link.lists ?? []).map((l) => l.id),
      ...changes,
    };
    return this.http.json<Link>('PATCH', `${V2}/links/${id}`, { body: stringsForWire(body, LINK_STRINGS) });
  }

  async deleteLink(id: number): Promise<void> {
    await this.http.request('DELETE', `${V2}/links/${id}`);
  }

  linkNotes(id: number, opts: PageOptions = { all: true }): AsyncGenerator<Note[]> {
    return this.chunks<Note>(`${V2}/links/${id}/notes`, {}, opts);
  }

  /**
   * Is this exact URL saved already (visible to the caller)? `links/check?url=` is in description 1, `ops serve`
   * and LinkAce 2.x's routes, but not in LinkAce's published v2 document: where a server lacks it (404/405, or
   * an answer that is not its JSON object) the caller's own links are searched for the URL instead.
   */
  async urlExists(url: string): Promise<boolean> {
    let res: unknown;
    try {
      res = await this.http.json<unknown>('GET', `${V2}/links/check`, { query: { url } });
    } catch (err) {
      if (!isMissingRoute(err)) throw err;
    }
    if (res && typeof res === 'object' && 'linksFound' in res) return (res as { linksFound?: unknown }).linksFound === true;
    for await (const chunk of this.searchLinks({ query: url }, { all: true })) if (chunk.some((l) => l.url === url)) return true;
    return false;
  }

  /** Run the server's link-health check (`ops serve` only): the checked links with their new status. */
  async healthCheck(id?: number): Promise<HealthResult[]> {
    const res = await this.http.json<{ data?: HealthResult[] } | HealthResult[]>('GET', `${V2}/links/check`, { query: { id } });
    if (Array.isArray(res)) return res;
    return Array.isArray(res?.data) ? res.data : [];
  }

  searchLinks(q: SearchLinksQuery, opts: PageOptions = {}): AsyncGenerator<Link[]> {
    const query: Query = {
      // LinkAce's contract requires `query`; an empty one searches nothing by text (the other filters apply).
      query: q.query ?? '',
      search_title: boolFlag(q.search_title),
      search_description: boolFlag(q.search_description),
      visibility: q.visibility,
      broken_only: boolFlag(q.broken_only),
      only_lists: q.only_lists?.length ? q.only_lists.join(',') : undefined,
      only_tags: q.only_tags?.length ? q.only_tags.join(',') : undefined,
      empty_lists: boolFlag(q.empty_lists),
      empty_tags: boolFlag(q.empty_tags),
      order_by: q.order_by,
    };
    return this.chunks<Link>(`${V2}/search/links`, query, opts);
  }

  // ---------- lists and tags ----------

  collections<T extends Tag>(kind: CollectionKind, query: { order_by?: string; order_dir?: string } = {}, opts: PageOptions = {}): AsyncGenerator<T[]> {
    return this.chunks<T>(`${V2}/${kind}`, query, opts);
  }

  allCollections<T extends Tag = Tag>(kind: CollectionKind): Promise<T[]> {
    return this.all<T>(`${V2}/${kind}`);
  }

  getCollection<T extends Tag = List>(kind: CollectionKind, id: number): Promise<T> {
    return this.http.json<T>('GET', `${V2}/${kind}/${id}`);
  }

  createCollection<T extends Tag = List>(kind: CollectionKind, input: CollectionInput): Promise<T> {
    return this.http.json<T>('POST', `${V2}/${kind}`, { body: input });
  }

  /** Update a list or tag with the fields that change, and `name`, which LinkAce requires on every update. */
  async updateCollection<T extends Tag = List>(kind: CollectionKind, id: number, changes: CollectionInput): Promise<T> {
    const name = changes.name ?? (await this.getCollection<List>(kind, id)).name;
    const body: CollectionInput = { ...changes, name };
    return this.http.json<T>('PATCH', `${V2}/${kind}/${id}`, { body: stringsForWire(body, ['description']) });
  }

  async deleteCollection(kind: CollectionKind, id: number): Promise<void> {
    await this.http.request('DELETE', `${V2}/${kind}/${id}`);
  }

  collectionLinks(kind: CollectionKind, id: number, opts: PageOptions = {}): AsyncGenerator<Link[]> {
    return this.chunks<Link>(`${V2}/${kind}/${id}/links`, {}, opts);
  }

  allCollectionLinks(kind: CollectionKind, id: number): Promise<Link[]> {
    return this.all<Link>(`${V2}/${kind}/${id}/links`);
  }

  /** The caller's own lists or tags whose name contains `query`: [{id, name}]. */
  async searchCollections(kind: CollectionKind, query: string): Promise<{ id: number; name: string }[]> {
    return normalizeNameMap(await this.http.json('GET', `${V2}/search/${kind}`, { query: { query } }));
  }

  // ---------- notes ----------

  createNote(input: { link_id: number; note: string; visibility?: number }): Promise<Note> {
    return this.http.json<Note>('POST', `${V2}/notes`, { body: input });
  }

  updateNote(id: number, input: { note: string; visibility?: number }): Promise<Note> {
    return this.http.json<Note>('PATCH', `${V2}/notes/${id}`, { body: input });
  }

  async deleteNote(id: number): Promise<void> {
    await this.http.request('DELETE', `${V2}/notes/${id}`);
  }

  // ---------- bulk ----------

  /** Bulk create; throws ApiError(404/405) when the server has no bulk API (LinkAce before 2.0). */
  bulkCreate<T>(kind: 'links' | 'lists' | 'tags', models: object[]): Promise<T[]> {
    const wire = models.map((m) => stringsForWire(m as Record<string, unknown>, LINK_STRINGS));
    return this.http.json<T[]>('POST', `${V2}/bulk/${kind}`, { body: { models: wire } });
  }

  /** Bulk delete: id -> true (deleted) | false (denied); unknown ids are absent. */
  async bulkDelete(type: 'links' | 'lists' | 'tags', ids: number[]): Promise<Record<string, boolean>> {
    const res = await this.http.json<Record<string, boolean> | unknown[]>('DELETE', `${V2}/bulk/delete`, { body: { type, models: ids } });
    return res && !Array.isArray(res) && typeof res === 'object' ? res : {};
  }

  // ---------- trash ----------

  async trash<T = Link>(kind: ModelKind): Promise<T[]> {
    const res = await this.http.json<unknown>('GET', `${V2}/trash/${kind}`);
    return normalizePage<T>(res ?? []).items;
  }

  async restore(kind: ModelKind, id: number): Promise<void> {
    await this.http.request('PATCH', `${V2}/trash/restore`, { body: { model: kind.replace(/s$/, ''), id } });
  }

  async clearTrash(kind: ModelKind): Promise<void> {
    await this.http.request('DELETE', `${V2}/trash/clear`, { body: { model: kind } });
  }

  // ---------- import / export (ops serve only) ----------

  /**
   * Upload a Netscape file to the server's importer (v1 POST /import, multipart `file`). `dryRun` only where
   * detect() says the server takes it (`serverImportDryRun`): a server that does not know it would import.
   */
  async serverImport(html: string | Buffer, filename = 'bookmarks.html', options: { dryRun?: boolean } = {}): Promise<ImportResult> {
    const boundary = `----ops${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: text/html\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, Buffer.isBuffer(html) ? html : Buffer.from(html, 'utf8'), tail]);
    const raw = await this.http.json<Record<string, unknown>>('POST', '/api/v1/import', {
      body,
      contentType: `multipart/form-data; boundary=${boundary}`,
      query: options.dryRun ? { dry_run: 1 } : undefined,
    });
    const n = (v: unknown) => (typeof v === 'number' ? v : Array.isArray(v) ? v.length : 0);
    const r = raw && typeof raw === 'object' ? raw : {};
    return {
      total: typeof r.total === 'number' ? r.total : undefined,
      created: n(r.created ?? r.imported ?? r.queued),
      skipped: n(r.skipped),
      invalid: n(r.invalid),
      failed: n(r.failed),
      raw,
    };
  }

  /**
   * The whole export in one request (`GET /api/v1/export?format=json`, `ops serve`): links with their tag
   * and list names, and the lists and tags. Null when the server has no such export (an older `ops serve`
   * answers 422 for the format, other servers 404/405) or answers something else.
   */
  async exportDocument(): Promise<ServerExportDocument | null> {
    let doc: unknown;
    try {
      doc = await this.http.json('GET', '/api/v1/export', { query: { format: 'json' } });
    } catch (err) {
      if (err instanceof ApiError && [404, 405, 406, 422].includes(err.status)) return null;
      throw err;
    }
    const d = doc as Partial<ServerExportDocument> | null;
    if (!d || typeof d !== 'object' || d.format !== 'ops-bookmarks' || !Array.isArray(d.links) || !Array.isArray(d.lists) || !Array.isArray(d.tags)) return null;
    return d as ServerExportDocument;
  }

  /** The server's API version string (`/api/version`), or null. */
  async version(): Promise<string | null> {
    return (await this.detect()).version;
  }
}

/** Does an OpenAPI path item's operation declare this query parameter? */
function hasQueryParameter(pathItem: unknown, method: string, name: string): boolean {
  const op = (pathItem as Record<string, { parameters?: unknown }> | undefined)?.[method];
  const params = op && Array.isArray(op.parameters) ? (op.parameters as { in?: unknown; name?: unknown }[]) : [];
  return params.some((p) => p && p.in === 'query' && p.name === name);
}

export function dedupeById<T>(items: T[]): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const id = (item as { id?: unknown }).id;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export { isMissingRoute };
