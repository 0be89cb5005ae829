/**
 * The pipeline service of `ops serve`: a Feldera-compatible (v0.24-era) API under /v0 over the
 * incremental SQL engine. See docs/pipelines.md.
 */
import { queryLimitsOf } from './shared/query-limits.js';
import type { FastifyError, FastifyInstance } from 'fastify';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { effectiveFetchPolicy } from '../net/fetch-policy.js';
import type { ServeOptions, ServiceContext, ServiceModule } from '../types.js';
import { DEFAULT_CONNECTOR_MAX_BYTES, type ConnectorAccess } from './shared/connector-access.js';
import { ApiKeys } from './control/auth.js';
import { FelderaError, Errors } from './shared/errors.js';
import { bearerCredential } from '../kit/credentials.js';
import { LogBook } from './runner/logs.js';
import { PipelineManager, type ManagerOptions } from './control/manager.js';
import { CompilerPool } from './control/compiler-pool.js';
import { DEFAULT_INGRESS_BODY_LIMIT } from './shared/ingress-limits.js';
import { checkpointRoutes } from './control/routes/checkpoints.js';
import { clockRoutes } from './control/routes/clock.js';
import { completionRoutes } from './control/routes/completion.js';
import { connectorRoutes } from './control/routes/connectors.js';
import { eventRoutes } from './control/routes/events.js';
import { ingressRoutes, ioRoutes } from './control/routes/io.js';
import { metricsRoutes } from './control/routes/metrics.js';
import { miscRoutes } from './control/routes/misc.js';
import { pipelineRoutes } from './control/routes/pipelines.js';
import { PipelineStore } from './control/store.js';
import { AuthThrottle } from '../auth-throttle.js';
import { guardLog, StoreGuard, storeOpenOptions, watchWrites } from '../store-guard.js';
import { BODY_LIMITS, capOf, DEFAULT_CAPS } from '../limits.js';

/** Ceiling of the buffered-body parser (the API routes get BODY_LIMITS.pipelinesJson; ingress streams, limited by shared/ingress-limits.ts). */
export const BODY_LIMIT = 256 * 1024 * 1024;
export const DEFAULT_KEEPALIVE_MS = 3000;

/** What connectors may reach: the connector root (created 0700), the fetch policy and the source size cap. */
function connectorAccessOf(o: ServeOptions): ConnectorAccess {
  const root = resolve(o.connectorRoot ?? join(o.dataDir, 'files'));
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const max = Number(o.connectorMaxBytes);
  return {
    root,
    fetchPolicy: effectiveFetchPolicy(o.fetchPolicy, o.host),
    maxBytes: Number.isFinite(max) && max > 0 ? max : DEFAULT_CONNECTOR_MAX_BYTES,
  };
}

const service: ServiceModule = {
  name: 'pipelines',
  prefix: '/v0',
  async register(app: FastifyInstance, ctx) {
    const notes: string[] = [];
    const log = guardLog(ctx.log);
    const store = new PipelineStore(
      ctx.dataDir,
      storeOpenOptions(ctx.options.resetStores, 'pipelines', (m) => log('warn', m)),
    );
    // disk full -> 507, a damaged file -> read-only and 503 (store-guard.ts)
    const guard = new StoreGuard(store.file, 'pipelines', () => (store.db.open ? store.db : undefined), log);
    const logs = new LogBook();
    const keys = new ApiKeys(store, ctx.dataDir);
    const manager = new PipelineManager(store, logs, managerOptions(ctx));
    const authOn = ctx.options.pipelinesAuth === true;
    const localKey = authOn ? keys.localKey() : undefined;

    installBodies(app);
    if (authOn) installAuth(app, keys, ctx);
    installErrorAnswers(app, guard, ctx);

    // Watch streams and followed logs never finish on their own: end them before the server waits for
    // in-flight requests (ops serve closes fastify first, then calls close()).
    app.addHook('preClose', async () => {
      await manager.close();
      logs.endFollowers();
    });

    const forcedApi = ctx.options.pipelineApi === 'current' || ctx.options.pipelineApi === 'v0.24' ? ctx.options.pipelineApi : undefined;
    pipelineRoutes(app, manager, forcedApi);
    ioRoutes(app, manager, forcedApi);
    completionRoutes(app, manager);
    connectorRoutes(app, manager);
    metricsRoutes(app, manager);
    eventRoutes(app, manager);
    checkpointRoutes(app, manager);
    clockRoutes(app, manager);
    // Ingress bodies are not read into memory here: the route streams them to the pipeline's worker.
    // (Registered after the hooks and handlers above, which the scope inherits.)
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
      ingressRoutes(scope, manager, positiveNumber(ctx.options.pipelinesIngressBodyLimit) ?? DEFAULT_INGRESS_BODY_LIMIT);
    });
    miscRoutes(app, manager, logs, keys, forcedApi);

    return {
      health: () => ({ status: guard.status === 'ok' ? ('ok' as const) : ('degraded' as const), store: guard.status, pipelines: manager.list().length, auth: authOn }),
      localCredentials: () => (localKey ? { pipeApiKey: localKey } : {}),
      // the pipelines that were running when the server last stopped start again
      started: () => {
        notes.push(...manager.resumeStored());
      },
      notes: () => notes,
      close: async () => {
        await manager.close();
        store.close();
      },
    };
  },
};

