/**
 * Netscape bookmark files (what browsers, LinkAce, linkding, shiori and buku import and export).
 * Pure: `parseNetscape` reads a file with htmlparser2's tokenizer callbacks (no regex on HTML) into
 * bookmarks with their folder path; `serializeNetscape` writes one that browsers and LinkAce read back.
 *
 * Read: `<H3>` folders nest through `<DL>`; each `<A HREF>` is a bookmark, its text the title, a following
 * `<DD>` its description; attributes ADD_DATE / LAST_MODIFIED (unix seconds; milli/micro-second epochs are
 * scaled down), TAGS (comma-separated), PRIVATE / PUBLIC, DESCRIPTION / NOTE, and our own VISIBILITY.
 * Write: links in no list at the top, one folder per list (a link in two lists appears in both folders),
 * TAGS, PRIVATE (1 iff visibility private), VISIBILITY, ADD_DATE, LAST_MODIFIED, `<DD>` description.
 */
import { Parser } from 'htmlparser2';

export interface NetscapeBookmark {
  url: string;
  title: string;
  description: string | null;
  /** Unix seconds. */
  addDate: number | null;
  lastModified: number | null;
  tags: string[];
  /** Folder path from the outermost folder in, e.g. ["Bookmarks bar", "Dev"]. */
  folders: string[];
  /** true for PRIVATE=1 / PUBLIC=0, false for PRIVATE=0 / PUBLIC=1, null when the file says nothing. */
  private: boolean | null;
  /** 1|2|3 from our VISIBILITY attribute, when present and valid. */
  visibility: number | null;
}

export interface NetscapeFile {
  title: string | null;
  bookmarks: NetscapeBookmark[];
  /** Every folder path seen (also empty ones), in file order. */
  folders: string[][];
}

const TRUTHY = new Set(['1', '+', 'on', 'true', 'yes', 'y', 't', 'ok', 'checked']);
const FALSY = new Set(['0', '-', 'off', 'false', 'no', 'n', 'f', '']);
const MAX_FUTURE_SECONDS = 30 * 365 * 24 * 3600;

/** ADD_DATE as unix seconds: numbers only; over-long epochs (ms, µs, ns) divided down until plausible. */
export function parseEpoch(value: string | undefined, now = Date.now() / 1000): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (!/^\d{1,22}$/.test(text)) return null;
  let n = Number(text);
  const limit = now + MAX_FUTURE_SECONDS;
  while (n > limit) n = Math.floor(n / 1000);
  return n;
}

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

