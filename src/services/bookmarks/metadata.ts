/**
 * Page metadata for new links: fetch the page (undici; http/https only; timeout; size cap; through the
 * dispatcher of the server's outbound-fetch policy, services/net/fetch-policy.ts) and read
 * `<title>` and the description/og/twitter meta tags with htmlparser2.
 */
import { Parser } from 'htmlparser2';
import { request, type Dispatcher } from 'undici';
import { policyDispatcher } from '../net/fetch-policy.js';

export interface PageMeta {
  title: string;
  description: string | null;
  thumbnail: string | null;
}

export const USER_AGENT = 'ops-bookmarks/1 (LinkAce-compatible)';

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

/** Reads title, description and thumbnail from an HTML document (pure). */
export function parseMeta(html: string, pageUrl: string): PageMeta {
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  let depthSvg = 0;
  const meta = new Map<string, string>();
  const parser = new Parser(
    {
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
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
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
}

function charsetOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  for (const part of contentType.split(';').slice(1)) {
    const [k, v] = part.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v) return v.trim().replace(/^["']|["']$/g, '').toLowerCase();
  }
  return null;
}

/** The charset a document declares in its first bytes (`<meta charset>` or http-equiv Content-Type). */
export function sniffMetaCharset(head: Uint8Array): string | null {
  let found: string | null = null;
  const parser = new Parser({
    onopentag(name, attrs) {
      if (found || name !== 'meta') return;
      if (attrs.charset) found = attrs.charset.trim().toLowerCase();
      else if ((attrs['http-equiv'] ?? '').toLowerCase() === 'content-type') found = charsetOf(attrs.content);
    },
  });
  parser.write(Buffer.from(head.subarray(0, 4096)).toString('latin1'));
  parser.end();
  return found;
}

// windows-1252 differs from ISO-8859-1 in 0x80-0x9F (Node 20's TextDecoder treats both as latin1).
const CP1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
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

export interface FetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  dispatcher?: Dispatcher;
}

let sharedDispatcher: Dispatcher | undefined;
function defaultDispatcher(): Dispatcher {
  // without the server's dispatcher: link-local and metadata addresses are still refused
  sharedDispatcher ??= policyDispatcher('any', { connections: 16, maxRedirections: 5 });
  return sharedDispatcher;
}

/** Fetches a page and reads its metadata; null when it cannot be fetched (bad scheme, error, >= 400). */
export async function fetchMeta(url: string, opts: FetchOptions = {}): Promise<PageMeta | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  const signal = ac.signal;
  try {
    const res = await request(u, {
      method: 'GET',
      dispatcher: opts.dispatcher ?? defaultDispatcher(),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', 'user-agent': opts.userAgent ?? USER_AGENT },
    });
    if (res.statusCode >= 400) {
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      chunks.push(b);
      size += b.length;
      if (size >= maxBytes) {
        res.body.destroy();
        break;
      }
    }
    const ct = res.headers['content-type'];
    const contentType = Array.isArray(ct) ? ct[0] : ct;
    const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
    if (contentType && !/html|xml/i.test(contentType)) return { title: fallbackTitle(url), description: null, thumbnail: null };
    return parseMeta(decodeHtml(bytes, contentType), url);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