/** The manager's options from the server's (test knobs among them). */
function managerOptions(ctx: ServiceContext): ManagerOptions {
  const keepAlive = Number(ctx.options.pipelinesKeepAliveMs ?? DEFAULT_KEEPALIVE_MS);
  return {
    connectorAccess: connectorAccessOf(ctx.options),
    // each pipeline's checkpoints and input log (docs/pipelines.md, "Durable pipelines")
    storageRoot: join(ctx.dataDir, 'storage'),
    maxPipelines: capOf(ctx.options.maxPipelines, DEFAULT_CAPS.pipelines),
    keepAliveMs: Number.isFinite(keepAlive) && keepAlive > 0 ? keepAlive : DEFAULT_KEEPALIVE_MS,
    compileDelayMs: typeof ctx.options.pipelinesCompileDelayMs === 'number' ? ctx.options.pipelinesCompileDelayMs : 0,
    defaultMemoryMb: typeof ctx.options.pipelinesMemoryMb === 'number' ? ctx.options.pipelinesMemoryMb : undefined,
    memoryBudgetMb: positiveNumber(ctx.options.pipelinesMemoryBudgetMb),
    // test knob: a small ingress budget, to see newer requests wait
    ingressBudgetBytes: positiveNumber(ctx.options.pipelinesIngressBudgetBytes),
    // test knob: every pipeline's worker fails on its first ingest
    workerFault: (['throw', 'exit', 'step', 'kill'] as const).find((f) => f === ctx.options.pipelinesWorkerFault) ?? null,
    compilerLimits: {
      timeoutMs: positiveNumber(ctx.options.pipelinesCompileTimeoutMs),
      memoryMb: positiveNumber(ctx.options.pipelinesCompileMemoryMb),
    },
    // test knob: one compiler for the servers of a test process
    compiler: ctx.options.pipelinesCompiler instanceof CompilerPool ? ctx.options.pipelinesCompiler : undefined,
    // test knobs: a small per-watcher buffer to exercise the overflow behaviour
    watchMaxChunks: typeof ctx.options.pipelinesWatchMaxChunks === 'number' ? ctx.options.pipelinesWatchMaxChunks : undefined,
    watchMaxBytes: positiveNumber(ctx.options.pipelinesWatchMaxBytes),
    outputCase: ctx.options.outputCase === 'lower' || ctx.options.outputCase === 'upper' ? ctx.options.outputCase : undefined,
    queryLimits: queryLimitsOf(ctx.options),
    // test knobs: fewer monitor events kept per pipeline, a quicker heartbeat
    eventsRetention: positiveNumber(ctx.options.pipelinesEventsRetention),
    eventsHeartbeatMs: positiveNumber(ctx.options.pipelinesEventsHeartbeatMs),
    location: () => {
      try {
        return new URL(ctx.baseUrl()).host;
      } catch {
        return `${ctx.options.host}:${ctx.options.port}`;
      }
    },
  };
}

/** Raw bodies for everything: each route decides how to read its body (ingress streams it: io.ts). */
function installBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
  // The API's JSON bodies (pipeline definitions, actions, keys) are small; only ingress takes BODY_LIMIT.
  app.addHook('onRoute', (r) => {
    if (!r.url.endsWith('/ingress/:table') && r.bodyLimit === undefined) r.bodyLimit = BODY_LIMITS.pipelinesJson;
  });
}

/** API keys checked on every request; wrong keys throttled per client address (auth-throttle.ts): 429 with Retry-After. */
function installAuth(app: FastifyInstance, keys: ApiKeys, ctx: ServiceContext): void {
  const throttle = new AuthThrottle({ failuresPerMinute: ctx.options.authFailuresPerMinute });
  app.addHook('onRequest', async (req) => {
    const credential = bearerCredential(req.headers.authorization);
    const wait = throttle.check(req.ip, credential);
    if (wait !== null) throw Errors.tooManyAuthFailures(wait);
    try {
      keys.check(req.headers.authorization);
    } catch (err) {
      if (credential !== undefined && err instanceof FelderaError && err.status === 401) throttle.failed(req.ip, credential);
      throw err;
    }
    if (credential !== undefined) throttle.succeeded(credential);
  });
}

/** Errors in Feldera's shape `{message, error_code, details}`: a FelderaError as it is, a store fault 507/503, unknown routes 404. */
function installErrorAnswers(app: FastifyInstance, guard: StoreGuard, ctx: ServiceContext): void {
  app.setErrorHandler((err: FastifyError | FelderaError, _req, reply) => {
    if (err instanceof FelderaError) {
      return reply.code(err.status).headers(err.headers).send(err.body());
    }
    const fault = guard.fault(err);
    if (fault) return reply.code(fault.status).send({ message: fault.message, error_code: fault.status === 507 ? 'InsufficientStorage' : 'StoreDamaged', details: { store: guard.file } });
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) ctx.log.error({ err }, 'pipelines: internal error');
    return reply.code(status).send({
      message: status >= 500 ? `Internal error: ${err.message}` : err.message,
      error_code: status >= 500 ? 'InternalError' : (err.code ?? 'InvalidRequest'),
      details: null,
    });
  });
  watchWrites(app, guard);
  app.setNotFoundHandler((req, reply) => {
    const e = Errors.notFound(req.method, req.url);
    return reply.code(e.status).send(e.body());
  });
}

function positiveNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

export default service;
