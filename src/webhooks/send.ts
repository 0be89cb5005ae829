/**
 * One signed POST of an envelope's exact bytes: used by the delivery worker, `ops hook replay`
 * and the receiver's forwarding. Success is a 2xx answered within the timeout (5 s by default);
 * redirects are not followed (a 3xx is a failure). Never throws: the outcome is an AttemptResult.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { DELIVERY_TIMEOUT_MS } from './schedule.js';
import { SIGNATURE_HEADER, sign } from './signature.js';

export interface AttemptResult {
  ok: boolean;
  /** HTTP status when the receiver answered in time, else null. */
  statusCode: number | null;
  /** What went wrong when there was no (timely) answer: timeout, connection refused, ... */
  error: string | null;
  durationMs: number;
  /** The first bytes of the response body (at most EXCERPT_BYTES), as text. */
  responseExcerpt: string;
}

export const EXCERPT_BYTES = 512;
export const USER_AGENT = 'ops-webhooks/0.1';

export interface SendOptions {
  url: string;
  body: Buffer;
  /** Signs the body into `x-signature`; omit to send an existing `signature` (or none). */
  secret?: string | Buffer;
  signature?: string;
  timeoutMs?: number;
  headers?: Record<string, string>;
  dispatcher?: Dispatcher;
  /** Aborts the attempt (e.g. on shutdown); the result then says `aborted`. */
  signal?: AbortSignal;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  const msg = e?.cause?.message ?? e?.message ?? String(err);
  if (code && !msg.includes(code)) return `${code}: ${msg}`;
  return msg;
}

/** Validates a receiver URL: http or https, parseable. Returns a problem or null. */
export function receiverUrlProblem(url: unknown): string | null {
  if (typeof url !== 'string' || url.trim() === '') return 'url must be a non-empty string';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `url is not a valid URL: ${url}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `url must use http or https, not ${u.protocol.replace(':', '')}`;
  if (u.username || u.password) return 'url must not contain credentials';
  return null;
}

export async function sendSigned(opts: SendOptions): Promise<AttemptResult> {
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const problem = receiverUrlProblem(opts.url);
  if (problem) return { ok: false, statusCode: null, error: problem, durationMs: 0, responseExcerpt: '' };

  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...opts.headers,
  };
  const signature = opts.secret !== undefined ? sign(opts.secret, opts.body) : opts.signature;
  if (signature !== undefined) headers[SIGNATURE_HEADER] = signature;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  if (opts.signal) {
    if (opts.signal.aborted) controller.abort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
  }
  try {
    // loaded here, not with the module: `ops hook` commands that never send do not pay for undici's index
    const { request } = await import('undici');
    const res = await request(opts.url, {
      method: 'POST',
      headers,
      body: opts.body,
      signal: controller.signal,
      dispatcher: opts.dispatcher,
      headersTimeout: timeoutMs + 1000,
      bodyTimeout: timeoutMs + 1000,
    });
    // Read a bounded excerpt of the answer, then drop the rest.
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const b = chunk as Buffer;
        if (size < EXCERPT_BYTES) chunks.push(b.subarray(0, EXCERPT_BYTES - size));
        size += b.length;
        if (size >= 64 * 1024) break;
      }
    } catch {
      // The status line came in time, so the status decides, even when the body breaks off or
      // is still dribbling in at the deadline; the excerpt is what arrived.
    }
    if (size >= 64 * 1024 || timedOut) res.body.destroy();
    const durationMs = elapsed();
    const statusCode = res.statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: null, durationMs, responseExcerpt: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    const durationMs = elapsed();
    if (timedOut) {
      return { ok: false, statusCode: null, error: `timeout: no answer within ${timeoutMs / 1000} s`, durationMs, responseExcerpt: '' };
    }
    if (opts.signal?.aborted) return { ok: false, statusCode: null, error: 'aborted', durationMs, responseExcerpt: '' };
    return { ok: false, statusCode: null, error: describeError(err), durationMs, responseExcerpt: '' };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
