/** Bearer-token authentication and per-token rate limiting for /api/v1 and /api/v2. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from './store/db.js';
import { hashToken, type TokenRow } from './store/users.js';
import { q } from './store/db.js';
import type { Caller } from './access.js';
import { HttpError, unauthenticated } from './errors.js';
import type { RateLimiter } from './rate-limit.js';
import { isoMicro } from './time.js';
import { AuthThrottle } from '../auth-throttle.js';
import { bearerCredential } from '../kit/credentials.js';

/**
 * Token lookups, remembered until the database is changed by another connection (the admin CLI on the data
 * dir when it found no server) or the service's own admin actions say so (forgetTokens).
 */
class TokenCache {
  private readonly map = new Map<string, Caller | null>();
  private version = -1;

  clear(): void {
    this.map.clear();
  }

  lookup(db: DB, token: string): Caller | null {
    const dv = q(db, 'PRAGMA data_version').pluck().get() as number;
    if (dv !== this.version) {
      this.map.clear();
      this.version = dv;
    }
    const hash = hashToken(token);
    const hit = this.map.get(hash);
    if (hit !== undefined) return hit;
    const row = q(db, 'SELECT * FROM tokens WHERE hash = ?').get(hash) as TokenRow | undefined;
    let caller: Caller | null = null;
    if (row?.system) caller = { kind: 'system', privateAccess: row.private_access === 1, tokenId: row.id };
    else if (row && row.user_id !== null) caller = { kind: 'user', userId: row.user_id, tokenId: row.id };
    if (this.map.size > 10_000) this.map.clear();
    this.map.set(hash, caller);
    return caller;
  }
}

const caches = new WeakMap<DB, TokenCache>();

/** Drops the remembered token lookups of a database: called after tokens or users changed through it. */
export function forgetTokens(db: DB): void {
  caches.get(db)?.clear();
}

/** Resolves the caller of a request: a user token, a system token, a guest (if allowed), or 401. */
export function authenticate(db: DB, authorization: string | undefined, guestAccess: boolean, ip: string): Caller {
  if (!authorization || !authorization.trim()) {
    if (guestAccess) return { kind: 'guest', key: `guest:${ip}` };
    throw unauthenticated();
  }
  const token = bearerCredential(authorization);
  if (token === undefined) throw unauthenticated();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new TokenCache()));
  const caller = cache.lookup(db, token);
  if (!caller) throw unauthenticated();
  return caller;
}

/** The token id of a `<id>|<secret>` token: the prefix failed guesses are also counted by (auth-throttle.ts). */
export const tokenPrefix = (token: string): string | undefined => /^(\d{1,18})\|/.exec(token)?.[1];

/**
 * Authenticates every API request and counts it against its token's limit: v1's routes and the rest (v2)
 * apart. Wrong tokens are throttled per address and token id (auth-throttle.ts): 429 with Retry-After.
 */
export function makeAuthHook(db: DB, limiters: { v1: RateLimiter; v2: RateLimiter }, guestAccess: () => boolean, throttle = new AuthThrottle({ prefixOf: tokenPrefix })) {
  const lastUse = new Map<number, number>();
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.routeOptions.url;
    if (!url || url === '/api/version' || url === '/openapi.json' || url === '/api/*') return;
    const credential = bearerCredential(req.headers.authorization);
    const wait = throttle.check(req.ip, credential);
    if (wait !== null) throw new HttpError(429, { message: 'Too Many Attempts.' }, { 'Retry-After': String(wait) });
    let caller: Caller;
    try {
      caller = authenticate(db, req.headers.authorization, guestAccess(), req.ip);
    } catch (err) {
      if (credential !== undefined && err instanceof HttpError && err.statusCode === 401) throttle.failed(req.ip, credential);
      throw err;
    }
    if (credential !== undefined) throttle.succeeded(credential);
    req.bmCaller = caller;
    const key = caller.kind === 'guest' ? caller.key : `token:${caller.tokenId}`;
    const d = (url.startsWith('/api/v1/') ? limiters.v1 : limiters.v2).hit(key);
    reply.header('X-RateLimit-Limit', d.limit);
    reply.header('X-RateLimit-Remaining', d.remaining);
    reply.header('X-RateLimit-Reset', d.reset);
    if (!d.allowed) throw new HttpError(429, { message: 'Too Many Attempts.' }, { 'Retry-After': String(d.retryAfter) });
    if (caller.kind !== 'guest') {
      const now = Date.now();
      if (now - (lastUse.get(caller.tokenId) ?? 0) > 60_000) {
        lastUse.set(caller.tokenId, now);
        q(db, 'UPDATE tokens SET last_used_at = ? WHERE id = ?').run(isoMicro(), caller.tokenId);
      }
    }
  };
}