function flag(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = value.trim().toLowerCase();
  if (TRUTHY.has(v)) return true;
  if (FALSY.has(v)) return false;
  return null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function parseNetscape(html: string): NetscapeFile {
  const bookmarks: NetscapeBookmark[] = [];
  const folders: string[][] = [];
  /** One entry per open <DL>: the folder it belongs to, or null for a DL that opened no folder. */
  const stack: (string | null)[] = [];
  let pendingFolder: string | null = null;
  let title: string | null = null;

  let capture: 'title' | 'h3' | 'a' | 'dd' | null = null;
  let text = '';
  let current: { attrs: Record<string, string> } | null = null;
  /** The bookmark a <DD> would describe (reset by anything else). */
  let lastBookmark: NetscapeBookmark | null = null;
  let ddTarget: NetscapeBookmark | null = null;

  let currentPath: string[] = [];
  const path = (): string[] => currentPath;
  const stackChanged = () => {
    currentPath = stack.filter((f): f is string => f !== null);
  };

  const finishDd = () => {
    if (capture === 'dd') {
      const d = text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.trim()).join('\n').trim();
      if (ddTarget && d && !ddTarget.description) ddTarget.description = d;
      capture = null;
      text = '';
      ddTarget = null;
    }
  };

  const finishA = () => {
    if (capture !== 'a' || !current) return;
    const a = current.attrs;
    const url = (a.href ?? '').trim();
    const name = collapse(text);
    capture = null;
    text = '';
    current = null;
    if (!url) {
      lastBookmark = null;
      return;
    }
    let priv = flag(a.private);
    if (priv === null) {
      const pub = flag(a.public ?? a.published ?? a.pub);
      if (pub !== null) priv = !pub;
      else {
        const shared = flag(a.shared);
        if (shared !== null) priv = !shared;
      }
    }
    const vis = a.visibility !== undefined && /^[123]$/.test(a.visibility.trim()) ? Number(a.visibility.trim()) : null;
    const desc = a.description ?? a.note;
    const b: NetscapeBookmark = {
      url,
      title: name,
      description: desc !== undefined && desc.trim() ? desc.trim() : null,
      addDate: parseEpoch(a.add_date),
      lastModified: parseEpoch(a.last_modified),
      tags: splitTags(a.tags ?? a.tag ?? a.labels),
      folders: path(),
      private: priv,
      visibility: vis,
    };
    bookmarks.push(b);
    lastBookmark = b;
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'dd') {
          finishA();
          finishDd();
          if (lastBookmark) {
            capture = 'dd';
            text = '';
            ddTarget = lastBookmark;
          }
          lastBookmark = null;
          return;
        }
        if (name === 'p' || name === 'br') return;
        finishA();
        finishDd();
        if (name !== 'dt') lastBookmark = null;
        if (name === 'dt') {
          lastBookmark = null;
        } else if (name === 'title' && title === null) {
          capture = 'title';
          text = '';
        } else if (name === 'h3') {
          capture = 'h3';
          text = '';
        } else if (name === 'h1') {
          pendingFolder = null;
        } else if (name === 'dl') {
          stack.push(pendingFolder);
          if (pendingFolder !== null) {
            stackChanged();
            folders.push(path());
          }
          pendingFolder = null;
        } else if (name === 'a') {
          pendingFolder = null;
          capture = 'a';
          text = '';
          current = { attrs };
        }
      },
      ontext(data) {
        if (capture) text += data;
      },
      onclosetag(name) {
        if (name === 'a') finishA();
        else if (name === 'h3' && capture === 'h3') {
          pendingFolder = collapse(text) || '(untitled)';
          capture = null;
          text = '';
        } else if (name === 'title' && capture === 'title') {
          title = collapse(text);
          capture = null;
          text = '';
        } else if (name === 'dl') {
          finishDd();
          if (stack.length && stack.pop() !== null) stackChanged();
          pendingFolder = null;
          lastBookmark = null;
        } else if (name === 'dd') {
          finishDd();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  finishA();
  finishDd();
  return { title, bookmarks, folders };
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

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const NEEDS_ESCAPE = /[&<>"]/;

export function escapeHtml(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(/[&<>"]/g, (ch) => ESCAPES[ch]!) : text;
}

const epochCache = new Map<string, string | null>();

function epoch(iso: string | undefined): string | null {
  if (!iso) return null;
  let value = epochCache.get(iso);
  if (value === undefined) {
    const ms = Date.parse(iso);
    value = Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : null;
    if (epochCache.size > 10_000) epochCache.clear();
    epochCache.set(iso, value);
  }
  return value;
}

function anchor(link: ExportLink, indent: string): string {
  const attrs = [`HREF="${escapeHtml(link.url)}"`];
  const add = epoch(link.created_at);
  if (add) attrs.push(`ADD_DATE="${add}"`);
  const mod = epoch(link.updated_at);
  if (mod) attrs.push(`LAST_MODIFIED="${mod}"`);
  attrs.push(`PRIVATE="${link.visibility === 3 ? 1 : 0}"`);
  if (link.visibility === 1 || link.visibility === 2 || link.visibility === 3) attrs.push(`VISIBILITY="${link.visibility}"`);
  const tags = link.tags.map((t) => t.replace(/,/g, ' ').trim()).filter(Boolean);
  if (tags.length) attrs.push(`TAGS="${escapeHtml(tags.join(','))}"`);
  let out = `${indent}<DT><A ${attrs.join(' ')}>${escapeHtml(oneLine(link.title || link.url))}</A>\n`;
  const desc = link.description?.trim();
  if (desc) out += `${indent}<DD>${escapeHtml(desc)}\n`;
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function serializeNetscape(links: readonly ExportLink[], options: { title?: string } = {}): string {
  const title = escapeHtml(options.title ?? 'Bookmarks');
  const parts: string[] = [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n' +
      '<!-- This is an automatically generated file.\n     It will be read and overwritten.\n     DO NOT EDIT! -->\n' +
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n' +
      `<TITLE>${title}</TITLE>\n<H1>${title}</H1>\n<DL><p>\n`,
  ];
  const byList = new Map<string, ExportLink[]>();
  for (const link of links) {
    if (link.lists.length === 0) parts.push(anchor(link, '    '));
    for (const list of link.lists) {
      const bucket = byList.get(list) ?? [];
      bucket.push(link);
      byList.set(list, bucket);
    }
  }
  for (const name of [...byList.keys()].sort((a, b) => a.localeCompare(b))) {
    parts.push(`    <DT><H3>${escapeHtml(oneLine(name))}</H3>\n    <DL><p>\n`);
    for (const link of byList.get(name)!) parts.push(anchor(link, '        '));
    parts.push('    </DL><p>\n');
  }
  parts.push('</DL><p>\n');
  return parts.join('');
}
