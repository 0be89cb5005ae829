/**
 * Netscape bookmark files (the HTML every browser imports and exports): a pure parser (html-events.ts,
 * linear in the file's length; folders become tags, up to MAX_FOLDER_DEPTH levels; TAGS/ADD_DATE/PRIVATE
 * attributes, <DD> descriptions, any encoding) and a serializer.
 */
import { scanHtml, scanHtmlYielding, type HtmlHandler } from './html-events.js';
import { decodeHtml } from './page-parse.js';

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

const TRUTHY = new Set(['1', '+', 'on', 'true', 'yes', 'y', 't', 'ok', 'checked', 'public', 'published']);

function truthy(v: string): boolean {
  return TRUTHY.has(v.trim().toLowerCase());
}

/** ADD_DATE: unix seconds; milli/microsecond epochs are scaled down; other text parsed as a date. */
export function parseAddDate(raw: string | undefined, now = Date.now()): number | null {
  if (raw === undefined) return null;
  const v = raw.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) {
    let n = Number(v);
    const limit = now / 1000 + 30 * 365 * 86400;
    while (n > limit) n = Math.floor(n / 1000);
    return n;
  }
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** A tag name as stored: commas removed, whitespace collapsed. */
export function cleanTag(name: string): string {
  return name.replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
}

function splitTags(raw: string): string[] {
  return raw.split(',').map(cleanTag).filter(Boolean);
}

/**
 * Named folders nested deeper than this fold into the last level: their bookmarks are imported with the
 * tags of the 32 outer folders, and the deeper folder names are not used as tags.
 */
export const MAX_FOLDER_DEPTH = 32;

type Entry = NetscapeBookmark & { attrDescription: boolean };

/** One open <DL>: whether a named folder opened it, and the tag it added (lower-case key) or null (root, toolbar, repeated name, too deep). */
interface OpenList {
  named: boolean;
  key: string | null;
}

