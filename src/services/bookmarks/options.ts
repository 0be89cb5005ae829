/** The service's settings, read from `ops serve` options (and API_RATE_LIMIT). */
import type { ServeOptions } from '../types.js';
import { DEFAULT_RATE_LIMIT, DEFAULT_V2_RATE_LIMIT, parseRateLimit, type RateLimit } from './rate-limit.js';

export interface BookmarkSettings {
  guestAccess: boolean;
  /** v1's limit per token */
  rateLimit: RateLimit;
  /** v2's limit per token (the same as v1's when set; otherwise a default that never stalls a local script) */
  v2RateLimit: RateLimit;
  /** the rate-limit setting was given but malformed */
  rateLimitInvalid: string | null;
  fetchMetadata: boolean;
  metadataTimeoutMs: number;
  linkCheck: boolean;
  linkCheckIntervalMs: number;
  linkCheckBatch: number;
  linkCheckTimeoutMs: number;
}

function num(v: unknown, def: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : def;
}

function bool(v: unknown, def: boolean): boolean {
  if (v === undefined || v === null) return def;
  if (typeof v === 'string') return !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
  return Boolean(v);
}

export function readSettings(o: ServeOptions, env: NodeJS.ProcessEnv = process.env): BookmarkSettings {
  const raw = o.apiRateLimit ?? env.API_RATE_LIMIT;
  const parsed = parseRateLimit(raw as string | undefined);
  return {
    guestAccess: bool(o.guestAccess, false),
    rateLimit: parsed ?? DEFAULT_RATE_LIMIT,
    v2RateLimit: parsed ?? DEFAULT_V2_RATE_LIMIT,
    rateLimitInvalid: raw !== undefined && raw !== '' && !parsed ? String(raw) : null,
    fetchMetadata: bool(o.fetchMetadata, true),
    metadataTimeoutMs: num(o.metadataTimeout, 10_000),
    linkCheck: bool(o.linkCheck, true),
    linkCheckIntervalMs: num(o.linkCheckInterval, 3600) * 1000,
    linkCheckBatch: Math.max(1, Math.floor(num(o.linkCheckBatch, 100))),
    linkCheckTimeoutMs: num(o.linkCheckTimeout, 10_000),
  };
}
