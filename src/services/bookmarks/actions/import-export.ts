/** Import of Netscape bookmark files into the caller's account, and export of the links the caller can see. */
import type { Deps } from '../deps.js';
import type { Caller } from '../access.js';
import { visibleSql } from '../access.js';
import { LIMITS, MAX_REFS } from '../validate.js';
import { isValidUrl } from '../fields.js';
import { parseNetscapeYielding, serializeNetscape, type ExportLink, type NetscapeBookmark } from '../netscape.js';
import { fallbackTitle } from '../metadata.js';
import { fromUnixSeconds, toUnixSeconds } from '../time.js';
import { attach, collectionsOf, findOwnLinkByUrl, insertLink, type LinkRow } from '../store/links.js';
import { findOwnByName, type CollectionRow } from '../store/collections.js';
import { defaultVisibility, requireUser, resolveRefs } from './links.js';

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
  /** a dry run: the counts of the import, nothing written */
  dry_run: boolean;
}

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
}

export interface ImportOptions {
  /** write for this long before giving the event loop a turn (default 20 ms) */
  sliceMs?: number;
  /** count what the import would do and write nothing */
  dryRun?: boolean;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Imports a Netscape file into the caller's account. The file is parsed in slices and the bookmarks
 * are written in transactions of about `sliceMs` each, with a turn of the event loop between them, so
 * that other requests keep being answered during a big import. Each slice checks for URLs already
 * saved inside its own transaction, so concurrent writes cannot make it store a duplicate.
 * A dry run goes through the very same steps (the same checks, in the same order, on the same data) and
 * only leaves out the writes, noting which tags the writes would have created: its counts are what the
 * real run then does.
 * Events: none. An import is one act of its user, not thousands: it publishes no `link.created` nor
 * `tag.created` (3,000 bookmarks made 3,000 signed deliveries, each retried for hours against a receiver that is
 * down), as LinkAce's own import notifies nothing (its import jobs save the links directly; a webhook consumer
 * of ours that mirrors links reads them after an import). The answer's counts say what it did.
 */
export async function importBookmarks(deps: Deps, caller: Caller, file: Uint8Array | string, opts: ImportOptions = {}): Promise<ImportResult> {
  const userId = requireUser(caller);
  const sliceMs = opts.sliceMs ?? 20;
  const dryRun = opts.dryRun === true;
  const items = await parseNetscapeYielding(file);
  const result: ImportResult = { total: items.length, imported: 0, skipped: 0, existing: 0, duplicates: 0, invalid: 0, tags_created: 0, lists_created: 0, dry_run: dryRun };
  const seen = new Set<string>();
  const fallbackVisibility = defaultVisibility(deps, userId);
  /** tag names a dry run would have created (a real run finds them afterwards, as resolveRefs does) */
  const wouldCreate = new Set<string>();
  let created: CollectionRow[] = [];
  const importOne = (b: NetscapeBookmark) => {
    const url = b.url.trim();
    if (!isValidUrl(url) || [...url].length > LIMITS.url) {
      result.invalid++;
      return;
    }
    if (seen.has(url)) {
      result.duplicates++;
      return;
    }
    seen.add(url);
    if (findOwnLinkByUrl(deps.db, userId, url)) {
      result.existing++;
      return;
    }
    const tags = b.tags
      .slice(0, MAX_REFS)
      .map((t) => cut(t, LIMITS.name))
      .filter(Boolean);
    result.imported++;
    if (dryRun) {
      for (const name of tags) if (!wouldCreate.has(name) && !findOwnByName(deps.db, 'tags', userId, name)) wouldCreate.add(name);
      return;
    }
    const link = insertLink(deps.db, {
      user_id: userId,
      url,
      title: cut(b.title || fallbackTitle(url), LIMITS.title),
      description: b.description ? cut(b.description, LIMITS.description) : null,
      icon: 'link',
      visibility: b.private === true ? 3 : b.private === false ? (deps.guestAccess ? 1 : 2) : fallbackVisibility,
      created_at: b.addDate !== null ? fromUnixSeconds(b.addDate) : undefined,
    });
    if (tags.length)
      attach(
        deps.db,
        'tags',
        link.id,
        resolveRefs(
          deps,
          userId,
          'tags',
          tags.map((name) => ({ name })),
          created,
        ),
        'replace',
      );
  };
  let next = 0;
  while (next < items.length) {
    const started = performance.now();
    deps.db.transaction(() => {
      do importOne(items[next++]!);
      while (next < items.length && performance.now() - started < sliceMs);
    })();
    result.tags_created += created.length;
    created = [];
    if (next < items.length) await turn();
  }
  if (dryRun) result.tags_created = wouldCreate.size;
  result.skipped = result.existing + result.duplicates;
  return result;
}

/** The links the caller can see, oldest first, as a Netscape bookmark file. */
export function exportBookmarks(deps: Deps, caller: Caller): string {
  const v = visibleSql(caller, '');
  const rows = deps.db.prepare(`SELECT * FROM links WHERE deleted_at IS NULL AND ${v.sql} ORDER BY created_at ASC, id ASC`).all(...v.params) as LinkRow[];
  const links: ExportLink[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const tags = collectionsOf(
      deps.db,
      caller,
      'tags',
      chunk.map((r) => r.id),
    );
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
