/**
 * The bookmark service of `ops serve`: a LinkAce-compatible API (v2 and v1) over SQLite.
 * Owns /api/... and /openapi.json inside its own fastify context.
 */
import swagger from '@fastify/swagger';
import multipart from '@fastify/multipart';
import type { ServiceModule } from '../types.js';
import { UsageError } from '../../core/errors.js';
import { DB_FILE, openDb } from './store/db.js';
import { join } from 'node:path';
import { guardLog, StoreGuard, storeOpenOptions, watchWrites } from '../store-guard.js';
import { countUsers, createToken, insertUser, userEventData } from './store/users.js';
import { bookmarksAdmin } from './admin.js';
import type { DomainEvent } from '../events.js';
import { readSettings } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { LinkChecker } from './checker.js';
import { fetchMeta } from './metadata.js';
import { effectiveFetchPolicy, policyDispatcher } from '../net/fetch-policy.js';
import type { Deps } from './deps.js';
import { installParsers } from './body-parsers.js';
import { renderError } from './render-error.js';
import { fallbackRoute, trackRoutes } from './routes/fallback.js';
import { makeAuthHook, tokenPrefix } from './auth.js';
import { AuthThrottle } from '../auth-throttle.js';
import { registerRoutes } from './routes/index.js';
import { WriteBatcher } from './store/batch.js';
import { BODY_LIMITS } from '../limits.js';

export const API_VERSION = '2.0';

const service: ServiceModule = {
  name: 'bookmarks',
  prefix: '',
  async register(app, ctx) {
    const settings = readSettings(ctx.options);
    if (settings.rateLimitInvalid !== null)
      throw new UsageError(
        `invalid API rate limit "${settings.rateLimitInvalid}": give requests per minute ("60") or LinkAce's "N,M" (N requests per M minutes)`,
        'Set it with --rate-limit or the API_RATE_LIMIT environment variable.',
      );
    const log = guardLog(ctx.log);
    const db = openDb(
      ctx.dataDir,
      storeOpenOptions(ctx.options.resetStores, 'bookmarks', (m) => log('warn', m)),
    );
    // disk full -> 507, a damaged file -> read-only and 503 (store-guard.ts)
    const guard = new StoreGuard(join(ctx.dataDir, DB_FILE), 'bookmarks', () => (db.open ? db : undefined), log);

    // First start: an admin user and a token; the plaintext token exists only now.
    // Its user.created is published once the server listens (the notification service subscribed by then).
    let adminToken: string | undefined;
    let adminCreated: DomainEvent | undefined;
    if (countUsers(db) === 0) {
      const admin = insertUser(db, 'admin', 'admin@localhost');
      adminToken = createToken(db, { userId: admin.id, name: 'local' }).token;
      adminCreated = { type: 'user.created', data: userEventData(admin), userId: String(admin.id) };
    }

    // outbound requests follow the server's fetch policy, checked at connect time on every hop
    const fetchPolicy = effectiveFetchPolicy(ctx.options.fetchPolicy, ctx.options.host);
    const metadataDispatcher = policyDispatcher(fetchPolicy, { connections: 16, maxRedirections: 5 });
    const checkerDispatcher = policyDispatcher(fetchPolicy, { connections: 8, pipelining: 0 });
    const checker = new LinkChecker(db, {
      dispatcher: checkerDispatcher,
      intervalMs: settings.linkCheck ? settings.linkCheckIntervalMs : 0,
      batchSize: settings.linkCheckBatch,
      timeoutMs: settings.linkCheckTimeoutMs,
    });
    const batcher = new WriteBatcher(db);
    const deps: Deps = {
      db,
      events: ctx.events,
      guestAccess: settings.guestAccess,
      fetchMetadata: settings.fetchMetadata,
      metadata: (url) => fetchMeta(url, { timeoutMs: settings.metadataTimeoutMs, dispatcher: metadataDispatcher }),
      checker,
      write: (fn) => batcher.run(fn),
    };

    installParsers(app);
    app.setValidatorCompiler(() => () => true);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.setErrorHandler((err, req, reply) => {
      const fault = guard.fault(err);
      if (fault) return reply.code(fault.status).send({ message: fault.message, error: fault.code });
      return renderError(err as Parameters<typeof renderError>[0], req, reply);
    });
    watchWrites(app, guard);
    app.decorateRequest('bmCaller', null);
    await app.register(multipart, { limits: { fileSize: BODY_LIMITS.bookmarksImport, files: 1 } });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'ops bookmarks (LinkAce-compatible)', version: API_VERSION },
        components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearerAuth: [] }],
      },
    });
    const known = trackRoutes(app);
    const limiters = { v1: new RateLimiter(settings.rateLimit), v2: new RateLimiter(settings.v2RateLimit) };
    app.addHook(
      'onRequest',
      makeAuthHook(db, limiters, () => settings.guestAccess, new AuthThrottle({ prefixOf: tokenPrefix, failuresPerMinute: ctx.options.authFailuresPerMinute })),
    );

    app.get('/api/version', { schema: { tags: ['General'], summary: 'API version', security: [], response: { 200: { type: 'object', properties: { version: { type: 'string' } } } } } }, async () => ({
      version: API_VERSION,
    }));
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    registerRoutes(app, deps);
    fallbackRoute(app, known);

    let closed = false;

    return {
      health: () => ({ status: guard.status === 'ok' ? ('ok' as const) : ('degraded' as const), store: guard.status, linkCheck: settings.linkCheck, fetchMetadata: settings.fetchMetadata }),
      localCredentials: () => (adminToken ? { bmToken: adminToken } : {}),
      admin: bookmarksAdmin(db, (event) => ctx.events.emit(event)),
      started() {
        if (adminCreated) ctx.events.emit(adminCreated);
        adminCreated = undefined;
        checker.start();
      },
      async close() {
        if (closed) return;
        closed = true;
        await checker.stop();
        await Promise.all([metadataDispatcher.destroy(), checkerDispatcher.destroy()]).catch(() => {});
        db.close();
      },
    };
  },
};

export default service;
