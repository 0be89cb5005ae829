/**
 * The whole export in one answer (`GET /api/v1/export?format=json`, an `ops serve` extension): every link the
 * caller can see with the names of its visible tags and lists, and the visible lists and tags with their
 * settings, as the `ops-bookmarks` version 1 document `ops bm export --format json` writes. The CLI builds
 * all its export formats from it in one request instead of one request per tag and list.
 * Rules: links by id; a link's tag and list names sorted by name; lists and tags by name, then id.
 */
import type { Deps } from '../deps.js';
import { visibleSql, type Caller } from '../access.js';
import { collectionsOf, type LinkRow } from '../store/links.js';
import { KINDS, type CollectionRow } from '../store/collections.js';

export interface ExportedLink {
  id: number;
  url: string;
  title: string;
  description: string | null;
  visibility: number;
  status: number;
  tags: string[];
  lists: string[];
  created_at: string;
  updated_at: string;
}

export interface ExportDocumentJson {
  format: 'ops-bookmarks';
  version: 1;
  exported_at: string;
  links: ExportedLink[];
  lists: { name: string; description: string | null; visibility: number }[];
  tags: { name: string; visibility: number }[];
}

const CHUNK = 500;

export function exportDocument(deps: Deps, caller: Caller, now = new Date()): ExportDocumentJson {
  const v = visibleSql(caller, '');
  const rows = deps.db.prepare(`SELECT * FROM links WHERE deleted_at IS NULL AND ${v.sql} ORDER BY id ASC`).all(...v.params) as LinkRow[];
  const links: ExportedLink[] = [];
  const names = (m: Map<number, Record<string, unknown>[]>, id: number) => (m.get(id) ?? []).map((c) => String(c.name));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const ids = chunk.map((r) => r.id);
    const tags = collectionsOf(deps.db, caller, 'tags', ids);
    const lists = collectionsOf(deps.db, caller, 'lists', ids);
    for (const r of chunk)
      links.push({
        id: r.id,
        url: r.url,
        title: r.title,
        description: r.description,
        visibility: r.visibility,
        status: r.status,
        tags: names(tags, r.id),
        lists: names(lists, r.id),
        created_at: r.created_at,
        updated_at: r.updated_at,
      });
  }
  const collections = (kind: 'lists' | 'tags') =>
    deps.db.prepare(`SELECT * FROM ${KINDS[kind].table} WHERE deleted_at IS NULL AND ${v.sql} ORDER BY name ASC, id ASC`).all(...v.params) as CollectionRow[];
  return {
    format: 'ops-bookmarks',
    version: 1,
    exported_at: now.toISOString(),
    links,
    lists: collections('lists').map((l) => ({ name: l.name, description: l.description ?? null, visibility: l.visibility })),
    tags: collections('tags').map((t) => ({ name: t.name, visibility: t.visibility })),
  };
}
