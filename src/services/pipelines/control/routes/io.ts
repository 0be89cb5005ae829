/**
 * Ingress (`POST .../ingress/{table}`), egress (`POST .../egress/{view}`: watch streams and snapshots) and
 * today's ad-hoc queries (`GET .../query?sql=&format=json|text`).
 * The pipeline's worker parses, applies, encodes and answers snapshots; these routes check the request,
 * stream the body's bytes to the worker and frame what comes back.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyHasConfig, egressConfigFromBody, type EgressConfig, egressConfigFromQuery, queryString, refuseSnapshotEncoding } from '../egress-config.js';
import { FelderaError, Errors } from '../../shared/errors.js';
import { isInsertStatement } from '../../shared/sql-words.js';
import { bodyTooLarge } from '../../shared/ingress-limits.js';
import type { PipelineManager } from '../manager.js';
import { findRelation } from '../../shared/names.js';
import { jsonBodyText, rawBody } from './request-body.js';
import { param, type Query } from './query-fields.js';
import { parquetFileName, QUERY_CONTENT_TYPES } from '../../shared/query-format.js';
import { declareRoute } from '../../../kit/route.js';
import { adHocQuery, egressQuery, ingressQuery, ingressShape, quantilesQuery, snapshotConnectorQuery, watchConnectorQuery } from './io-queries.js';
import { answerApi } from '../client-api.js';
import type { PipelineApi } from '../model.js';

/** The request body as a stream of chunks (ingress routes take it unparsed): the raw request when no content-type parser ran. */
function bodyStream(req: FastifyRequest): AsyncIterable<Uint8Array> | Uint8Array {
  const b = req.body as unknown;
  if (b instanceof Readable) return b;
  if (b instanceof Uint8Array) return b;
  if (typeof b === 'string') return Buffer.from(b);
  return req.raw;
}

const tooLarge = (limit: number) => () => bodyTooLarge(limit);

/**
 * The body's chunks until the pipeline ends: then the next read fails with the pipeline's error, so a
 * request whose client stalls mid-body is answered at once rather than holding the shutdown (and
 * the server's close) until the client sends more. The body is left unread (the answer closes the
 * connection).
 */
async function* untilTerminated(body: AsyncIterable<Uint8Array>, terminated: AbortSignal): AsyncIterable<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  let onAbort = () => {};
  const ended = new Promise<never>((_, reject) => {
    onAbort = () => reject(terminated.reason);
    if (terminated.aborted) onAbort();
    else terminated.addEventListener('abort', onAbort, { once: true });
  });
  ended.catch(() => {});
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), ended]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    terminated.removeEventListener('abort', onAbort);
  }
}

/**
 * Reads and drops the rest of a refused body, so that a client still sending gets the answer; once the answer
 * is sent, past `limit` more bytes the connection is closed (a client that goes on sending gigabytes after its
 * 413 costs no more than that).
 */
function drainRefusedBody(raw: IncomingMessage, res: ServerResponse, limit: number): void {
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    if (!res.writableFinished) return;
    dropped += chunk.byteLength;
    if (dropped > limit) raw.socket.destroy();
  });
  raw.resume();
}

/** Ingress: registered in a scope whose content-type parser hands the body over as a stream. */
export function ingressRoutes(app: FastifyInstance, manager: PipelineManager, bodyLimit: number): void {
  declareRoute<undefined, ReturnType<typeof ingressQuery.check>, { name: string; table: string }>(app, {
    method: 'POST',
    url: '/pipelines/:name/ingress/:table',
    summary: "Push rows into a table (the body, CSV or JSON, streamed to the pipeline's worker)",
    query: ingressQuery,
    handler: async (req, reply, input) => {
      const { runtime } = manager.runtimeOf(req.params.name);
      const table = findRelation(runtime.program, req.params.table, 'table');
      if (!table) throw Errors.unknownInputStream(`api-ingress-${req.params.table}-${randomUUID()}`, req.params.table);
      const { format, force } = input.query;
      const { updateFormat, array } = ingressShape(input.query);
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > bodyLimit) {
        // read and dropped (not cut by closing the connection), so that a client still sending gets the answer
        drainRefusedBody(req.raw, reply.raw, bodyLimit);
        throw bodyTooLarge(bodyLimit);
      }
      if (runtime.state === 'Paused' && !force) await runtime.waitUntilRunning();
      const body = bodyStream(req);
      let token: string;
      try {
        token = await runtime.ingest({ table: table.name, format, updateFormat, array }, body instanceof Uint8Array ? body : untilTerminated(body, runtime.terminated), bodyLimit, tooLarge(bodyLimit));
      } catch (err) {
        if (err instanceof FelderaError && err.status === 413) {
          // the rest of the body is read and dropped, the connection kept: a client still sending (a big body
          // streamed) would get EPIPE, not the answer, if the connection closed under it
          drainRefusedBody(req.raw, reply.raw, bodyLimit);
        } else if (runtime.terminated.aborted) reply.header('connection', 'close');
        throw err;
      }
      // today's answer (additive for v0.24 clients, which read no body): the token of the table's HTTP input
      // here; the request is applied when it is answered, so the token is complete at once (inside a
      // transaction: held, the token in progress until the commit's step)
      return reply.code(200).send({ token });
    },
  });
}

