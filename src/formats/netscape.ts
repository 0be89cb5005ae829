/**
 * Netscape bookmark files (the HTML every browser, LinkAce, linkding, shiori and buku import and export),
 * read and written once for `ops bm` and the bookmarks service. Pure: text in, bookmarks out, and back.
 * Read (on the linear-time html-events.ts scanner: any input parses in time linear in its length):
 * - `<H3>` names a folder and the `<DL>` after it holds its entries; the folder path of a bookmark is the
 *   names of the open folders, outermost first, at most MAX_FOLDER_DEPTH of them (deeper folders fold into
 *   the last level, so a path never costs more than that per bookmark); each folder says whether it is the
 *   browser's toolbar or unfiled folder; an empty folder name is kept empty;
 * - each `<A HREF>` is a bookmark, its text (inline markup included) the title with white space collapsed;
 *   the `<DD>` right after it its description, each line trimmed, unless a DESCRIPTION or NOTE attribute
 *   gave one; `<DD>` after anything else describes nothing;
 * - ADD_DATE / LAST_MODIFIED: unix seconds, milli/micro/nanosecond epochs scaled down, or a date text;
 * - TAGS (or TAG, LABELS): comma-separated, white space collapsed, repeats dropped;
 * - private: PRIVATE first, then PUBLIC (PUBLISHED, PUB), then SHARED; null when the file says nothing
 *   (or nothing readable); VISIBILITY 1|2|3 is ours.
 * Write: the header browsers expect, the bookmarks outside folders, then one folder per name; escaped
 * attributes and text; titles on one line; PRIVATE always, VISIBILITY, ADD_DATE, LAST_MODIFIED and TAGS
 * when known; the description in a `<DD>`.
 */
import { scanHtml, scanHtmlYielding, type HtmlHandler } from './html-events.js';

export interface NetscapeFolder {
  name: string;
  /** PERSONAL_TOOLBAR_FOLDER or UNFILED_BOOKMARKS_FOLDER: the browser's own folder, not a topic. */
  special: boolean;
}

export interface NetscapeEntry {
  url: string;
  title: string;
  description: string | null;
  /** Unix seconds. */
  addDate: number | null;
  lastModified: number | null;
  tags: string[];
  /** The open folders, outermost first (shared between the bookmarks of one folder: do not change). */
  path: readonly NetscapeFolder[];
  /** true private, false public, null not stated. */
  private: boolean | null;
  /** 1|2|3 from our VISIBILITY attribute, when present and valid. */
  visibility: number | null;
}

export interface NetscapeDocument {
  /** The `<TITLE>`, when there is one. */
  title: string | null;
  entries: NetscapeEntry[];
  /** Every folder path opened (also empty folders), in file order. */
  folders: (readonly NetscapeFolder[])[];
}

/** Folders nested deeper than this fold into the last level. */
export const MAX_FOLDER_DEPTH = 32;

const TRUTHY = new Set(['1', '+', 'on', 'true', 'yes', 'y', 't', 'ok', 'checked']);
const FALSY = new Set(['0', '-', 'off', 'false', 'no', 'n', 'f', '']);
const MAX_FUTURE_SECONDS = 30 * 365 * 24 * 3600;

/** A yes/no attribute: true, false, or null when it is absent or says neither. */
export function flag(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase();
  if (TRUTHY.has(v)) return true;
  if (FALSY.has(v)) return false;
  return null;
}

