/** Ingress (`POST .../ingress/{table}`) and egress (`POST .../egress/{view}`: watch streams and snapshots). */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { snapshotBody, type OutputFormat } from '../egress/encode.js';
import { neighborhood, parseNeighborhood, quantiles, sortedContents } from '../egress/snapshot.js';
import { ApiError, Errors } from '../errors.js';
import { UPDATE_FORMATS, type UpdateFormat } from '../ingress/json.js';
import { DEFAULT_INGRESS_BODY_LIMIT } from '../ingress/limits.js';
import { newIngressParser, readIngressBody } from '../ingress/stream.js';
import type { PipelineManager } from '../manager.js';
import { engineName, findRelation } from '../names.js';
import { boolParam, intParam, jsonBody, param, type Query } from './util.js';

export interface IoLimits {
  /** Largest ingress body in bytes (413 beyond it, nothing applied). */
  ingressBodyLimit: number;
}

/** The request body as a stream of chunks: the raw request when no content-type parser ran. */
function bodyStream(req: FastifyRequest): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
  const b = req.body as unknown;
  if (b instanceof Readable) return b;
  if (b instanceof Uint8Array) return [b];
  if (typeof b === 'string') return [Buffer.from(b)];
  return req.raw;
}

export function ioRoutes(app: FastifyInstance, manager: PipelineManager, limits: IoLimits = { ingressBodyLimit: DEFAULT_INGRESS_BODY_LIMIT }): void {
  // Ingress bodies stream into the parser: this route's context hands the request stream through.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    ingressRoute(scope, manager, limits);
  });
  egressRoute(app, manager);
}

function ingressRoute(app: FastifyInstance, manager: PipelineManager, limits: IoLimits): void {
  app.post<{ Params: { name: string; table: string } }>('/pipelines/:name/ingress/:table', async (req, reply) => {
    const q = req.query as Query;
    const { runtime } = manager.runtimeOf(req.params.name);
    const table = findRelation(runtime.program, req.params.table, 'table');
    if (!table) throw Errors.unknownInputStream(`api-ingress-${req.params.table}-${randomUUID()}`, req.params.table);
    const format = param(q, 'format') ?? 'csv';
    if (format !== 'json' && format !== 'csv') throw Errors.unknownInputFormat(format);
    const force = boolParam(q, 'force', false);
    let updateFormat: UpdateFormat = 'insert_delete';
    let array = false;
    if (format === 'json') {
      const uf = param(q, 'update_format') ?? 'insert_delete';
      if (uf === 'snowflake') throw Errors.parserConfig("update format 'snowflake' is not supported for JSON input streams");
      if (!UPDATE_FORMATS.includes(uf))
        throw Errors.parserConfig(`unknown update format '${uf}'; valid formats: ${UPDATE_FORMATS.join(', ')}`);
      updateFormat = uf as UpdateFormat;
      array = boolParam(q, 'array', false);
    }
    if (runtime.state === 'Paused' && !force) await runtime.waitUntilRunning();
    if (runtime.state === 'Terminated') throw Errors.terminating();
    const parser = newIngressParser(format, runtime.binding(table), { updateFormat, array });
    const declared = Number(req.headers['content-length']);
    let read;
    try {
      read = await readIngressBody(bodyStream(req), parser, limits.ingressBodyLimit, Number.isFinite(declared) ? declared : undefined);
    } catch (err) {
      if (err instanceof ApiError && err.status === 413) {
        // the rest of the body is read and dropped, so that the client gets the answer
        reply.header('connection', 'close');
        req.raw.resume();
      }
      throw err;
    }
    runtime.apply(read.parsed, runtime.httpEndpoint(table, format), read.bytes);
    return reply.code(200).send('');
  });
}

function egressRoute(app: FastifyInstance, manager: PipelineManager): void {
  app.post<{ Params: { name: string; view: string } }>('/pipelines/:name/egress/:view', async (req, reply) => {
    const q = req.query as Query;
    const { runtime } = manager.runtimeOf(req.params.name);
    const rel = findRelation(runtime.program, req.params.view, 'any');
    const format = param(q, 'format') ?? 'csv';
    const mode = param(q, 'mode') ?? 'watch';
    const query = param(q, 'query') ?? 'table';
    if (!rel) {
      const kind = mode === 'watch' ? 'watch' : `snapshot-${query === 'table' ? '' : query + '-'}`;
      throw Errors.unknownOutputStream(`api-${kind}-${req.params.view}-${randomUUID()}`, req.params.view);
    }
    if (format !== 'json' && format !== 'csv') throw Errors.unknownOutputFormat(format);
    if (mode !== 'watch' && mode !== 'snapshot') throw Errors.badParam('mode', mode, "'watch' or 'snapshot'");
    if (query !== 'table' && query !== 'quantiles' && query !== 'neighborhood')
      throw Errors.badParam('query', query, "'table', 'quantiles' or 'neighborhood'");
    const backpressure = boolParam(q, 'backpressure', false);

    if (mode === 'watch') {
      if (query === 'quantiles')
        throw new ApiError(405, 'QuantileStreamingNotSupported', 'Continuous monitoring is not supported for quantiles. Use mode=snapshot instead.');
      if (query === 'neighborhood')
        throw new ApiError(405, 'NeighborhoodStreamingNotSupported', 'Continuous monitoring is not supported for neighborhoods. Use mode=snapshot instead.');
      reply.hijack();
      runtime.addWatcher(rel, format as OutputFormat, backpressure, reply.raw);
      return;
    }

    // Snapshots read the integrated contents.
    let rows;
    try {
      rows = sortedContents(runtime.circuit.contents(engineName(rel)), rel.columns);
    } catch (err) {
      throw new ApiError(405, query === 'neighborhood' ? 'NeighborhoodNotSupported' : 'QuantilesNotSupported', `Cannot read the contents of '${rel.name}': ${(err as Error).message}`);
    }
    let body: string;
    if (query === 'neighborhood') {
      const specBody = jsonBody(req);
      if (specBody === null)
        throw new ApiError(400, 'MissingNeighborhoodSpec', 'Neighborhood request must specify the neighborhood in the body of the request: {"anchor": row|null, "before": n, "after": n}.');
      const spec = parseNeighborhood(specBody, rel.columns);
      if (typeof spec === 'string') throw new ApiError(400, 'InvalidNeighborhoodSpec', `Invalid neighborhood specification: ${spec}`);
      const items = neighborhood(rows, spec, rel.columns);
      body =
        format === 'json'
          ? `{"sequence_number":0,"json_data":[${items.map((i) => `{"insert":${JSON.stringify(i)}}`).join(',')}]}`
          : snapshotBody(
              items.map((i) => ({ row: i, weight: 1 })),
              'csv',
              [
                { name: 'index', caseSensitive: false, type: 'BIGINT', nullable: false },
                { name: 'key', caseSensitive: false, type: 'VARIANT', nullable: false },
              ],
            );
    } else {
      if (query === 'quantiles') {
        const n = intParam(q, 'quantiles', 100);
        if (n < 1 || n > 1000)
          throw new ApiError(416, 'NumQuantilesOutOfRange', `The requested number of quantiles, ${n}, is beyond the allowed range 1 to 1000.`, { quantiles: n });
        rows = quantiles(rows, n);
      }
      body = snapshotBody(rows, format as OutputFormat, rel.columns);
    }
    return reply.code(200).header('content-type', 'application/json').send(body + '\r\n');
  });
}
