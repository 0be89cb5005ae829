/**
 * A small stand-in for a real LinkAce 2.x on 127.0.0.1 (node:http), answering in LinkAce's shapes and with
 * its quirks: no /api/v1, no import/export, no /openapi.json, flat Laravel pagination that drops query
 * parameters from page URLs, per_page=0 for all (negative ignored, default 24), PATCH requires `url` and
 * detaches tags/lists that are not sent, `links/check?url=` is a duplicate check, search/tags answers an
 * {id: name} map, trash answers plain arrays, 429 with Retry-After on demand. Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { laravelPage, LINKACE_NEED_CRITERION, LINKACE_UNAUTHENTICATED } from './linkace-fixtures.js';

export const TOKEN = '1|linkace-test-token';

interface Row {
  id: number;
  [key: string]: unknown;
}

export interface FakeLinkAce {
  url: string;
  requests: { method: string; path: string; query: URLSearchParams; body: unknown; contentType?: string }[];
  links: Row[];
  tags: Row[];
  lists: Row[];
  linkTags: Map<number, Set<number>>;
  linkLists: Map<number, Set<number>>;
  /** Answer the next N requests with 429 (Retry-After: 0). */
  throttleNext: number;
  close(): Promise<void>;
}

const now = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.000000Z');

export async function startFakeLinkAce(
  options: { version?: string | null; links?: number; /** false: no links/check route (a LinkAce whose routes lack it) */ linkCheck?: boolean } = {},
): Promise<FakeLinkAce> {
  const state: FakeLinkAce = {
    url: '',
    requests: [],
    links: [],
    tags: [],
    lists: [],
    linkTags: new Map(),
    linkLists: new Map(),
    throttleNext: 0,
    close: async () => {},
  };
  const nextId = { links: 1, tags: 1, lists: 1 };
  const addLink = (fields: Record<string, unknown>): Row => {
    const id = nextId.links++;
    const row: Row = {
      id,
      user_id: 1,
      url: fields.url,
      title: fields.title ?? new URL(String(fields.url)).host,
      description: fields.description ?? null,
      icon: 'link',
      thumbnail: null,
      visibility: fields.visibility ?? 3,
      status: fields.status ?? 1,
      check_disabled: false,
      created_at: now(),
      updated_at: now(),
      deleted_at: null,
    };
    state.links.push(row);
    return row;
  };
  for (let i = 1; i <= (options.links ?? 0); i++) addLink({ url: `https://seed${i}.example/`, title: `Seed ${i}`, visibility: 1, status: i % 5 === 0 ? 3 : 1 });

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', ...headers });
    res.end(JSON.stringify(body));
  };
  const perPageOf = (q: URLSearchParams): number => {
    const raw = q.get('per_page');
    if (raw === null) return 24;
    const n = Number.parseInt(raw, 10);
    if (!Number.isFinite(n) || n === 0) return 999999999;
    return n > 0 ? n : 24;
  };
  const paginate = (path: string, q: URLSearchParams, rows: unknown[]) => {
    const perPage = perPageOf(q);
    const page = Math.max(1, Number.parseInt(q.get('page') ?? '1', 10) || 1);
    return laravelPage(`${state.url}${path}`, rows.slice((page - 1) * perPage, page * perPage), page, perPage, rows.length);
  };
  const live = (rows: Row[]) => rows.filter((r) => r.deleted_at === null);
  const refs = (kind: 'tags' | 'lists', value: unknown): number[] => {
    const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : String(value).split(',');
    const out: number[] = [];
    for (const item of items) {
      const n = Number.parseInt(String(item), 10);
      if (n > 0) {
        if (state[kind].some((t) => t.id === n)) out.push(n);
      } else {
        const name = String(item).trim();
        let row = state[kind].find((t) => t.name === name);
        if (!row) {
          row = { id: nextId[kind]++, user_id: 1, name, visibility: 3, created_at: now(), updated_at: now(), deleted_at: null };
          state[kind].push(row);
        }
        out.push(row.id);
      }
    }
    return out;
  };
  const withRelations = (link: Row) => ({
    ...link,
    tags: state.tags.filter((t) => state.linkTags.get(link.id)?.has(t.id)).map((t) => ({ ...t, pivot: { link_id: link.id, tag_id: t.id } })),
    lists: state.lists.filter((t) => state.linkLists.get(link.id)?.has(t.id)).map((t) => ({ ...t, pivot: { link_id: link.id, list_id: t.id } })),
  });
  const orderLinks = (rows: Row[], by: string | null, dir: string | null) => {
    const key = ['id', 'url', 'title', 'created_at', 'updated_at', 'visibility', 'status'].includes(by ?? '') ? by! : 'created_at';
    const d = dir === 'desc' || dir === null ? -1 : 1;
    return [...rows].sort((a, b) => (String(a[key]).localeCompare(String(b[key]), 'en', { numeric: true }) || a.id - b.id) * d);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = { _raw: text };
      }
    }
    const path = u.pathname;
    const q = u.searchParams;
    state.requests.push({ method: req.method!, path, query: q, body: text ? body : undefined, contentType: req.headers['content-type'] });
    if (path === '/api/version' && options.version !== null && options.version !== undefined) return send(res, 200, { version: options.version });
    if (!path.startsWith('/api/v2/')) return send(res, 404, { message: `The route ${path.slice(1)} could not be found.` });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, LINKACE_UNAUTHENTICATED);
    if (state.throttleNext > 0) {
      state.throttleNext--;
      return send(res, 429, { message: 'Too Many Attempts.' }, { 'retry-after': '0', 'x-ratelimit-reset': '0', 'x-ratelimit-remaining': '0' });
    }
    const m = req.method;
    const seg = path.slice('/api/v2/'.length).split('/');
    const id = seg[1] ? Number(seg[1]) : undefined;

    if (seg[0] === 'links' && seg[1] === 'check' && m === 'GET' && options.linkCheck !== false) {
      const url = (q.get('url') ?? '').trim();
      return send(res, 200, { linksFound: url !== '' && live(state.links).some((l) => l.url === url) });
    }
    if (seg[0] === 'links' && seg.length === 1) {
      if (m === 'GET') return send(res, 200, paginate(path, q, orderLinks(live(state.links), q.get('order_by'), q.get('order_dir'))));
      if (m === 'POST') {
        if (!body.url) return send(res, 422, { message: 'The url field is required.', errors: { url: ['The url field is required.'] } });
        if (state.links.some((l) => l.url === body.url)) return send(res, 422, { message: 'The url has already been taken.', errors: { url: ['The url has already been taken.'] } });
        const row = addLink(body);
        state.linkTags.set(row.id, new Set(refs('tags', body.tags)));
        state.linkLists.set(row.id, new Set(refs('lists', body.lists)));
        return send(res, 200, withRelations(row));
      }
    }
    if (seg[0] === 'links' && id !== undefined) {
      const link = live(state.links).find((l) => l.id === id);
      if (!link) return send(res, 404, { message: 'No query results for model [App\\Models\\Api\\ApiLink].' });
      if (seg[2] === 'notes') return send(res, 200, paginate(path, q, []));
      if (m === 'GET') return send(res, 200, withRelations(link));
      if (m === 'PATCH' || m === 'PUT') {
        if (!body.url) return send(res, 422, { message: 'The url field is required.', errors: { url: ['The url field is required.'] } });
        for (const k of ['url', 'title', 'description', 'visibility', 'check_disabled']) if (k in body) link[k] = body[k];
        // LinkAce detaches every tag and list that is not sent.
        state.linkTags.set(id, new Set(refs('tags', body.tags)));
        state.linkLists.set(id, new Set(refs('lists', body.lists)));
        link.updated_at = now();
        return send(res, 200, withRelations(link));
      }
      if (m === 'DELETE') {
        link.deleted_at = now();
        return send(res, 200, []);
      }
    }
    if ((seg[0] === 'tags' || seg[0] === 'lists') && seg.length === 1) {
      const kind = seg[0];
      if (m === 'GET')
        return send(
          res,
          200,
          paginate(
            path,
            q,
            [...live(state[kind])].sort((a, b) => String(a.name).localeCompare(String(b.name))),
          ),
        );
      if (m === 'POST') {
        if (!body.name) return send(res, 422, { message: 'The name field is required.', errors: { name: ['The name field is required.'] } });
        if (kind === 'tags' && state.tags.some((t) => t.name === body.name))
          return send(res, 422, { message: 'The name has already been taken.', errors: { name: ['The name has already been taken.'] } });
        const row: Row = { id: nextId[kind]++, user_id: 1, name: body.name, visibility: body.visibility ?? 3, created_at: now(), updated_at: now(), deleted_at: null };
        if (kind === 'lists') row.description = body.description ?? null;
        state[kind].push(row);
        return send(res, 200, row);
      }
    }
    if ((seg[0] === 'tags' || seg[0] === 'lists') && id !== undefined) {
      const kind = seg[0];
      const row = live(state[kind]).find((t) => t.id === id);
      if (!row) return send(res, 404, { message: `No query results for model [App\\Models\\${kind === 'tags' ? 'Tag' : 'LinkList'}] ${id}` });
      const rel = kind === 'tags' ? state.linkTags : state.linkLists;
      if (seg[2] === 'links')
        return send(
          res,
          200,
          paginate(
            path,
            q,
            live(state.links).filter((l) => rel.get(l.id)?.has(id)),
          ),
        );
      if (m === 'GET') return send(res, 200, kind === 'lists' ? { ...row, links: `${state.url}/api/v2/lists/${id}/links` } : row);
      if (m === 'PATCH') {
        if (!body.name) return send(res, 422, { message: 'The name field is required.', errors: { name: ['The name field is required.'] } });
        Object.assign(row, body);
        return send(res, 200, row);
      }
      if (m === 'DELETE') {
        row.deleted_at = now();
        return send(res, 200, []);
      }
    }
    if (seg[0] === 'search' && seg[1] === 'links') {
      const query = q.get('query');
      const onlyTags = q.get('only_tags')?.split(',').map(Number);
      const onlyLists = q.get('only_lists')?.split(',').map(Number);
      // Flags read as LinkAce reads them, with PHP's (bool): any non-empty value but "0" is true.
      const flag = (name: string) => !['', '0', null].includes(q.get(name));
      const broken = flag('broken_only');
      if (!query && !onlyTags && !onlyLists && !broken) return send(res, 422, LINKACE_NEED_CRITERION);
      let rows = live(state.links).filter((l) => {
        if (query) {
          const needle = query.toLowerCase();
          const hay = [l.url, flag('search_title') ? l.title : '', flag('search_description') ? l.description : ''].map((v) => String(v ?? '').toLowerCase());
          if (!hay.some((h) => h.includes(needle))) return false;
        }
        if (onlyTags && !onlyTags.some((t) => state.linkTags.get(l.id)?.has(t))) return false;
        if (onlyLists && !onlyLists.some((t) => state.linkLists.get(l.id)?.has(t))) return false;
        if (broken && !(Number(l.status) > 1)) return false;
        if (q.get('visibility') && Number(q.get('visibility')) !== l.visibility) return false;
        return true;
      });
      const order = q.get('order_by');
      if (order) {
        const [by, dir] = order.split(':');
        rows = orderLinks(rows, by!, dir ?? 'asc');
      }
      return send(
        res,
        200,
        paginate(
          path,
          q,
          rows.map((l) => ({ ...l, tags: withRelations(l).tags })),
        ),
      );
    }
    if (seg[0] === 'search' && (seg[1] === 'tags' || seg[1] === 'lists')) {
      const query = q.get('query');
      if (!query) return send(res, 200, []);
      const found = live(state[seg[1]]).filter((t) => String(t.name).includes(query));
      return send(res, 200, found.length ? Object.fromEntries(found.map((t) => [String(t.id), t.name])) : []);
    }
    if (seg[0] === 'trash' && m === 'GET') {
      const kind = seg[1] as 'links' | 'tags' | 'lists';
      return send(
        res,
        200,
        (state[kind] ?? []).filter((r) => r.deleted_at !== null),
      );
    }
    if (seg[0] === 'trash' && seg[1] === 'restore' && m === 'PATCH') {
      const kind = `${String(body.model)}s` as 'links';
      const row = (state[kind] ?? []).find((r) => r.id === Number(body.id));
      if (!row) return send(res, 404, { message: 'No query results' });
      row.deleted_at = null;
      return send(res, 200, []);
    }
    if (seg[0] === 'trash' && seg[1] === 'clear' && m === 'DELETE') {
      const kind = String(body.model) as 'links';
      if (!['links', 'lists', 'tags', 'notes'].includes(kind)) return send(res, 422, { message: 'The model field is required.', errors: { model: ['The model field is required.'] } });
      if (state[kind]) state[kind] = state[kind].filter((r) => r.deleted_at === null);
      return send(res, 200, []);
    }
    if (seg[0] === 'bulk' && seg[1] === 'links' && m === 'POST') {
      const models = body.models as Record<string, unknown>[];
      const errors: Record<string, string[]> = {};
      models.forEach((mo, i) => {
        if (!mo.url) errors[`models.${i}.url`] = [`The models.${i}.url field is required.`];
        if (typeof mo.visibility !== 'number') errors[`models.${i}.visibility`] = [`The models.${i}.visibility field is required.`];
      });
      if (Object.keys(errors).length) return send(res, 422, { message: Object.values(errors)[0]![0], errors });
      return send(
        res,
        200,
        models.map((mo) => {
          const row = addLink(mo);
          state.linkTags.set(row.id, new Set(refs('tags', mo.tags)));
          state.linkLists.set(row.id, new Set(refs('lists', mo.lists)));
          return withRelations(row);
        }),
      );
    }
    if (seg[0] === 'bulk' && seg[1] === 'delete' && m === 'DELETE') {
      const kind = String(body.type) as 'links';
      const out: Record<string, boolean> = {};
      for (const i of body.models as number[]) {
        const row = live(state[kind]).find((r) => r.id === i);
        if (row) {
          row.deleted_at = now();
          out[String(i)] = true;
        }
      }
      return send(res, 200, out);
    }
    return send(res, 404, { message: `The route ${path.slice(1)} could not be found.` });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
