/** Bearer-token authentication and per-token rate limiting for /api/v1 and /api/v2. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from './store/db.js';
import { findToken } from './store/users.js';
import { q } from './store/db.js';
import type { Caller } from './access.js';
import { HttpError, unauthenticated } from './errors.js';
import type { RateLimiter } from './rate-limit.js';
import { isoMicro } from './time.js';

/** Resolves the caller of a request: a user token, a system token, a guest (if allowed), or 401. */
export function authenticate(db: DB, authorization: string | undefined, guestAccess: boolean, ip: string): Caller {
  if (!authorization || !authorization.trim()) {
    if (guestAccess) return { kind: 'guest', key: `guest:${ip}` };
    throw unauthenticated();
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw unauthenticated();
  const row = findToken(db, m[1]!);
  if (!row) throw unauthenticated();
  if (row.system) return { kind: 'system', privateAccess: row.private_access === 1, tokenId: row.id };
  if (row.user_id === null) throw unauthenticated();
  return { kind: 'user', userId: row.user_id, tokenId: row.id };
}

export function makeAuthHook(db: DB, limiter: RateLimiter, guestAccess: () => boolean) {
  const lastUse = new Map<number, number>();
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.routeOptions.url;
    if (!url || url === '/api/version' || url === '/openapi.json' || url === '/api/*') return;
    const caller = authenticate(db, req.headers.authorization, guestAccess(), req.ip);
    req.bmCaller = caller;
    const key = caller.kind === 'guest' ? caller.key : `token:${caller.tokenId}`;
    const d = limiter.hit(key);
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
