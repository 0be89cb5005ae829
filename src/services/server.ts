/**
 * `ops serve`: one fastify server composing the three services, each in its own encapsulated context
 * under its prefix, plus a health endpoint that reports each service and the admin route of
 * `ops serve user|token|key` (its secret in <data-dir>/server.json while the server runs).
 *
 * One server per data dir: the data dir's lock (data-dir-lock.ts) is taken before any store in it is opened or
 * written, and released after every service closed, on close() and on a start that fails alike; a data dir in
 * use is refused with DataDirInUseError (its owner in server.json, server-file.ts).
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { LOG_REDACT_PATHS, REDACTED, redactUrl } from './redact.js';
import { join, resolve } from 'node:path';
import { capConnections, closePromptly, serverTimeoutOptions } from './connections.js';
import { capOf, DEFAULT_CAPS } from './limits.js';
import { privateDir, tightenDataDir } from './data-dir.js';
import { effectiveFetchPolicy } from './net/fetch-policy.js';
import { EventBus } from './events.js';
import { requestGuard } from './request-guard.js';
import { registerAdminRoute } from './admin-route.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { newAdminSecret, processStart, removeServerFile, writeServerFile, type ServerFile } from './server-file.js';
import type { LocalCredentials, ServeOptions, ServiceHandle, ServiceModule } from './types.js';

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  services: { module: ServiceModule; handle: ServiceHandle }[];
  /** Merged credentials the services hand out for the local profile. */
  credentials: LocalCredentials;
  /** What the services did at start that the user should hear of (ServiceHandle.notes), one line each. */
  notes: string[];
  close(): Promise<void>;
}

export async function loadServiceModules(): Promise<ServiceModule[]> {
  const mods = await Promise.all([import('./bookmarks/index.js'), import('./pipelines/index.js'), import('./notifications/index.js')]);
  return mods.map((m) => m.default);
}

/** The longest path segment the router accepts (fastify's default is 100). */
export const MAX_PARAM_LENGTH = 4096;

/**
 * Errors the router raises before any route runs (a path with bad %-encoding, a segment beyond
 * MAX_PARAM_LENGTH): in the pipeline API's error envelope under /v0, as fastify words them elsewhere.
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const path = req.raw.url ?? '';
  if (path === '/v0' || path.startsWith('/v0/') || path.startsWith('/v0?')) {
    void reply.code(status).send({ message: `Invalid URL: ${error.message}`, error_code: 'InvalidUrl', details: { url: path } });
    return;
  }
  void reply.code(status).send({ error: 'Bad Request', code: error.code, message: error.message, statusCode: status });
}

/** One line per answered request (`ops serve --log-requests`): method, path (secrets redacted), status, milliseconds. */
export function logRequests(app: FastifyInstance, write: (line: string) => void): void {
  app.addHook('onResponse', async (req, reply) => {
    write(`${new Date().toISOString()} ${req.method} ${redactUrl(req.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`);
  });
}

/** The JSON log (OPS_LOG_LEVEL): off without a level; request URLs and secret headers redacted (redact.ts). */
function jsonLogOptions(level: string | undefined, stream: ServeOptions['logStream']): FastifyServerOptions['logger'] {
  if (!level) return false;
  return {
    level,
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(stream ? { stream } : {}),
  };
}

