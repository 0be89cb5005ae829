/**
 * Stats (the pipeline's, and today's one-connector `GET .../tables/{table}/connectors/{connector}/stats` and
 * `.../views/{view}/connectors/{connector}/stats`: the endpoint named `{relation}.{connector}` of /stats, 404
 * UnknownInputEndpoint/UnknownOutputEndpoint as Feldera's, 503 when not deployed), logs, API keys and today's
 * GET /v0/config.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiKeys } from '../auth.js';
import { LogFollower } from '../../runner/log-follower.js';
import { formatLog, jsonLogsEnabled, type LogBook, type LogRecord } from '../../runner/logs.js';
import type { PipelineManager } from '../manager.js';
import { pipelineStats } from '../stats.js';
import { jsonOfBody } from './request-body.js';
import { clientApiOf } from '../client-api.js';
import { FelderaError, Errors } from '../../shared/errors.js';
import { findRelation } from '../../shared/names.js';
import { deployed } from './completion.js';
import type { PipelineApi } from '../model.js';
import { field, objectOf } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';
import { count, flag } from './query-fields.js';
import { version } from '../../../../core/version.js';

/** ?lines (the last n; absent: every line), then ?follow (keep the answer open for new lines). */
const logsQuery = objectOf({ lines: count('a number of lines (0 or more)'), follow: flag(false) });
type LogsQuery = ReturnType<typeof logsQuery.check>;

/** POST /api_keys: `{"name": "..."}`, a name not blank (a JSON array reads as an object without one). */
const apiKeyBody = objectOf(
  {
    name: field<string>({ type: 'string', minLength: 1 }, (v, _fail, name) => {
      if (typeof v !== 'string' || v.trim() === '') throw Errors.badBody(`field '${name}' must be a non-empty string`);
      return v;
    }),
  },
  {
    normalize: (raw) => {
      const body = jsonOfBody(raw);
      if (!body || typeof body !== 'object') throw Errors.badBody('expected a JSON object {"name": "..."}');
      return Array.isArray(body) ? {} : body;
    },
  },
);

/** `forced`: the API every client gets (`ops serve --feldera`); undefined: each client its own (client-api.ts). */
export function miscRoutes(app: FastifyInstance, manager: PipelineManager, logs: LogBook, keys: ApiKeys, forced?: PipelineApi): void {
  configRoute(app);
  statsRoutes(app, manager);
  logRoutes(app, manager, logs);
  apiKeyRoutes(app, logs, keys, forced);
}

/** Today's platform configuration (Feldera's Configuration object): no telemetry, an open-source edition. */
function configRoute(app: FastifyInstance): void {
  app.get('/config', async () => ({
    posthog: '',
    conceptualhq: '',
    product_fruits: '',
    edition: 'Open source',
    version: version(),
    revision: '',
    runtime_revision: '',
    changelog_url: '',
    build_info: {
      build_timestamp: '',
      build_cpu: process.arch,
      build_os: process.platform,
      cargo_dependencies: '',
      cargo_features: '',
      cargo_debug: 'false',
      cargo_opt_level: '',
      cargo_target_triple: '',
      rustc_version: '',
    },
    build_source: 'source',
    license_validity: null,
    update_info: null,
    unstable_features: null,
  }));
}

