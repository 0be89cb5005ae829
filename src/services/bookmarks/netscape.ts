/**
 * Netscape bookmark files (the HTML every browser imports and exports): a pure parser (htmlparser2 SAX,
 * folders become tags, TAGS/ADD_DATE/PRIVATE attributes, <DD> descriptions, any encoding) and a serializer.
 */
import { Parser } from 'htmlparser2';
import { decodeHtml } from './metadata.js';

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

function addUnique(into: string[], tags: string[]): void {
  for (const t of tags) if (!into.some((x) => x.toLowerCase() === t.toLowerCase())) into.push(t);
}

export function parseNetscape(input: string | Uint8Array): NetscapeBookmark[] {
  const html = typeof input === 'string' ? input : decodeHtml(input);
  const out: (NetscapeBookmark & { attrDescription: boolean })[] = [];
  // one entry per open <DL>: the folder name that opened it (null for the root or a toolbar folder)
  const folders: (string | null)[] = [];
  let pendingFolder: string | null = null;
  let capture: 'folder' | 'title' | 'desc' | null = null;
  let text = '';
  let current: (NetscapeBookmark & { attrDescription: boolean }) | null = null;
  let last: (NetscapeBookmark & { attrDescription: boolean }) | null = null;
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

  const parser = new Parser(
    {
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
          case 'dl':
            folders.push(pendingFolder);
            pendingFolder = null;
            break;
          case 'a': {
            if (current) finishBookmark();
            const href = (attrs.href ?? '').trim();
            if (!href) break;
            const tags: string[] = [];
            for (const f of folders) if (f) addUnique(tags, [f]);
            const tagAttr = attrs.tags ?? attrs.tag ?? attrs.labels;
            if (tagAttr) addUnique(tags, splitTags(tagAttr));
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
              tags,
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
          folders.pop();
          pendingFolder = null;
        } else if (name === 'dd') endDescription();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (current) finishBookmark();
  endDescription();
  return out.map(({ attrDescription: _, ...b }) => b);
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
