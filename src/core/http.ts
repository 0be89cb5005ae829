/**
 * HTTP for the service clients (undici): a base URL and auth header per service, timeouts, proxies from
 * HTTP_PROXY/HTTPS_PROXY/NO_PROXY, service error bodies turned into one clear message, and 429 honoured
 * (Retry-After) for idempotent requests only.
 */
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { Readable } from 'node:stream';
import { ApiError, AuthError, NetworkError, TimeoutError } from './errors.js';
import { sanitize } from './sanitize.js';
import { parseJsonExact } from './json-exact.js';

export type Query = Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>;

export interface RequestOptions {
  query?: Query;
  /**
   * JSON-serialised unless it is a string, a Buffer/Uint8Array or a Readable stream: those are sent as they are
   * with the given content type (a stream as it is read, chunked; a request with a stream body is never retried).
   */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Override the idempotency inferred from the method (GET/HEAD/PUT/DELETE/OPTIONS are idempotent). */
  idempotent?: boolean;
  /** Milliseconds until the response headers must arrive; 0 disables. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Read a JSON answer's numbers with every digit (core/json-exact.ts): for rows of data, not for fields computed with. */
  exactNumbers?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
}

export interface HttpClientOptions {
  baseUrl: string;
  /** Value of the Authorization header, e.g. `Bearer abc`. */
  authorization?: string;
  /** Which service, for messages: "bookmark service". */
  serviceName: string;
  /** How to log in, for 401 hints: "ops auth login bm". */
  loginHint?: string;
  timeoutMs?: number;
  /** Told before each 429 wait (stderr message). */
  onRateLimit?: (waitSeconds: number, attempt: number) => void;
  /** Waits out a 429 before the retry (default: a plain timer); the CLI shows a countdown here. */
  waitOutRateLimit?: (waitSeconds: number, attempt: number) => Promise<void>;
  /** Max 429 retries for idempotent requests. */
  maxRateLimitRetries?: number;
  userAgent?: string;
  env?: NodeJS.ProcessEnv;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const dispatchers = new Map<string, Promise<Dispatcher>>();

/** undici's parts for a request (core/undici-parts.ts), loaded with the first request: a command that sends none never loads them. */
const undici = () => import('./undici-parts.js');

/** One dispatcher per proxy setting: direct, or through HTTP_PROXY/HTTPS_PROXY minus NO_PROXY. */
function dispatcherFor(env: NodeJS.ProcessEnv): Promise<Dispatcher> {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || undefined;
  const noProxy = env.no_proxy || env.NO_PROXY || undefined;
  const key = JSON.stringify([httpProxy, httpsProxy, noProxy]);
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    dispatcher =
      httpProxy || httpsProxy
        ? proxyAgent({ httpProxy, httpsProxy, noProxy, proxyTunnel: false })
        : undici().then(({ Agent }) => new Agent({ keepAliveTimeout: 4_000, maxHeaderSize: nodeMaxHeaderSize() }));
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/**
 * The most header bytes a response may have: node's own limit (`http.maxHeaderSize`), which undici takes by
 * default. Asking node:http for it loads node:http and its agent, client and server (~3 ms of every command), so
 * the value is given when it is node's default: 16 KiB unless node was started with `--max-http-header-size`
 * (then undici reads it from node:http, as without this).
 */
export function nodeMaxHeaderSize(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number | undefined {
  const flag = '--max-http-header-size';
  return execArgv.some((a) => a.startsWith(flag)) || nodeOptions.includes(flag) ? undefined : 16 * 1024;
}

/** An EnvHttpProxyAgent: the whole of undici is loaded for it (see core/undici-parts.ts), only when a proxy is set. */
async function proxyAgent(options: ConstructorParameters<typeof EnvHttpProxyAgent>[0]): Promise<Dispatcher> {
  const { EnvHttpProxyAgent: ProxyAgent } = await import('undici');
  return new ProxyAgent(options);
}

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

export class HttpClient {
  constructor(readonly options: HttpClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A request whose body is parsed as JSON (or text when not JSON). Error statuses throw ApiError. */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse<T>> {
    const res = await this.send(method, path, opts);
    const text = await res.body.text();
    const data = parseBody(text, res.headers['content-type'], opts.exactNumbers ? parseJsonExact : JSON.parse);
    if (res.statusCode >= 400) throw this.errorFrom(res.statusCode, data, method, path);
    return { status: res.statusCode, headers: res.headers, data: data as T };
  }

  json<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>(method, path, opts).then((r) => r.data);
  }

  /** A streaming request: resolves once headers arrive (status checked), with the body as a stream. */
  async stream(method: string, path: string, opts: RequestOptions = {}): Promise<{ status: number; headers: HttpResponse['headers']; body: Readable }> {
    const res = await this.send(method, path, { timeoutMs: opts.timeoutMs ?? this.options.timeoutMs, ...opts }, 0);
    if (res.statusCode >= 400) {
      const text = await res.body.text();
      throw this.errorFrom(res.statusCode, parseBody(text, res.headers['content-type']), method, path);
    }
    return { status: res.statusCode, headers: res.headers, body: res.body };
  }

  private async send(method: string, path: string, opts: RequestOptions, bodyTimeout?: number): Promise<Dispatcher.ResponseData> {
    const url = buildUrl(this.options.baseUrl, path, opts.query);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.options.userAgent ?? 'ops-cli', ...opts.headers };
    if (this.options.authorization) headers.authorization = this.options.authorization;
    let body: string | Uint8Array | Readable | undefined;
    if (opts.body !== undefined) {
      if (typeof opts.body === 'string' || opts.body instanceof Uint8Array || isReadable(opts.body)) {
        body = opts.body;
        headers['content-type'] = opts.contentType ?? 'application/octet-stream';
      } else {
        body = JSON.stringify(opts.body);
        headers['content-type'] = opts.contentType ?? 'application/json';
      }
    }
    // a stream is read once: it cannot be sent again after a 429
    const idempotent = (opts.idempotent ?? IDEMPOTENT.has(method.toUpperCase())) && !isReadable(body);
    const maxRetries = this.options.maxRateLimitRetries ?? 3;
    const timeout = opts.timeoutMs ?? this.options.timeoutMs ?? 30_000;
    for (let attempt = 1; ; attempt++) {
      let res: Dispatcher.ResponseData;
      try {
        const { requestWith } = await undici();
        res = await requestWith(await dispatcherFor(this.options.env ?? process.env), url, {
          method: method.toUpperCase() as Dispatcher.HttpMethod,
          headers,
          body,
          headersTimeout: timeout,
          bodyTimeout: bodyTimeout ?? timeout,
          signal: opts.signal,
        });
      } catch (err) {
        throw this.networkError(err, url);
      }
      if (res.statusCode === 429 && idempotent && attempt <= maxRetries) {
        const wait = retryAfterSeconds(res.headers, attempt);
        await res.body.dump();
        this.options.onRateLimit?.(wait, attempt);
        if (this.options.waitOutRateLimit) await this.options.waitOutRateLimit(wait, attempt);
        else await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      return res;
    }
  }

  private networkError(err: unknown, url: string): Error {
    const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    if (e.name === 'AbortError') return err as Error;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new TimeoutError(`the ${this.options.serviceName} at ${originOf(url)} did not answer in time`, 'Raise --timeout, or check the service.');
    }
    if (code === 'ECONNREFUSED') {
      return new NetworkError(
        `cannot reach the ${this.options.serviceName} at ${originOf(url)} (connection refused)`,
        'Is it running? `ops serve` starts a local one; `ops config list` shows the URL in use.',
        code,
      );
    }
    return new NetworkError(`cannot reach the ${this.options.serviceName} at ${originOf(url)}: ${code ?? e.message ?? String(err)}`, undefined, code);
  }

  errorFrom(status: number, data: unknown, method: string, path: string): ApiError {
    const described = describeErrorBody(data);
    let message = described.message || `${method.toUpperCase()} ${path} failed with HTTP ${status}`;
    if (status === 401) {
      const hint = this.options.loginHint ? ` Run \`${this.options.loginHint}\`.` : '';
      message = `not authenticated with the ${this.options.serviceName}: ${(described.message || 'HTTP 401').replace(/\.+$/, '')}.${hint}`;
    } else if (status === 403 && !described.message) {
      // LinkAce answers `[]` on links/{id}/notes, lists/{id}/links and tags/{id}/links.
      message = `not allowed: ${method.toUpperCase()} ${path} (HTTP 403)`;
    } else if (status === 429) {
      message = `rate limited by the ${this.options.serviceName}${described.retryAfter ? `; retry after ${described.retryAfter}s` : ''}`;
    }
    let entries = Object.entries(described.fields).map(([field, msgs]) => [field, msgs.join(' ')] as const);
    // a Laravel message with one error is that field's own text: say it once, with the field's name
    if (entries.length === 1 && message === entries[0]![1]) {
      message = `${entries[0]![0]}: ${message}`;
      entries = [];
    }
    // field lines the message does not already say (the notification service's message lists them)
    const fields = entries
      .map(([field, text]) => `${field}: ${text}`)
      .filter((line) => !message.includes(line))
      .map((line) => `\n  ${line}`)
      .join('');
    const err = new ApiError(sanitize(message) + sanitize(fields, { keepNewlines: true }), status, data, described.fields, described.code);
    return err;
  }
}

/** A Node readable stream (told by its shape: node:stream is not loaded for this). */
function isReadable(value: unknown): value is Readable {
  return value !== null && typeof value === 'object' && typeof (value as Readable).pipe === 'function' && typeof (value as Readable).read === 'function';
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function parseBody(text: string, contentType: string | string[] | undefined, parse: (text: string) => unknown = JSON.parse): unknown {
  if (text === '') return undefined;
  const type = String(contentType ?? '');
  if (type.includes('json') || /^[[{"]/.test(text.trimStart())) {
    try {
      return parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>, attempt: number): number {
  const raw = headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 120);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.min(Math.max(0, Math.ceil((date - Date.now()) / 1000)), 120);
  }
  return Math.min(2 ** attempt, 30);
}

/** One readable message from the error bodies of the three services (LinkAce, Feldera, ours). */
export function describeErrorBody(data: unknown): { message: string; fields: Record<string, string[]>; code?: string; retryAfter?: number } {
  if (typeof data === 'string') return { message: data.trim().slice(0, 500), fields: {} };
  if (!data || typeof data !== 'object') return { message: '', fields: {} };
  const body = data as Record<string, unknown>;
  const message = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  const fields: Record<string, string[]> = {};
  if (body.errors && typeof body.errors === 'object' && !Array.isArray(body.errors)) {
    for (const [field, msgs] of Object.entries(body.errors as Record<string, unknown>)) {
      fields[field] = Array.isArray(msgs) ? msgs.map(String) : [String(msgs)];
    }
  }
  const code = typeof body.error_code === 'string' ? body.error_code : undefined;
  return { message: code && message ? `${message} (${code})` : readableLaravel(message), fields, code };
}

const LARAVEL_MODELS: Record<string, string> = { Link: 'link', ApiLink: 'link', LinkList: 'list', Tag: 'tag', Note: 'note', User: 'user', ApiToken: 'token' };

/** Laravel's `No query results for model [App\Models\Link] 99999` (LinkAce's 404) in words: `link 99999 not found`. */
export function readableLaravel(message: string): string {
  const m = /^No query results for model \[App\\Models\\(?:\w+\\)*(\w+)\](?: ([\w, -]+))?\.?$/.exec(message);
  if (!m) return message;
  const what = LARAVEL_MODELS[m[1]!] ?? m[1]!.toLowerCase();
  return m[2] ? `${what} ${m[2]} not found` : `${what} not found`;
}

/** Wrap an auth-less 401 in the auth exit code even when thrown outside request(). */
export function isAuthFailure(err: unknown): boolean {
  return err instanceof AuthError || (err instanceof ApiError && (err.status === 401 || err.status === 403));
}