/** A date attribute as unix seconds: digits (over-long epochs divided down until plausible) or a date text. */
export function parseEpoch(value: string | undefined, now = Date.now() / 1000): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,22}$/.test(text)) {
    let n = Number(text);
    const limit = now + MAX_FUTURE_SECONDS;
    while (n > limit) n = Math.floor(n / 1000);
    return n;
  }
  if (!/^\d{4}-\d\d|[a-z]/i.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** White space collapsed and trimmed. */
export function oneLine(text: string): string {
  return /\s\s|[^\S ]|^ | $/.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

/** A tag name as written: commas (the separator) made spaces, white space collapsed. */
export function cleanTag(name: string): string {
  return oneLine(name.includes(',') ? name.replace(/,/g, ' ') : name);
}

/** A TAGS attribute: comma-separated names, cleaned, repeats dropped. */
export function splitTagAttribute(value: string | undefined): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  for (const part of value.split(',')) {
    const t = cleanTag(part);
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

function privateOf(a: Record<string, string>): boolean | null {
  const priv = flag(a.private);
  if (priv !== null) return priv;
  const pub = flag(a.public ?? a.published ?? a.pub);
  if (pub !== null) return !pub;
  const shared = flag(a.shared);
  return shared === null ? null : !shared;
}

/** Tags that end a title or description being read; other (inline) markup is read through. */
const STRUCTURE = new Set(['a', 'dd', 'dt', 'dl', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'title', 'hr']);

/** The state of one read: the scanner's handler and the document found. Linear in the text's length. */
function netscapeReader(): { handler: HtmlHandler; result(): NetscapeDocument } {
  const entries: NetscapeEntry[] = [];
  const folders: (readonly NetscapeFolder[])[] = [];
  /** One per open <DL>: whether it opened a folder that is on the path. */
  const lists: boolean[] = [];
  let path: readonly NetscapeFolder[] = [];
  let pendingFolder: NetscapeFolder | null = null;
  let title: string | null = null;
  let capture: 'title' | 'h3' | 'a' | 'dd' | null = null;
  let text = '';
  let anchor: Record<string, string> | null = null;
  /** The bookmark a <DD> would describe (reset by any other structure). */
  let last: NetscapeEntry | null = null;
  let ddTarget: NetscapeEntry | null = null;
  let h3Special = false;

  const finishDd = () => {
    if (capture !== 'dd') return;
    const d = text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .map((l) => l.trim())
      .join('\n')
      .trim();
    if (ddTarget && d && ddTarget.description === null) ddTarget.description = d;
    capture = null;
    text = '';
    ddTarget = null;
  };

  const finishA = () => {
    if (capture !== 'a' || !anchor) return;
    const a = anchor;
    const name = oneLine(text);
    capture = null;
    text = '';
    anchor = null;
    const url = (a.href ?? '').trim();
    if (!url) {
      last = null;
      return;
    }
    const vis = a.visibility !== undefined && /^[123]$/.test(a.visibility.trim()) ? Number(a.visibility.trim()) : null;
    const desc = (a.description ?? a.note ?? '').trim();
    const entry: NetscapeEntry = {
      url,
      title: name,
      description: desc || null,
      addDate: parseEpoch(a.add_date),
      lastModified: parseEpoch(a.last_modified),
      tags: splitTagAttribute(a.tags ?? a.tag ?? a.labels),
      path,
      private: privateOf(a),
      visibility: vis,
    };
    entries.push(entry);
    last = entry;
  };

  const handler: HtmlHandler = {
    onopentag(name, attrs) {
      if (!STRUCTURE.has(name)) return;
      if (name === 'dd') {
        finishA();
        finishDd();
        if (last) {
          capture = 'dd';
          text = '';
          ddTarget = last;
        }
        last = null;
        return;
      }
      finishA();
      finishDd();
      last = null;
      if (name === 'title') {
        if (title === null) {
          capture = 'title';
          text = '';
        }
      } else if (name === 'h3') {
        capture = 'h3';
        text = '';
        h3Special = flag(attrs.personal_toolbar_folder) === true || flag(attrs.unfiled_bookmarks_folder) === true;
      } else if (name === 'h1') pendingFolder = null;
      else if (name === 'dl') {
        const opens = pendingFolder !== null && path.length < MAX_FOLDER_DEPTH;
        if (opens) {
          path = [...path, pendingFolder!];
          folders.push(path);
        }
        lists.push(opens);
        pendingFolder = null;
      } else if (name === 'a') {
        pendingFolder = null;
        capture = 'a';
        text = '';
        anchor = attrs;
      }
    },
    ontext(data) {
      if (capture) text += data;
    },
    onclosetag(name) {
      if (name === 'a') finishA();
      else if (name === 'h3' && capture === 'h3') {
        pendingFolder = { name: oneLine(text), special: h3Special };
        capture = null;
        text = '';
      } else if (name === 'title' && capture === 'title') {
        title = oneLine(text);
        capture = null;
        text = '';
      } else if (name === 'dl') {
        finishA();
        finishDd();
        if (lists.pop()) path = path.slice(0, -1);
        pendingFolder = null;
        last = null;
      } else if (name === 'dd') finishDd();
    },
  };
  const result = () => {
    finishA();
    finishDd();
    return { title, entries, folders };
  };
  return { handler, result };
}

/** The bookmarks of a Netscape file, at once (linear time). */
export function readNetscape(html: string): NetscapeDocument {
  const r = netscapeReader();
  scanHtml(html, r.handler);
  return r.result();
}

/** readNetscape in slices, giving the event loop a turn between them (same result). */
export async function readNetscapeYielding(html: string): Promise<NetscapeDocument> {
  const r = netscapeReader();
  await scanHtmlYielding(html, r.handler);
  return r.result();
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (ch) => ESCAPES[ch]!) : text;
}

/** A bookmark to write. */
export interface NetscapeOutEntry {
  url: string;
  title: string;
  description?: string | null;
  /** Unix seconds. */
  addDate?: number | null;
  lastModified?: number | null;
  private: boolean;
  visibility?: number | null;
  tags: readonly string[];
}

function anchorHtml(e: NetscapeOutEntry, indent: string): string {
  const attrs = [`HREF="${escapeHtml(e.url)}"`];
  if (e.addDate !== null && e.addDate !== undefined) attrs.push(`ADD_DATE="${e.addDate}"`);
  if (e.lastModified !== null && e.lastModified !== undefined) attrs.push(`LAST_MODIFIED="${e.lastModified}"`);
  attrs.push(e.private ? 'PRIVATE="1"' : 'PRIVATE="0"');
  if (e.visibility === 1 || e.visibility === 2 || e.visibility === 3) attrs.push(`VISIBILITY="${e.visibility}"`);
  if (e.tags.length) {
    const tags = e.tags.map(cleanTag).filter(Boolean);
    if (tags.length) attrs.push(`TAGS="${escapeHtml(tags.join(','))}"`);
  }
  let out = `${indent}<DT><A ${attrs.join(' ')}>${escapeHtml(oneLine(e.title))}</A>\n`;
  const desc = e.description?.trim();
  if (desc) out += `${indent}<DD>${escapeHtml(desc)}\n`;
  return out;
}

/** A Netscape file of these bookmarks: `top` outside any folder, then each folder in the given order. */
export function writeNetscape(top: Iterable<NetscapeOutEntry>, options: { title?: string; folders?: Iterable<{ name: string; entries: Iterable<NetscapeOutEntry> }> } = {}): string {
  const title = escapeHtml(options.title ?? 'Bookmarks');
  const parts: string[] = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n' +
      '<!-- This is an automatically generated file.\n     It will be read and overwritten.\n     DO NOT EDIT! -->\n' +
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n' +
      `<TITLE>${title}</TITLE>\n<H1>${title}</H1>\n<DL><p>\n`,
  ];
  for (const e of top) parts.push(anchorHtml(e, '    '));
  for (const folder of options.folders ?? []) {
    parts.push(`    <DT><H3>${escapeHtml(oneLine(folder.name))}</H3>\n    <DL><p>\n`);
    for (const e of folder.entries) parts.push(anchorHtml(e, '        '));
    parts.push('    </DL><p>\n');
  }
  parts.push('</DL><p>\n');
  return parts.join('');
}
