/**
 * Netscape bookmark files for the bookmarks service: bytes in any encoding decoded, then read by the shared
 * src/formats/netscape.ts (linear in the file's length, folder paths capped at MAX_FOLDER_DEPTH), its folders
 * turned into tags; and the flat export written by the shared writer.
 */
import { MAX_FOLDER_DEPTH, cleanTag, parseEpoch, readNetscape, readNetscapeYielding, writeNetscape, type NetscapeDocument, type NetscapeFolder } from '../../formats/netscape.js';
import { decodeHtml } from './page-parse.js';

export { MAX_FOLDER_DEPTH, cleanTag };

export interface NetscapeBookmark {
  url: string;
  title: string;
  description: string | null;
  tags: string[];
  /** unix seconds */
  addDate: number | null;
  /** true = private, false = public, null = not stated */
  private: boolean | null;
}

/** ADD_DATE: unix seconds; milli/microsecond epochs are scaled down; other text parsed as a date. */
export function parseAddDate(raw: string | undefined, now = Date.now()): number | null {
  return parseEpoch(raw, now / 1000);
}

/**
 * The service's view of a read file: folders become tags (outermost first; the browser's toolbar and
 * unfiled folders, unnamed folders and a name repeated further in add none), then the TAGS attribute's
 * tags not already there (names compared ignoring case).
 */
function asBookmarks(doc: NetscapeDocument): NetscapeBookmark[] {
  const folderTags = new WeakMap<readonly NetscapeFolder[], { tags: string[]; keys: Set<string> }>();
  const tagsOf = (path: readonly NetscapeFolder[]) => {
    let found = folderTags.get(path);
    if (!found) {
      found = { tags: [], keys: new Set() };
      for (const f of path) {
        const name = cleanTag(f.name);
        const key = name.toLowerCase();
        if (f.special || !name || found.keys.has(key)) continue;
        found.keys.add(key);
        found.tags.push(name);
      }
      folderTags.set(path, found);
    }
    return found;
  };
  return doc.entries.map((e) => {
    const folder = tagsOf(e.path);
    if (e.tags.length === 0) return { url: e.url, title: e.title, description: e.description, tags: folder.tags.slice(), addDate: e.addDate, private: e.private };
    const tags = folder.tags.slice();
    const keys = new Set(folder.keys);
    for (const t of e.tags) {
      const k = t.toLowerCase();
      if (!keys.has(k)) {
        keys.add(k);
        tags.push(t);
      }
    }
    return { url: e.url, title: e.title, description: e.description, tags, addDate: e.addDate, private: e.private };
  });
}

const textOf = (input: string | Uint8Array) => (typeof input === 'string' ? input : decodeHtml(input));

/** The bookmarks of a Netscape file, at once (linear time). */
export function parseNetscape(input: string | Uint8Array): NetscapeBookmark[] {
  return asBookmarks(readNetscape(textOf(input)));
}

/** parseNetscape in slices, giving the event loop a turn between them (same result). */
export async function parseNetscapeYielding(input: string | Uint8Array): Promise<NetscapeBookmark[]> {
  return asBookmarks(await readNetscapeYielding(textOf(input)));
}

export interface ExportLink {
  url: string;
  title: string;
  description: string | null;
  /** unix seconds */
  addDate: number | null;
  private: boolean;
  tags: string[];
}

export function serializeNetscape(links: ExportLink[], title = 'Bookmarks'): string {
  return writeNetscape(links, { title });
}
