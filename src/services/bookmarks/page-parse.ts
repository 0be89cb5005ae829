/**
 * Reading a fetched page (pure, no I/O): its bytes decoded to text (BOM, Content-Type charset, the
 * document's own meta, then UTF-8 or windows-1252) and its title, description and thumbnail.
 * Parsing goes through html-events.ts, linear in the page's length; `parseMetaYielding` parses in
 * slices so the server keeps answering while a big page is read (the fetcher caps its bytes).
 */
import { scanHtml, scanHtmlYielding, type HtmlHandler } from './html-events.js';

export interface PageMeta {
  title: string;
  description: string | null;
  thumbnail: string | null;
}

/** The title used when a page gives none: the URL's host, or the whole input when it has none. */
export function fallbackTitle(url: string): string {
  try {
    const u = new URL(url);
    if (u.hostname) return u.hostname;
  } catch {
    /* not a URL */
  }
  return url;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Collects what parseMeta needs from the events of one document. */
function metaReader(pageUrl: string): { handler: HtmlHandler; result(): PageMeta } {
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  let depthSvg = 0;
  const meta = new Map<string, string>();
  const handler: HtmlHandler = {
    onopentag(name, attrs) {
      if (name === 'svg') depthSvg++;
      if (name === 'title' && title === null && depthSvg === 0) {
        inTitle = true;
        titleText = '';
      } else if (name === 'meta') {
        const key = (attrs.name ?? attrs.property ?? attrs.itemprop ?? '').toLowerCase().trim();
        if (key && attrs.content !== undefined && !meta.has(key)) meta.set(key, attrs.content);
      }
    },
    ontext(text) {
      if (inTitle) titleText += text;
    },
    onclosetag(name) {
      if (name === 'svg' && depthSvg > 0) depthSvg--;
      if (name === 'title' && inTitle) {
        inTitle = false;
        title = collapse(titleText);
      }
    },
  };
  const result = (): PageMeta => {
    if (inTitle && title === null) title = collapse(titleText);
    const pick = (...keys: string[]): string | null => {
      for (const k of keys) {
        const v = meta.get(k);
        if (v !== undefined && collapse(v)) return collapse(v);
      }
      return null;
    };
    const finalTitle = (title as string | null) || pick('og:title', 'twitter:title') || fallbackTitle(pageUrl);
    const description = pick('description', 'og:description', 'twitter:description');
    let thumbnail = pick('og:image', 'og:image:url', 'twitter:image', 'twitter:image:src');
    if (thumbnail) {
      try {
        thumbnail = new URL(thumbnail, pageUrl).toString();
      } catch {
        thumbnail = null;
      }
    }
    return { title: finalTitle, description, thumbnail };
  };
  return { handler, result };
}

/** Reads title, description and thumbnail from an HTML document, at once. */
export function parseMeta(html: string, pageUrl: string): PageMeta {
  const r = metaReader(pageUrl);
  scanHtml(html, r.handler);
  return r.result();
}

/** parseMeta in slices, giving the event loop a turn between them (same result). */
export async function parseMetaYielding(html: string, pageUrl: string): Promise<PageMeta> {
  const r = metaReader(pageUrl);
  await scanHtmlYielding(html, r.handler);
  return r.result();
}

function charsetOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  for (const part of contentType.split(';').slice(1)) {
    const [k, v] = part.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v)
      return v
        .trim()
        .replace(/^["']|["']$/g, '')
        .toLowerCase();
  }
  return null;
}

/** The charset a document declares in its first bytes (`<meta charset>` or http-equiv Content-Type). */
export function sniffMetaCharset(head: Uint8Array): string | null {
  let found: string | null = null;
  scanHtml(Buffer.from(head.subarray(0, 4096)).toString('latin1'), {
    onopentag(name, attrs) {
      if (found || name !== 'meta') return;
      if (attrs.charset) found = attrs.charset.trim().toLowerCase();
      else if ((attrs['http-equiv'] ?? '').toLowerCase() === 'content-type') found = charsetOf(attrs.content);
    },
  });
  return found;
}

// windows-1252 differs from ISO-8859-1 in 0x80-0x9F (Node 20's TextDecoder treats both as latin1).
const CP1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const part = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...Array.from(part, (b) => (b >= 0x80 && b <= 0x9f ? CP1252[b - 0x80]! : b)));
  }
  return out;
}

const LATIN1_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252', 'iso-8859-1', 'iso8859-1', 'latin1', 'l1', 'us-ascii', 'ascii', 'cp819', 'ibm819', 'iso-ir-100']);

function decodeAs(label: string, bytes: Uint8Array): string {
  // As browsers do (WHATWG Encoding), latin1 labels mean windows-1252.
  if (LATIN1_LABELS.has(label)) return decodeWindows1252(bytes);
  return new TextDecoder(label).decode(bytes);
}

/** Decodes document bytes: BOM, then the Content-Type charset, then the document's meta, then UTF-8 (or windows-1252 if not UTF-8). */
export function decodeHtml(bytes: Uint8Array, contentType?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  for (const cs of [charsetOf(contentType), sniffMetaCharset(bytes)]) {
    if (!cs) continue;
    try {
      return decodeAs(cs, bytes);
    } catch {
      /* unknown label: try the next source */
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}