/** `forced`: the API every client gets (`ops serve --feldera`); undefined: each client its own (client-api.ts). */
export function ioRoutes(app: FastifyInstance, manager: PipelineManager, forced?: PipelineApi): void {
  declareRoute<undefined, ReturnType<typeof egressQuery.check>, { name: string; view: string }>(app, {
    method: 'POST',
    url: '/pipelines/:name/egress/:view',
    summary: "A view's changes as a stream (mode=watch) or its contents (mode=snapshot)",
    query: egressQuery,
    handler: async (req, reply, input) => {
      const q = req.query as Query;
      const { runtime, entry } = manager.runtimeOf(req.params.name);
      const rel = findRelation(runtime.program, req.params.view, 'any');
      // the endpoint's name (in the errors) is made of the parameters as given, before they are checked
      const given = { mode: param(q, 'mode') ?? 'watch', query: param(q, 'query') ?? 'table' };
      const endpoint = `api-${given.mode === 'watch' ? 'watch' : `snapshot-${given.query === 'table' ? '' : given.query + '-'}`}-${rel?.name ?? req.params.view}-${randomUUID()}`;
      if (!rel) throw Errors.unknownOutputStream(endpoint, req.params.view);
      const { mode, query } = input.query;
      // a watch stream's connector config: a JSON body (today's Feldera) or the query string
      const bodyText = mode === 'watch' ? rawBody(req) : '';
      let config: EgressConfig;
      if (bodyHasConfig(bodyText)) config = egressConfigFromBody({ text: bodyText, query: q, endpoint, columns: rel.columns });
      else {
        const args = mode === 'watch' ? watchConnectorQuery.check(q) : { ...snapshotConnectorQuery.check(q), send_snapshot: false };
        config = egressConfigFromQuery({
          query: q,
          queryText: queryString(req.url),
          endpoint,
          columns: rel.columns,
          format: args.format,
          backpressure: args.backpressure,
          sendSnapshot: args.send_snapshot,
        });
      }

      if (mode === 'watch') {
        // today's send_snapshot=true: the contents first; only what Feldera keeps integrated can be sent so
        if (config.sendSnapshot && !rel.declaredMaterialized) throw Errors.snapshotNeedsMaterialized(endpoint, rel.name);
        // today's Feldera writes `snapshot` in every chunk (false outside a send_snapshot's snapshot); v0.24 had none
        const todays = answerApi(forced, { headers: req.headers, query: q }, entry.rec.client_api) === 'current';
        reply.hijack();
        runtime.addWatcher(rel, { ...config, snapshotField: config.sendSnapshot || todays }, reply.raw, endpoint);
        return;
      }

      // Snapshots read the integrated contents (in the pipeline's worker), written as one object.
      refuseSnapshotEncoding(endpoint, config.encoding);
      const { quantiles } = query === 'quantiles' ? quantilesQuery.check(q) : { quantiles: 100 };
      const body = await runtime.snapshot({
        relation: rel.name,
        format: config.encoding.format,
        query,
        quantiles,
        neighborhood: query === 'neighborhood' ? jsonBodyText(req) : null,
      });
      return reply.code(200).header('content-type', 'application/json').send(body);
    },
  });

  // today's ad-hoc query endpoint: a SELECT over materialized tables and views, or an INSERT INTO a table, run in the worker
  declareRoute<undefined, ReturnType<typeof adHocQuery.check>, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/query',
    summary: 'An ad-hoc query: a SELECT over materialized relations, or an INSERT INTO a table',
    query: adHocQuery,
    handler: async (req, reply, input) => {
      const { runtime } = manager.runtimeOf(req.params.name);
      const { sql, format } = input.query;
      // an ad-hoc INSERT is input: while paused it waits until the pipeline runs, as Feldera's does
      if (isInsertStatement(sql) && runtime.state === 'Paused') await runtime.waitUntilRunning();
      // a client that goes away before the answer cancels its query (it would hold the pipeline's worker)
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      let body: Buffer;
      try {
        body = await runtime.query(sql, format, gone.signal);
      } finally {
        reply.raw.off('close', onClose);
      }
      if (format === 'parquet') reply.header('content-disposition', `attachment; filename="${parquetFileName(new Date())}"`);
      return reply.code(200).header('content-type', QUERY_CONTENT_TYPES[format]).send(body);
    },
  });
}
