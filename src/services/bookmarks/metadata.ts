/**
 * Page metadata for new links: fetch the page (undici; http/https only; timeout; size cap; through the
 * dispatcher of the server's outbound-fetch policy, services/net/fetch-policy.ts) and read
 * `<title>` and the description/og/twitter meta tags (parsing: page-parse.ts, in slices).
 */
import { request, type Dispatcher } from 'undici';
import { policyDispatcher } from '../net/fetch-policy.js';
import { decodeHtml, parseMetaYielding } from './page-parse.js';

export { decodeHtml, decodeWindows1252, fallbackTitle, parseMeta, sniffMetaCharset, type PageMeta } from './page-parse.js';
import { fallbackTitle, type PageMeta } from './page-parse.js';

export const USER_AGENT = 'ops-bookmarks/1 (LinkAce-compatible)';

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
    // parsed in slices, so that a page built to be slow to parse cannot hold the server
    return await parseMetaYielding(decodeHtml(bytes, contentType), url);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