/** The state of one parse: an event handler and the bookmarks found. Linear in the file's length. */
function netscapeReader(): { handler: HtmlHandler; result(): NetscapeBookmark[] } {
  const out: Entry[] = [];
  const lists: OpenList[] = [];
  let namedDepth = 0;
  // the tags of the open folders, outermost first, without repeats (case-insensitive), and their keys
  const folderTags: string[] = [];
  const folderKeys = new Set<string>();
  let pendingFolder: string | null = null;
  let capture: 'folder' | 'title' | 'desc' | null = null;
  let text = '';
  let current: Entry | null = null;
  let last: Entry | null = null;
  let skipFolder = false;

  const endDescription = () => {
    if (capture === 'desc' && last) {
      const d = text.replace(/\r\n?/g, '\n').trim();
      if (d && !last.attrDescription) last.description = d;
    }
    if (capture === 'desc') capture = null;
  };
  const finishBookmark = () => {
    if (!current) return;
    current.title = text.replace(/\s+/g, ' ').trim();
    out.push(current);
    last = current;
    current = null;
    capture = null;
  };
  const tagsFor = (tagAttr: string | undefined): string[] => {
    const tags = folderTags.slice();
    if (!tagAttr) return tags;
    const keys = new Set(folderKeys);
    for (const t of splitTags(tagAttr)) {
      const k = t.toLowerCase();
      if (!keys.has(k)) {
        keys.add(k);
        tags.push(t);
      }
    }
    return tags;
  };

  const handler: HtmlHandler = {
    onopentag(name, attrs) {
      if (name === 'dt' || name === 'dl' || name === 'h3' || name === 'a' || name === 'dd') endDescription();
      if (capture === 'title' && name !== 'a') {
        // tags inside a title (rare) are ignored; their text still counts
        if (name === 'dt' || name === 'dl' || name === 'dd' || name === 'h3') finishBookmark();
      }
      switch (name) {
        case 'h3':
          capture = 'folder';
          text = '';
          skipFolder = truthy(attrs.personal_toolbar_folder ?? '') || truthy(attrs.unfiled_bookmarks_folder ?? '');
          break;
        case 'dl': {
          let key: string | null = null;
          const named = pendingFolder !== null;
          if (pendingFolder && namedDepth < MAX_FOLDER_DEPTH) {
            const k = pendingFolder.toLowerCase();
            if (!folderKeys.has(k)) {
              key = k;
              folderKeys.add(k);
              folderTags.push(pendingFolder);
            }
          }
          if (named) namedDepth++;
          lists.push({ key, named });
          pendingFolder = null;
          break;
        }
        case 'a': {
          if (current) finishBookmark();
          const href = (attrs.href ?? '').trim();
          if (!href) break;
          let priv: boolean | null = null;
          const pub = attrs.public ?? attrs.published ?? attrs.pub;
          const prv = attrs.private ?? attrs.shared;
          if (pub !== undefined) priv = !truthy(pub);
          else if (prv !== undefined) priv = attrs.private !== undefined ? truthy(prv) : !truthy(prv);
          const desc = (attrs.description ?? attrs.note ?? '').trim();
          current = {
            url: href,
            title: '',
            description: desc || null,
            attrDescription: !!desc,
            tags: tagsFor(attrs.tags ?? attrs.tag ?? attrs.labels),
            addDate: parseAddDate(attrs.add_date),
            private: priv,
          };
          capture = 'title';
          text = '';
          break;
        }
        case 'dd':
          if (last && !current) {
            capture = 'desc';
            text = '';
          }
          break;
      }
    },
    ontext(t) {
      if (capture) text += t;
    },
    onclosetag(name) {
      if (name === 'h3' && capture === 'folder') {
        const n = cleanTag(text);
        pendingFolder = skipFolder || !n ? null : n;
        capture = null;
      } else if (name === 'a' && current) finishBookmark();
      else if (name === 'dl') {
        endDescription();
        if (current) finishBookmark();
        const closed = lists.pop();
        if (closed?.named) namedDepth--;
        if (closed?.key) {
          folderKeys.delete(closed.key);
          folderTags.pop();
        }
        pendingFolder = null;
      } else if (name === 'dd') endDescription();
    },
  };
  const result = () => {
    if (current) finishBookmark();
    endDescription();
    return out.map(({ attrDescription: _, ...b }) => b);
  };
  return { handler, result };
}

const textOf = (input: string | Uint8Array) => (typeof input === 'string' ? input : decodeHtml(input));

/** The bookmarks of a Netscape file, at once (linear time). */
export function parseNetscape(input: string | Uint8Array): NetscapeBookmark[] {
  const r = netscapeReader();
  scanHtml(textOf(input), r.handler);
  return r.result();
}

/** parseNetscape in slices, giving the event loop a turn between them (same result). */
export async function parseNetscapeYielding(input: string | Uint8Array): Promise<NetscapeBookmark[]> {
  const r = netscapeReader();
  await scanHtmlYielding(textOf(input), r.handler);
  return r.result();
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
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
  const lines = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<!-- This is an automatically generated file.',
    '     It will be read and overwritten.',
    '     DO NOT EDIT! -->',
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    `<TITLE>${esc(title)}</TITLE>`,
    `<H1>${esc(title)}</H1>`,
    '<DL><p>',
  ];
  for (const l of links) {
    const attrs = [`HREF="${esc(l.url)}"`];
    if (l.addDate !== null) attrs.push(`ADD_DATE="${l.addDate}"`);
    attrs.push(`PRIVATE="${l.private ? 1 : 0}"`);
    if (l.tags.length) attrs.push(`TAGS="${esc(l.tags.map(cleanTag).join(','))}"`);
    lines.push(`    <DT><A ${attrs.join(' ')}>${esc(l.title)}</A>`);
    if (l.description) lines.push(`    <DD>${esc(l.description)}`);
  }
  lines.push('</DL><p>', '');
  return lines.join('\n');
}
