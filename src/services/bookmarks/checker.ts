/**
 * Link health: HEAD each link (GET where HEAD is refused), redirects not followed.
 * 2xx -> 1 ok, 3xx -> 2 moved, >= 400 or a network error/timeout -> 3 broken. Sets `last_checked_at`;
 * links with `check_disabled` are skipped. A background loop checks a batch every interval. Requests go
 * through the dispatcher of the server's outbound-fetch policy (services/net/fetch-policy.ts).
 */
import { request, type Dispatcher } from 'undici';
import { policyDispatcher } from '../net/fetch-policy.js';
import type { DB } from './store/db.js';
import { linksToCheck, updateLink, type LinkRow } from './store/links.js';
import { isoMicro } from './time.js';
import { USER_AGENT } from './metadata.js';
import { LINK_STATUSES } from './validate.js';

export const [OK, MOVED, BROKEN] = LINK_STATUSES;

/** Link status for an HTTP status code, or for a failed request (null). */
export function classify(statusCode: number | null): (typeof LINK_STATUSES)[number] {
  if (statusCode === null) return BROKEN;
  if (statusCode >= 400) return BROKEN;
  if (statusCode >= 300) return MOVED;
  if (statusCode >= 200) return OK;
  return BROKEN;
}

export function isCheckable(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface CheckerOptions {
  /** ms between background batches; 0 disables the loop */
  intervalMs: number;
  batchSize: number;
  timeoutMs: number;
  userAgent?: string;
  concurrency?: number;
  /** The dispatcher of the outbound-fetch policy (services/net/fetch-policy.ts). */
  dispatcher?: Dispatcher;
}

export interface CheckResult {
  id: number;
  url: string;
  status: number;
  last_checked_at: string;
}

async function probe(dispatcher: Dispatcher, url: string, method: 'HEAD' | 'GET', timeoutMs: number, ua: string): Promise<number> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const res = await request(url, {
      method,
      dispatcher,
      signal: ac.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: { 'user-agent': ua, accept: '*/*' },
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
    return res.statusCode;
  } finally {
    clearTimeout(timer);
  }
}

/** One HTTP check of a URL: the status code, or null on a network error or timeout. */
export async function checkUrl(url: string, opts: { timeoutMs: number; userAgent?: string; dispatcher?: Dispatcher }): Promise<number | null> {
  const dispatcher = opts.dispatcher ?? defaultAgent();
  const ua = opts.userAgent ?? USER_AGENT;
  try {
    const code = await probe(dispatcher, url, 'HEAD', opts.timeoutMs, ua);
    if (code === 405 || code === 501) return await probe(dispatcher, url, 'GET', opts.timeoutMs, ua);
    return code;
  } catch {
    return null;
  }
}

let agent: Dispatcher | undefined;
/** Without the server's dispatcher: link-local and metadata addresses are still refused. */
function defaultAgent(): Dispatcher {
  agent ??= policyDispatcher('any', { connections: 8, pipelining: 0 });
  return agent;
}

export class LinkChecker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly db: DB,
    readonly options: CheckerOptions,
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running)
        this.running = this.runBatch()
          .catch(() => [])
          .finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
  }

  /** Checks the next batch (never checked first, then the oldest check). */
  async runBatch(): Promise<CheckResult[]> {
    const rows = linksToCheck(this.db, this.options.batchSize);
    return this.check(rows);
  }

  /** Checks these links (skipping check_disabled and non-http ones) and stores the results. */
  async check(rows: LinkRow[]): Promise<CheckResult[]> {
    const todo = rows.filter((r) => r.check_disabled === 0 && isCheckable(r.url));
    const results: CheckResult[] = [];
    const concurrency = Math.max(1, this.options.concurrency ?? 8);
    let next = 0;
    const worker = async () => {
      while (next < todo.length && !this.stopped) {
        const row = todo[next++]!;
        const code = await checkUrl(row.url, { timeoutMs: this.options.timeoutMs, userAgent: this.options.userAgent, dispatcher: this.options.dispatcher });
        const status = classify(code);
        const now = isoMicro();
        try {
          updateLink(this.db, row.id, { status, last_checked_at: now }, false);
        } catch {
          continue; // the database is closing
        }
        results.push({ id: row.id, url: row.url, status, last_checked_at: now });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
    return results.sort((a, b) => a.id - b.id);
  }
}
