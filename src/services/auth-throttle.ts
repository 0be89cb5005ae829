/**
 * Throttling of failed authentications, shared by the services of `ops serve`: wrong tokens and keys
 * are limited per client address, and per token prefix where the service's credentials have one (the
 * token id of `<id>|<secret>` bookmark tokens, the shown `ntf_xxxx` start of notification keys), so
 * that neither one address nor many guessing at one token can try credentials quickly.
 *
 * Rules:
 *  - Each client address (and each prefix) has a budget of `failuresPerMinute` wrong credentials,
 *    refilled evenly over a minute (a token bucket of that size). A request that presents a credential
 *    that is not valid spends one; a missing credential spends nothing (it guesses nothing).
 *  - While an address's (or a prefix's) budget is spent, a request presenting a credential is answered
 *    429 with `Retry-After` (whole seconds until the budget has room again) *without the credential
 *    being checked*, so guesses learn nothing, right or wrong...
 *  - ...except a credential that authenticated within the last GOOD_FOR_MS: it is checked and goes
 *    through as usual. A client that works correctly is never slowed by someone else's guessing from
 *    the same address (on a loopback server, every local program is 127.0.0.1).
 *  - State is in memory, bounded (MAX_TRACKED entries of each kind, the oldest dropped first).
 *  - Callers: check() before verifying, then failed() or succeeded() after.
 */
import { createHash } from 'node:crypto';

/** Wrong credentials per minute per address (and per prefix) before 429 (ServeOptions.authFailuresPerMinute). */
export const AUTH_FAILURES_PER_MINUTE = 30;
/** How long a credential that authenticated stays exempt from throttling. */
export const GOOD_FOR_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export interface AuthThrottleOptions {
  failuresPerMinute?: number;
  /** The part of a credential that names it (a token id), or undefined where credentials have none. */
  prefixOf?: (credential: string) => string | undefined;
  now?: () => number;
}

const digest = (credential: string) => createHash('sha256').update(credential).digest('base64url');

export class AuthThrottle {
  private readonly capacity: number;
  private readonly perMs: number;
  private readonly buckets = new Map<string, Bucket>();
  private readonly good = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: AuthThrottleOptions = {}) {
    const limit = options.failuresPerMinute;
    this.capacity = typeof limit === 'number' && Number.isFinite(limit) && limit >= 1 ? limit : AUTH_FAILURES_PER_MINUTE;
    this.perMs = this.capacity / 60_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Before a credential is checked: null to check it, or the seconds the client must wait (answer 429
   * with Retry-After and do not check it).
   */
  check(address: string, credential: string | undefined): number | null {
    if (credential === undefined) return null;
    const goodAt = this.good.get(digest(credential));
    if (goodAt !== undefined && this.now() - goodAt < GOOD_FOR_MS) return null;
    let wait = 0;
    for (const key of this.keys(address, credential)) wait = Math.max(wait, this.waitFor(key));
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : null;
  }

  /** A presented credential was wrong: spends one from the address's and the prefix's budgets. */
  failed(address: string, credential: string): void {
    for (const key of this.keys(address, credential)) {
      const b = this.refill(key);
      b.tokens = Math.max(0, b.tokens - 1);
    }
  }

  /** A credential authenticated: it is exempt from throttling for GOOD_FOR_MS. */
  succeeded(credential: string): void {
    const d = digest(credential);
    if (this.good.has(d)) this.good.delete(d);
    else if (this.good.size >= MAX_TRACKED) this.good.delete(this.good.keys().next().value!);
    this.good.set(d, this.now());
  }

  private keys(address: string, credential: string): string[] {
    const prefix = this.options.prefixOf?.(credential);
    return prefix === undefined ? [`a:${address}`] : [`a:${address}`, `p:${prefix}`];
  }

  private refill(key: string): Bucket {
    const now = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= MAX_TRACKED) this.buckets.delete(this.buckets.keys().next().value!);
      b = { tokens: this.capacity, at: now };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.capacity, b.tokens + (now - b.at) * this.perMs);
    b.at = now;
    return b;
  }

  /** Milliseconds until the budget of `key` has one failure to spend (0 when it has now). */
  private waitFor(key: string): number {
    const b = this.buckets.get(key);
    if (!b) return 0;
    const tokens = Math.min(this.capacity, b.tokens + (this.now() - b.at) * this.perMs);
    return tokens >= 1 ? 0 : (1 - tokens) / this.perMs;
  }
}
