/**
 * The notification service of `ops serve` (prefix /notify): webhook registrations, events from
 * the bookmark service and a trigger endpoint, a durable outbox with retries, a dashboard.
 * See docs/notifications.md.
 */
import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { hashApiKey, maskApiKey } from './store/index.js';
import { AuthThrottle } from '../auth-throttle.js';
import { capOf, DEFAULT_CAPS } from '../limits.js';
import { DB_FILE } from './store/db.js';
import { guardLog, StoreGuard, storeOpenOptions, watchWrites } from '../store-guard.js';
import type { ServiceHandle, ServiceModule } from '../types.js';
import { retryScaleProblem } from '../../webhooks/schedule.js';
import { registerDashboard } from './dashboard.js';
import { installParsers } from './body-parsers.js';
import { installErrorHandler, sendError } from './errors.js';
import { registerApi } from './routes.js';
import { Notifier } from './service.js';
import { effectiveFetchPolicy } from '../net/fetch-policy.js';
import { notificationsAdmin } from './admin.js';

const service: ServiceModule = {
  name: 'notifications',
  prefix: '/notify',
  async register(app, ctx): Promise<ServiceHandle> {
    let retryScale = ctx.options.retryScale ?? 1;
    const problem = retryScaleProblem(retryScale);
    if (problem) {
      ctx.log.warn(`notifications: ${problem}; using 1`);
      retryScale = 1;
    }
    const concurrency = Number(ctx.options.notifyConcurrency ?? 16);
    const log = guardLog(ctx.log);
    // disk full -> 507, a damaged file -> read-only and 503 (store-guard.ts)
    const guard = new StoreGuard(join(ctx.dataDir, DB_FILE), 'notifications', () => (notifier.store.db.open ? notifier.store.db : undefined), log);
    const notifier = new Notifier({
      storeOptions: storeOpenOptions(ctx.options.resetStores, 'notifications', (m) => log('warn', m)),
      dataDir: ctx.dataDir,
      retryScale,
      concurrencyPerReceiver: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 16,
      fetchPolicy: effectiveFetchPolicy(ctx.options.fetchPolicy, ctx.options.host),
      onError: (err) => {
        // a store fault is logged once by the guard, not on every turn of the worker
        if (!guard.fault(err)) ctx.log.error({ err }, 'notifications: delivery worker error');
      },
    });
    const { store } = notifier;

    // The API key: created on first start, stored hashed; the plaintext goes to the host once.
    // More keys: `ops serve key create|list|revoke` (checked against the database on every request,
    // so a revoked key stops working at once, even while the server runs).
    let createdKey: string | undefined;
    if (!store.hasApiKey()) createdKey = store.createApiKey(notifier.clock.now(), 'local').key;
    // A key of the user's choosing is accepted too (OPS_NOTIFY_API_KEY, which the CLI also reads: the
    // way back in when the generated key was lost). It is held in memory only, never stored: once the
    // variable is gone, the next start no longer accepts it.
    const chosenKey = typeof ctx.options.notifyApiKey === 'string' ? ctx.options.notifyApiKey : process.env.OPS_NOTIFY_API_KEY;
    const chosenHash = chosenKey ? Buffer.from(hashApiKey(chosenKey), 'hex') : null;
    const isValidKey = (key: string) => {
      if (chosenHash) {
        const h = Buffer.from(hashApiKey(key), 'hex');
        if (timingSafeEqual(h, chosenHash)) return true;
      }
      return store.useApiKey(key, notifier.clock.now()) !== null;
    };

    const unsubscribe = ctx.events.subscribe((ev) => {
      try {
        notifier.onDomainEvent(ev);
      } catch (err) {
        ctx.log.error({ err, type: ev.type }, 'notifications: could not queue an event');
      }
    });

    installParsers(app);
    installErrorHandler(app, (err) => guard.fault(err));
    watchWrites(app, guard);
    // wrong keys are throttled per client address and per key prefix (the shown `ntf_xxxx`), API and dashboard together
    const throttle = new AuthThrottle({ failuresPerMinute: ctx.options.authFailuresPerMinute, prefixOf: (k) => (k.startsWith('ntf_') ? maskApiKey(k) : undefined) });
    registerApi(app, notifier, isValidKey, throttle, capOf(ctx.options.maxWebhooks, DEFAULT_CAPS.webhooks));
    registerDashboard(app, notifier, isValidKey, throttle);
    app.setNotFoundHandler((req, reply) => sendError(reply, 404, 'not_found', `no route ${req.method} ${req.url.split('?')[0]} in the notification service`));

    let closed = false;
    return {
      health() {
        const counts = store.countsByStatus();
        return {
          status: notifier.worker.isRunning && guard.status === 'ok' ? 'ok' : 'degraded',
          store: guard.status,
          worker: notifier.worker.isRunning ? 'running' : 'stopped',
          deliveries: counts,
          retryScale,
        };
      },
      localCredentials: () => (createdKey ? { notifyApiKey: createdKey } : {}),
      admin: notificationsAdmin(store, () => notifier.clock.now()),
      started() {
        notifier.worker.start();
      },
      async close() {
        if (closed) return;
        closed = true;
        unsubscribe();
        await notifier.close();
      },
    };
  },
};

export default service;
