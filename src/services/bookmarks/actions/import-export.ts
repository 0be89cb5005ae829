/** Import of Netscape bookmark files into the caller's account, and export of the links the caller can see. */
import type { Deps } from '../deps.js';
import type { Caller } from '../access.js';
import { visibleSql } from '../access.js';
import { isValidUrl, LIMITS } from '../validate.js';
import { parseNetscape, serializeNetscape, type ExportLink } from '../netscape.js';
import { fallbackTitle } from '../metadata.js';
import { fromUnixSeconds, toUnixSeconds } from '../time.js';
import { attach, collectionsOf, findOwnLinkByUrl, insertLink, linkJson, type LinkRow } from '../store/links.js';
import type { CollectionRow } from '../store/collections.js';
import { defaultVisibility, emitTagsCreated, requireUser, resolveRefs } from './links.js';

export interface ImportResult {
  /** bookmarks found in the file */
  total: number;
  imported: number;
  /** already saved by this user (trash included) or repeated in the file: existing + duplicates */
  skipped: number;
  /** already saved by this user (trash included) */
  existing: number;
  /** repeated in the file (after their first entry) */
  duplicates: number;
  /** not a valid URL (e.g. place: or javascript: entries) */
  invalid: number;
  /** tags this import created (folders and TAGS names the user had no tag for) */
  tags_created: number;
  /** lists this import created: none (folders become tags) */
  lists_created: number;
  /** a dry run: everything above was done and rolled back */
  dry_run: boolean;
}

/** Thrown inside the import's transaction to roll a dry run back. */
class RollBack extends Error {}

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
}

/**
 * Imports into the caller's account in one transaction. A dry run runs the very same import and rolls it
 * back, so its counts are exactly what the real run then does (on the same data).
 * Events: as a link or tag created through the API, every created tag publishes `tag.created` and every
 * created link `link.created` (with its tags), after the transaction commits; a dry run publishes nothing.
 */
export function importBookmarks(deps: Deps, caller: Caller, file: Uint8Array | string, options: { dryRun?: boolean } = {}): ImportResult {
  const userId = requireUser(caller);
  const items = parseNetscape(file);
  const dryRun = options.dryRun === true;
  const result: ImportResult = { total: items.length, imported: 0, skipped: 0, existing: 0, duplicates: 0, invalid: 0, tags_created: 0, lists_created: 0, dry_run: dryRun };
  const seen = new Set<string>();
  const created: CollectionRow[] = [];
  const inserted: LinkRow[] = [];
  const fallbackVisibility = defaultVisibility(deps, userId);
  const run = deps.db.transaction(() => {
    for (const b of items) {
      const url = b.url.trim();
      if (!isValidUrl(url) || [...url].length > LIMITS.url) {
        result.invalid++;
        continue;
      }
      if (seen.has(url)) {
        result.duplicates++;
        continue;
      }
      seen.add(url);
      if (findOwnLinkByUrl(deps.db, userId, url)) {
        result.existing++;
        continue;
      }
      const link: LinkRow = insertLink(deps.db, {
        user_id: userId,
        url,
        title: cut(b.title || fallbackTitle(url), LIMITS.title),
        description: b.description ? cut(b.description, LIMITS.description) : null,
        icon: 'link',
        visibility: b.private === true ? 3 : b.private === false ? (deps.guestAccess ? 1 : 2) : fallbackVisibility,
        created_at: b.addDate !== null ? fromUnixSeconds(b.addDate) : undefined,
      });
      const tags = b.tags.map((t) => cut(t, LIMITS.name)).filter(Boolean);
      if (tags.length) attach(deps.db, 'tags', link.id, resolveRefs(deps, userId, 'tags', tags.map((name) => ({ name })), created), 'replace');
      result.imported++;
      inserted.push(link);
    }
    result.skipped = result.existing + result.duplicates;
    result.tags_created = created.length;
    if (dryRun) throw new RollBack();
  });
  try {
    run();
  } catch (err) {
    if (!(err instanceof RollBack)) throw err;
    return result;
  }
  publishCreated(deps, caller, userId, created, inserted);
  return result;
}

/** `tag.created` and `link.created` for what an import created, the links as the API returns them. */
function publishCreated(deps: Deps, caller: Caller, userId: number, tags: CollectionRow[], links: LinkRow[]): void {
  emitTagsCreated(deps, tags);
  for (let i = 0; i < links.length; i += 500) {
    const chunk = links.slice(i, i + 500);
    const tagsOf = collectionsOf(deps.db, caller, 'tags', chunk.map((l) => l.id));
    for (const l of chunk) deps.events.emit({ type: 'link.created', data: { ...linkJson(l), lists: [], tags: tagsOf.get(l.id) ?? [] }, userId });
  }
}

/** The links the caller can see, oldest first, as a Netscape bookmark file. */
export function exportBookmarks(deps: Deps, caller: Caller): string {
  const v = visibleSql(caller, '');
  const rows = deps.db.prepare(`SELECT * FROM links WHERE deleted_at IS NULL AND ${v.sql} ORDER BY created_at ASC, id ASC`).all(...v.params) as LinkRow[];
  const links: ExportLink[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const tags = collectionsOf(deps.db, caller, 'tags', chunk.map((r) => r.id));
    for (const r of chunk)
      links.push({
        url: r.url,
        title: r.title,
        description: r.description,
        addDate: toUnixSeconds(r.created_at),
        private: r.visibility === 3,
        tags: (tags.get(r.id) ?? []).map((t) => String(t.name)),
      });
  }
  return serializeNetscape(links);
}