export async function startServer(given: ServeOptions, modules?: ServiceModule[]): Promise<RunningServer> {
  // Defaults that depend on the bind address and the data dir, settled once for every service.
  const options: ServeOptions = {
    ...given,
    fetchPolicy: effectiveFetchPolicy(given.fetchPolicy, given.host),
    connectorRoot: resolve(given.connectorRoot ?? join(given.dataDir, 'files')),
  };
  privateDir(options.dataDir);
  // before anything in the data dir is opened: a data dir in use throws here, with nothing touched
  const lock = lockDataDir(options.dataDir);
  const own: ServerFile = { pid: process.pid, pid_start: processStart(process.pid), state: 'starting', started_at: new Date().toISOString() };
  const services: RunningServer['services'] = [];
  let app: FastifyInstance | undefined;
  try {
    writeServerFile(options.dataDir, own);
    if (!given.connectorRoot) privateDir(options.connectorRoot!);
    app = Fastify({
      logger: jsonLogOptions(process.env.OPS_LOG_LEVEL, options.logStream),
      forceCloseConnections: 'idle',
      bodyLimit: 64 * 1024 * 1024,
      // names in paths (pipelines, tables, views, quoted SQL identifiers) may be longer than fastify's
      // default of 100 characters, which would answer 414 in fastify's own error shape
      routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
      frameworkErrors,
      // slow and idle clients are bounded (connections.ts, docs/security.md)
      ...serverTimeoutOptions(options.connectionTimeouts),
    });
    return await compose(app, options, modules, services, lock, own);
  } catch (err) {
    // a start that fails leaves the data dir free: what opened is closed, then the file and the lock go
    await app?.close().catch(() => undefined);
    for (const { handle } of [...services].reverse()) await Promise.resolve(handle.close()).catch(() => undefined);
    removeServerFile(options.dataDir, own);
    lock.release();
    throw err;
  }
}

async function compose(
  app: FastifyInstance,
  options: ServeOptions,
  modules: ServiceModule[] | undefined,
  services: RunningServer['services'],
  lock: DataDirLock,
  own: ServerFile,
): Promise<RunningServer> {
  // no client can hold close() open; first among the preClose hooks (root before services)
  closePromptly(app, options.closeGraceMs);
  capConnections(app.server, capOf(options.maxConnections, DEFAULT_CAPS.connections));
  if (options.requestLog) logRequests(app, options.requestLog);
  // Cross-site protection for every service: Host and Origin checked before any route runs.
  let listeningPort = options.port;
  app.addHook('onRequest', requestGuard({ bindHost: options.host, port: () => listeningPort }));
  const events = new EventBus();
  let baseUrl = `http://${options.host}:${options.port}`;
  for (const mod of modules ?? (await loadServiceModules())) {
    const dir = join(options.dataDir, mod.name);
    privateDir(dir);
    await app.register(
      async (scope) => {
        const handle = await mod.register(scope, { dataDir: dir, options, log: app.log, events, baseUrl: () => baseUrl });
        services.push({ module: mod, handle });
      },
      { prefix: mod.prefix },
    );
  }

  app.get('/health', async (_req, reply) => {
    const report: Record<string, unknown> = {};
    let worst: 'ok' | 'degraded' | 'down' = 'ok';
    for (const { module, handle } of services) {
      let health;
      try {
        health = await handle.health();
      } catch (err) {
        health = { status: 'down' as const, error: (err as Error).message };
      }
      report[module.name] = health;
      if (health.status === 'down' || (health.status === 'degraded' && worst === 'ok')) worst = health.status === 'down' ? 'down' : 'degraded';
    }
    return reply.code(worst === 'down' ? 503 : 200).send({ status: worst, services: report });
  });

  const adminSecret = newAdminSecret();
  registerAdminRoute(app, adminSecret, (name) => services.find((s) => s.module.name === name)?.handle.admin);

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : options.port;
  listeningPort = port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  writeServerFile(options.dataDir, { ...own, url: baseUrl, secret: adminSecret });

  // databases, their -wal/-shm files and key files were created by now: all 0600 (an old install too)
  tightenDataDir(options.dataDir, [options.connectorRoot!]);

  const credentials: LocalCredentials = {};
  for (const { handle } of services) Object.assign(credentials, await handle.localCredentials?.());
  for (const { handle } of services) await handle.started?.();
  const notes = services.flatMap(({ handle }) => handle.notes?.() ?? []);
  writeServerFile(options.dataDir, { ...own, url: baseUrl, secret: adminSecret, state: 'running' });

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    app,
    services,
    credentials,
    notes,
    close() {
      closing ??= (async () => {
        writeServerFile(options.dataDir, { ...own, url: baseUrl, secret: adminSecret, state: 'stopping' });
        try {
          await app.close();
          for (const { handle } of [...services].reverse()) await handle.close();
        } finally {
          removeServerFile(options.dataDir, own);
          lock.release();
        }
      })();
      return closing;
    },
  };
}
