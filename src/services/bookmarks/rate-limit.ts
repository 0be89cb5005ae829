/** Fixed-window request limits per key (a token), LinkAce's `throttle:N,M` (N requests per M minutes). */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** v1's default (the description: 60 per minute, LinkAce's `API_RATE_LIMIT=60,1`). */
export const DEFAULT_RATE_LIMIT: RateLimit = { limit: 60, windowMs: 60_000 };
/**
 * v2's default, which the description leaves open: high enough that no local script is ever throttled (a
 * tight loop on loopback does a few thousand requests a second), while the X-RateLimit-* headers stay.
 * `--rate-limit` / API_RATE_LIMIT set both APIs to LinkAce's numbers for fidelity runs.
 */
export const DEFAULT_V2_RATE_LIMIT: RateLimit = { limit: 1_000_000, windowMs: 60_000 };

/** Parses "N" (per minute) or "N,M" (per M minutes); null when malformed. */
export function parseRateLimit(value: string | number | undefined | null): RateLimit | null {
  if (value === undefined || value === null) return null;
  const s = String(value).trim();
  const m = /^(\d+)\s*(?:,\s*(\d+))?$/.exec(s);
  if (!m) return null;
  const limit = Number(m[1]);
  const minutes = m[2] === undefined ? 1 : Number(m[2]);
  if (limit < 1 || minutes < 1) return null;
  return { limit, windowMs: minutes * 60_000 };
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** unix seconds when the window resets */
  reset: number;
  /** seconds until the window resets */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(readonly rule: RateLimit) {}

  hit(key: string, now = Date.now()): RateDecision {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.rule.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    this.sweep(now);
    const allowed = w.count < this.rule.limit;
    if (allowed) w.count++;
    const resetMs = w.start + this.rule.windowMs;
    return {
      allowed,
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - w.count),
      reset: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < this.rule.windowMs) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now - w.start >= this.rule.windowMs) this.windows.delete(k);
  }
}
