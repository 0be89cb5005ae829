/**
 * Import and export documents, pure: items read from a Netscape file or from our JSON export, duplicates
 * in a file merged, and the JSON export document (version 1) built from API objects.
 */
import type { NetscapeFile, ExportLink } from './netscape.js';
import { parseVisibility } from './visibility.js';
import type { Link } from './types.js';

export interface ImportItem {
  url: string;
  title: string;
  description: string | null;
  /** 1|2|3, or undefined for the server's default. */
  visibility?: number;
  tags: string[];
  lists: string[];
}

export interface ImportCollection {
  name: string;
  description?: string | null;
  visibility?: number;
}

export interface ImportDocument {
  items: ImportItem[];
  lists: ImportCollection[];
  tags: ImportCollection[];
}

export type FolderMode = 'lists' | 'tags' | 'none';

export class ImportFormatError extends Error {}

export const FOLDER_SEPARATOR = ' / ';

export function itemsFromNetscape(file: NetscapeFile, folders: FolderMode = 'lists'): ImportDocument {
  const items: ImportItem[] = [];
  const listNames = new Set<string>();
  for (const b of file.bookmarks) {
    const tags = [...b.tags];
    const lists: string[] = [];
    if (folders === 'lists' && b.folders.length) {
      const name = b.folders.join(FOLDER_SEPARATOR);
      lists.push(name);
      listNames.add(name);
    } else if (folders === 'tags') {
      for (const f of b.folders) if (!tags.includes(f)) tags.push(f);
    }
    const visibility = b.visibility ?? (b.private === true ? 3 : b.private === false ? 1 : undefined);
    items.push({ url: b.url, title: b.title || b.url, description: b.description, visibility, tags, lists });
  }
  if (folders === 'lists') for (const f of file.folders) listNames.add(f.join(FOLDER_SEPARATOR));
  return { items, lists: [...listNames].map((name) => ({ name })), tags: [] };
}

function names(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value : String(value).split(',');
  const out: string[] = [];
  for (const p of parts) {
    const name = (p && typeof p === 'object' ? String((p as { name?: unknown }).name ?? '') : String(p)).trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

function optVisibility(v: unknown, where: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  try {
    return parseVisibility(v as string);
  } catch (err) {
    throw new ImportFormatError(`${where}: ${(err as Error).message}`);
  }
}

/** Our JSON export ({version, links, lists, tags}) or a plain array of link objects. */
export function itemsFromJson(value: unknown): ImportDocument {
  const doc = Array.isArray(value) ? { links: value } : value;
  if (!doc || typeof doc !== 'object' || !Array.isArray((doc as { links?: unknown }).links)) {
    throw new ImportFormatError('the JSON file is neither an `ops bm export --format json` document nor an array of links');
  }
  const d = doc as { links: unknown[]; lists?: unknown; tags?: unknown };
  const items = d.links.map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw new ImportFormatError(`links[${i}] is not an object`);
    const l = raw as Record<string, unknown>;
    if (typeof l.url !== 'string' || !l.url.trim()) throw new ImportFormatError(`links[${i}] has no url`);
    return {
      url: l.url.trim(),
      title: typeof l.title === 'string' && l.title ? l.title : l.url.trim(),
      description: typeof l.description === 'string' && l.description ? l.description : null,
      visibility: optVisibility(l.visibility, `links[${i}]`),
      tags: names(l.tags),
      lists: names(l.lists),
    };
  });
  const collections = (v: unknown, what: string): ImportCollection[] =>
    (Array.isArray(v) ? v : []).map((raw, i) => {
      const c = (typeof raw === 'string' ? { name: raw } : raw) as Record<string, unknown>;
      if (!c || typeof c.name !== 'string' || !c.name.trim()) throw new ImportFormatError(`${what}[${i}] has no name`);
      return {
        name: c.name.trim(),
        description: typeof c.description === 'string' ? c.description : undefined,
        visibility: optVisibility(c.visibility, `${what}[${i}]`),
      };
    });
  return { items, lists: collections(d.lists, 'lists'), tags: collections(d.tags, 'tags') };
}

/** One item per URL: later duplicates add their tags and lists to the first and are counted. */
export function mergeDuplicates(items: readonly ImportItem[]): { items: ImportItem[]; duplicates: number } {
  const byUrl = new Map<string, ImportItem>();
  let duplicates = 0;
  for (const item of items) {
    const seen = byUrl.get(item.url);
    if (!seen) {
      byUrl.set(item.url, { ...item, tags: [...item.tags], lists: [...item.lists] });
      continue;
    }
    duplicates++;
    for (const t of item.tags) if (!seen.tags.includes(t)) seen.tags.push(t);
    for (const l of item.lists) if (!seen.lists.includes(l)) seen.lists.push(l);
    seen.description ??= item.description;
    if (seen.visibility === undefined) seen.visibility = item.visibility;
  }
  return { items: [...byUrl.values()], duplicates };
}

export interface ExportDocument {
  format: 'ops-bookmarks';
  version: 1;
  exported_at: string;
  links: (ExportLink & { id: number; status?: number })[];
  lists: ImportCollection[];
  tags: ImportCollection[];
}

/** Links with the names of their tags and lists (from tag -> links and list -> links maps). */
export function exportLinks(links: readonly Link[], tagsOf: Map<number, string[]>, listsOf: Map<number, string[]>): (ExportLink & { id: number; status?: number })[] {
  return links.map((l) => ({
    id: l.id,
    url: l.url,
    title: l.title,
    description: l.description ?? null,
    visibility: l.visibility,
    status: l.status,
    tags: [...(tagsOf.get(l.id) ?? [])].sort((a, b) => a.localeCompare(b)),
    lists: [...(listsOf.get(l.id) ?? [])].sort((a, b) => a.localeCompare(b)),
    created_at: l.created_at,
    updated_at: l.updated_at,
  }));
}

type CollectionSettings = { name: string; description?: string | null; visibility?: number };

/** Lists and tags by name (code-point order, as the server sorts them), so every way of reading gives one document. */
function byName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function exportDocument(links: ExportDocument['links'], lists: readonly CollectionSettings[], tags: readonly CollectionSettings[], now = new Date()): ExportDocument {
  return {
    format: 'ops-bookmarks',
    version: 1,
    exported_at: now.toISOString(),
    links,
    lists: byName(lists).map((l) => ({ name: l.name, description: l.description ?? null, visibility: l.visibility })),
    tags: byName(tags).map((t) => ({ name: t.name, visibility: t.visibility })),
  };
}

export const CSV_HEADER = ['id', 'url', 'title', 'description', 'visibility', 'status', 'tags', 'lists', 'created_at', 'updated_at'] as const;
