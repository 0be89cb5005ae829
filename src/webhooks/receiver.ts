/**
 * The webhook receiver behind `ops hook serve`: a plain node:http server that verifies each
 * request's `x-signature` over the raw body in constant time, answers 400 to a missing or wrong
 * signature, de-duplicates by envelope id (durably, through an EventStore), answers 200 at once and
 * optionally forwards the event to a local URL, re-signed. It never crashes on input.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { parseEnvelope, type Envelope } from './envelope.js';
import type { EventStore } from './event-store.js';
import { sendSigned, type AttemptResult } from './send.js';
import { SIGNATURE_HEADER, describeProblem, verify, type SignatureProblem } from './signature.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface ForwardResult {
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** What the receiver reports for each accepted event (one NDJSON line in `ops hook serve`). */
export interface ReceivedRecord {
  id: string;
  type: string;
  timestamp: string;
  /** ISO time this receiver got the request. */
  receivedAt: string;
  verified: true;
  duplicate: boolean;
  data: Record<string, unknown>;
  forward?: ForwardResult;
}

export interface RejectedRecord {
  status: number;
  reason: string;
  signatureProblem?: SignatureProblem;
  receivedAt: string;
}

export interface ReceiverOptions {
  secret: string | Buffer;
  /** The path events are POSTed to (default `/`). */
  path?: string;
  /** Durable de-duplication and replay store; without one, ids are remembered in memory only. */
  store?: EventStore;
  /** Only these event types are reported and forwarded; others get 200 and are dropped. */
  events?: string[];
  forwardTo?: string;
  /** Secret for re-signing forwarded requests (defaults to `secret`). */
  forwardSecret?: string | Buffer;
  forwardTimeoutMs?: number;
  maxBodyBytes?: number;
  /** Accept `sha256=` prefixes and upper-case hex. */
  lenient?: boolean;
  onEvent?: (record: ReceivedRecord) => void;
  onRejected?: (record: RejectedRecord) => void;
  /** Events of a type filtered out by `events`. */
  onIgnored?: (info: { id: string; type: string }) => void;
  now?: () => number;
  dispatcher?: Dispatcher;
}

function normalizePath(p: string | undefined): string {
  if (!p) return '/';
  return p.startsWith('/') ? p : `/${p}`;
}

function sendJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  sendText(res, status, JSON.stringify(body), close);
}

function sendText(res: ServerResponse, status: number, text: string, close = false): void {
  if (res.headersSent || res.writableEnded) return;
  const headers = ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(text))];
  if (close) headers.push('connection', 'close');
  res.writeHead(status, headers);
  res.end(text);
}

export class Receiver {
  readonly server: Server;
  readonly path: string;
  private readonly maxBody: number;
  private readonly seen = new Set<string>();
  private readonly eventFilter: Set<string> | null;
  private readonly pending = new Set<Promise<void>>();
  private baseUrl = '';

