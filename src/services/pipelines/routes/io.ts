/** Ingress (`POST .../ingress/{table}`) and egress (`POST .../egress/{view}`: watch streams and snapshots). */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { snapshotBody, type OutputFormat } from '../egress/encode.js';
import { neighborhood, parseNeighborhood, quantiles, sortedContents } from '../egress/snapshot.js';
import { ApiError, Errors } from '../errors.js';
import { parseCsvInput } from '../ingress/csv.js';
import { parseJsonInput, UPDATE_FORMATS, type UpdateFormat } from '../ingress/json.js';
import type { PipelineManager } from '../manager.js';
import { engineName, findRelation } from '../names.js';
import { boolParam, intParam, jsonBody, param, rawBody, type Query } from './util.js';

export function ioRoutes(app: FastifyInstance, manager: PipelineManager): void {
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
    const text = rawBody(req);
    const binding = runtime.binding(table);
    const parsed = format === 'csv' ? parseCsvInput(text, binding) : parseJsonInput(text, binding, { updateFormat, array });
    runtime.apply(parsed, runtime.httpEndpoint(table, format), Buffer.byteLength(text));
    return reply.code(200).send('');
  });

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
