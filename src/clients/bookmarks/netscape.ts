/**
 * Netscape bookmark files (what browsers, LinkAce, linkding, shiori and buku import and export).
 * Pure: `parseNetscape` reads a file with the shared reader of src/formats/netscape.ts (the bookmarks
 * service reads with it too) into bookmarks with their folder path; `serializeNetscape` writes one with
 * the shared writer that browsers and LinkAce read back.
 *
 * Read: `<H3>` folders nest through `<DL>`; each `<A HREF>` is a bookmark, its text the title, a following
 * `<DD>` its description; attributes ADD_DATE / LAST_MODIFIED (unix seconds; milli/micro-second epochs are
 * scaled down), TAGS (comma-separated), PRIVATE / PUBLIC / SHARED, DESCRIPTION / NOTE, our own VISIBILITY.
 * Write: links in no list at the top, one folder per list (a link in two lists appears in both folders),
 * TAGS, PRIVATE (1 iff visibility private), VISIBILITY, ADD_DATE, LAST_MODIFIED, `<DD>` description.
 */
import { escapeHtml, parseEpoch as parseDate, readNetscape, writeNetscape, type NetscapeEntry, type NetscapeFolder, type NetscapeOutEntry } from '../../formats/netscape.js';

export { escapeHtml };

/** A bookmark of a file as the reader gives it (formats/netscape.ts NetscapeEntry), its folder path as names. */
export interface NetscapeBookmark extends Omit<NetscapeEntry, 'path'> {
  /** Folder path from the outermost folder in, e.g. ["Bookmarks bar", "Dev"]. */
  folders: string[];
}

export interface NetscapeFile {
  title: string | null;
  bookmarks: NetscapeBookmark[];
  /** Every folder path seen (also empty ones), in file order. */
  folders: string[][];
}

/** ADD_DATE as unix seconds: numbers only; over-long epochs (ms, µs, ns) divided down until plausible. */
export function parseEpoch(value: string | undefined, now = Date.now() / 1000): number | null {
  if (value === undefined || !/^\d{1,22}$/.test(value.trim())) return null;
  return parseDate(value, now);
}

/** A list of tags typed by hand: comma-separated when there is a comma, else separated by spaces. */
export function splitTags(value: string | undefined): string[] {
  if (value === undefined) return [];
  const parts = value.includes(',') ? value.split(',') : value.split(/\s+/);
  const out: string[] = [];
  for (const p of parts) {
    const t = p.replace(/\s+/g, ' ').trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/**
 * A Netscape file read by the shared reader (src/formats/netscape.ts: linear time, folder paths capped at
 * its MAX_FOLDER_DEPTH), with each folder path as names (an unnamed folder is "(untitled)").
 */
export function parseNetscape(html: string): NetscapeFile {
  const doc = readNetscape(html);
  const names = new WeakMap<readonly NetscapeFolder[], string[]>();
  const namesOf = (path: readonly NetscapeFolder[]) => {
    let found = names.get(path);
    if (!found) names.set(path, (found = path.map((f) => f.name || '(untitled)')));
    return found;
  };
  return {
    title: doc.title,
    bookmarks: doc.entries.map(({ path, ...entry }) => ({ ...entry, folders: namesOf(path) })),
    folders: doc.folders.map(namesOf),
  };
}

/** A link to write: what the API gives, with tag and list names resolved. */
export interface ExportLink {
  url: string;
  title: string;
  description?: string | null;
  visibility?: number;
  tags: string[];
  lists: string[];
  created_at?: string;
  updated_at?: string;
}

const epochCache = new Map<string, number | null>();

function epoch(iso: string | undefined): number | null {
  if (!iso) return null;
  let value = epochCache.get(iso);
  if (value === undefined) {
    const ms = Date.parse(iso);
    value = Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
    if (epochCache.size > 10_000) epochCache.clear();
    epochCache.set(iso, value);
  }
  return value;
}

function entry(link: ExportLink): NetscapeOutEntry {
  return {
    url: link.url,
    title: link.title.trim() ? link.title : link.url,
    description: link.description,
    addDate: epoch(link.created_at),
    lastModified: epoch(link.updated_at),
    private: link.visibility === 3,
    visibility: link.visibility,
    tags: link.tags,
  };
}

/** Links in no list at the top, then one folder per list name (sorted); a link in two lists is in both. */
export function serializeNetscape(links: readonly ExportLink[], options: { title?: string } = {}): string {
  const top: NetscapeOutEntry[] = [];
  const byList = new Map<string, NetscapeOutEntry[]>();
  for (const link of links) {
    const e = entry(link);
    if (link.lists.length === 0) top.push(e);
    for (const list of link.lists) {
      const bucket = byList.get(list) ?? [];
      bucket.push(e);
      byList.set(list, bucket);
    }
  }
  const folders = [...byList.keys()].sort((a, b) => a.localeCompare(b)).map((name) => ({ name, entries: byList.get(name)! }));
  return writeNetscape(top, { title: options.title, folders });
}