  constructor(private readonly opts: ReceiverOptions) {
    this.path = normalizePath(opts.path);
    this.maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.eventFilter = opts.events && opts.events.length > 0 && !opts.events.includes('*') ? new Set(opts.events) : null;
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.requestTimeout = 30_000;
    this.server.headersTimeout = 15_000;
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  /** The URL events should be POSTed to, once listening. */
  get url(): string {
    return this.baseUrl + this.path;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        resolve();
      });
    });
    const addr = this.server.address() as AddressInfo;
    const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.baseUrl = `http://${h}:${addr.port}`;
    return this.url;
  }

  /** Stops accepting, waits for forwards in progress. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeIdleConnections();
    });
    await Promise.allSettled([...this.pending]);
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  private reject(res: ServerResponse, status: number, reason: string, problem?: SignatureProblem, close = false): void {
    sendJson(res, status, { error: reason }, close);
    this.opts.onRejected?.({
      status,
      reason,
      ...(problem ? { signatureProblem: problem } : {}),
      receivedAt: new Date(this.now()).toISOString(),
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    req.on('error', () => {});
    res.on('error', () => {});
    try {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
        sendJson(res, 200, { ok: true });
        return;
      }
      if (path !== this.path) {
        req.resume();
        this.reject(res, 404, `not found: events are received at ${this.path}`);
        return;
      }
      if (req.method !== 'POST') {
        req.resume();
        res.setHeader('allow', 'POST');
        this.reject(res, 405, 'method not allowed: POST an event envelope');
        return;
      }
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBody) {
        this.reject(res, 413, `body larger than ${this.maxBody} bytes`, undefined, true);
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let tooBig = false;
      req.on('data', (chunk: Buffer) => {
        if (tooBig) return;
        size += chunk.length;
        if (size > this.maxBody) {
          tooBig = true;
          chunks.length = 0;
          this.reject(res, 413, `body larger than ${this.maxBody} bytes`, undefined, true);
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (tooBig) return;
        try {
          this.accept(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
        } catch (err) {
          this.reject(res, 500, `internal error: ${(err as Error).message}`);
        }
      });
    } catch (err) {
      this.reject(res, 500, `internal error: ${(err as Error).message}`);
    }
  }

  private accept(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const receivedAtMs = this.now();
    const check = verify(this.opts.secret, body, req.headers[SIGNATURE_HEADER], { lenient: this.opts.lenient });
    if (!check.valid) {
      this.reject(res, 400, `invalid signature: ${describeProblem(check.reason!)}`, check.reason);
      return;
    }
    const parsed = parseEnvelope(body);
    if (!parsed.ok) {
      this.reject(res, 400, `invalid event: ${parsed.error}`);
      return;
    }
    const env = parsed.envelope;
    if (this.eventFilter && !this.eventFilter.has(env.type)) {
      sendJson(res, 200, { received: true, id: env.id, ignored: true });
      this.opts.onIgnored?.({ id: env.id, type: env.type });
      return;
    }
    if (this.opts.store) {
      // Written to the store before the answer, together with the other requests of this turn of
      // the event loop (one write for all of them).
      this.queue.push({ event: env, body, receivedAt: receivedAtMs, res });
      if (this.queue.length === 1) setImmediate(() => this.flushQueue());
      return;
    }
    const duplicate = this.seen.has(env.id);
    this.seen.add(env.id);
    this.answer(res, env, body, receivedAtMs, duplicate);
  }

  private queue: { event: Envelope; body: Buffer; receivedAt: number; res: ServerResponse }[] = [];

  private flushQueue(): void {
    const batch = this.queue;
    this.queue = [];
    let results: { duplicate: boolean }[];
    try {
      results = this.opts.store!.recordMany(batch);
    } catch (err) {
      for (const b of batch) this.reject(b.res, 500, `could not store the event: ${(err as Error).message}`);
      return;
    }
    batch.forEach((b, i) => this.answer(b.res, b.event, b.body, b.receivedAt, results[i]!.duplicate));
  }

  private answer(res: ServerResponse, env: Envelope, body: Buffer, receivedAtMs: number, duplicate: boolean): void {
    // the hot path: the answer is built by hand (same JSON as JSON.stringify would give)
    sendText(res, 200, `{"received":true,"id":${JSON.stringify(env.id)},"duplicate":${duplicate}}`);
    const record: ReceivedRecord = {
      id: env.id,
      type: env.type,
      timestamp: env.timestamp,
      receivedAt: new Date(receivedAtMs).toISOString(),
      verified: true,
      duplicate,
      data: env.data,
    };
    if (this.opts.forwardTo && !duplicate) {
      const p = this.forward(body, env.id, env.type).then((forward) => {
        record.forward = forward;
        this.opts.onEvent?.(record);
      });
      const tracked = p.finally(() => this.pending.delete(tracked));
      this.pending.add(tracked);
    } else {
      this.opts.onEvent?.(record);
    }
  }

  private async forward(body: Buffer, id: string, type: string): Promise<ForwardResult> {
    const url = this.opts.forwardTo!;
    const r: AttemptResult = await sendSigned({
      url,
      body,
      secret: this.opts.forwardSecret ?? this.opts.secret,
      timeoutMs: this.opts.forwardTimeoutMs,
      headers: { 'x-ops-event-id': id, 'x-ops-event-type': type, 'x-ops-forwarded': 'ops hook serve' },
      dispatcher: this.opts.dispatcher,
    });
    return { url, statusCode: r.statusCode, error: r.error, durationMs: r.durationMs };
  }
}