/** A pipeline's stats and one connector's. */
function statsRoutes(app: FastifyInstance, manager: PipelineManager): void {
  app.get<{ Params: { name: string } }>('/pipelines/:name/stats', async (req) => {
    const { entry, runtime } = manager.runtimeOf(req.params.name);
    return pipelineStats(runtime, entry.dep.deployment_config);
  });

  const connectorStats = (pipeline: string, relation: string, connector: string, kind: 'table' | 'view') => {
    const host = deployed(manager, pipeline);
    const rel = findRelation(host.program, relation, kind);
    const endpoint = `${rel?.name ?? relation}.${connector}`;
    const stats = pipelineStats(host, manager.get(pipeline).dep.deployment_config) as { inputs: { endpoint_name: string }[]; outputs: { endpoint_name: string }[] };
    const found = rel ? (kind === 'table' ? stats.inputs : stats.outputs).find((ep) => ep.endpoint_name === endpoint) : undefined;
    if (found) return found;
    const [code, what] = kind === 'table' ? ['UnknownInputEndpoint', 'input'] : ['UnknownOutputEndpoint', 'output'];
    throw new FelderaError(404, code, `unknown ${what} endpoint name '${endpoint}'`, { endpoint_name: endpoint });
  };
  app.get<{ Params: { name: string; table: string; connector: string } }>('/pipelines/:name/tables/:table/connectors/:connector/stats', async (req) =>
    connectorStats(req.params.name, req.params.table, req.params.connector, 'table'),
  );
  app.get<{ Params: { name: string; view: string; connector: string } }>('/pipelines/:name/views/:view/connectors/:connector/stats', async (req) =>
    connectorStats(req.params.name, req.params.view, req.params.connector, 'view'),
  );
}

/** A pipeline's log and the whole log, as text, followed on ?follow=true. */
function logRoutes(app: FastifyInstance, manager: PipelineManager, logs: LogBook): void {
  const sendLogs = (query: LogsQuery, reply: FastifyReply, id: string | undefined) => {
    const { lines: tail, follow } = query;
    const json = jsonLogsEnabled();
    let lines = logs.lines(id);
    if (tail !== undefined) lines = tail === 0 ? [] : lines.slice(-tail);
    const text = lines.map((r) => formatLog(r, json) + '\n').join('');
    if (!follow) return reply.code(200).header('content-type', 'text/plain; charset=utf-8').send(text);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
    res.socket?.setNoDelay(true);
    const follower = new LogFollower(res);
    follower.line(text);
    const listener = Object.assign((r: LogRecord) => follower.line(formatLog(r, json) + '\n'), { end: () => follower.end() });
    const stop = logs.follow(id, listener);
    res.on('close', stop);
    return undefined;
  };

  declareRoute<undefined, LogsQuery, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/logs',
    summary: "A pipeline's log (text), followed with ?follow=true",
    query: logsQuery,
    handler: async (req, reply, input) => {
      const e = manager.get(req.params.name);
      return sendLogs(input.query, reply, e.rec.id);
    },
  });

  declareRoute<undefined, LogsQuery>(app, {
    method: 'GET',
    url: '/logs',
    summary: "The manager's and every pipeline's log (text)",
    query: logsQuery,
    handler: async (_req, reply, input) => sendLogs(input.query, reply, undefined),
  });
}

/** The API keys: list, read, create (the secret answered once), delete. */
function apiKeyRoutes(app: FastifyInstance, logs: LogBook, keys: ApiKeys, forced?: PipelineApi): void {
  app.get('/api_keys', async () => keys.list());
  // today's answer is a list holding the one key; v0.24's (and a client without a mark's) the key itself
  app.get<{ Params: { name: string } }>('/api_keys/:name', async (req) => {
    const key = keys.get(req.params.name);
    return (forced ?? clientApiOf({ headers: req.headers, query: req.query as Record<string, unknown> })) === 'current' ? [key] : key;
  });
  declareRoute(app, {
    method: 'POST',
    url: '/api_keys',
    summary: 'Create an API key (its secret is answered once)',
    body: apiKeyBody,
    handler: async (_req, reply, input) => {
      const created = keys.create(input.body.name);
      logs.log('INFO', 'manager', 'pipeline_manager::api', `API key '${created.name}' created`);
      return reply.code(201).send(created);
    },
  });
  app.delete<{ Params: { name: string } }>('/api_keys/:name', async (req, reply) => {
    keys.delete(req.params.name);
    logs.log('INFO', 'manager', 'pipeline_manager::api', `API key '${req.params.name}' deleted`);
    return reply.code(200).send('');
  });
}
