/**
 * Today's metrics endpoints: `GET /v0/pipelines/{name}/metrics?format=prometheus|json` (one deployed
 * pipeline, what pipelines/control/metrics.ts reports) and `GET /v0/metrics` (every running or paused pipeline in
 * Prometheus format, as the manager's cluster-wide endpoint).
 *
 * Rules (as today's Feldera):
 * - `format` defaults to `prometheus`, answered as `text/plain` (exactly: the Python SDK returns the text
 *   only for that content type); `json` as `application/json` (sent as bytes, so no charset is added). Any other value, checked before the pipeline
 *   is looked up (the manager parses the query first), is 400 with the manager's message
 *   ``Query deserialize error: unknown variant `X`, expected `prometheus` or `json` `` (in our error body).
 * - A pipeline that is not deployed answers today's manager's 503 PipelineInteractionNotDeployed (503
 *   Initializing while it initializes); an unknown one 404 UnknownPipelineName.
 * - Answered from the figures the worker last reported: a scrape does not wait for a step.
 * - `/v0/metrics` holds each running or paused pipeline's samples; where the manager concatenates the
 *   pipelines' outputs (repeating every HELP and TYPE), each family is written once with every pipeline's
 *   samples, so the whole is one valid exposition.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PipelineManager } from '../manager.js';
import { mergeFamilies, renderJson, renderPrometheus, type MetricFamily } from '../metrics-format.js';
import { pipelineMetrics } from '../metrics.js';
import { deployed } from './completion.js';
import { objectOf } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';
import { choice } from './query-fields.js';

const metricsQuery = objectOf({ format: choice(['prometheus', 'json'] as const, 'prometheus') });
type MetricsFormat = ReturnType<typeof metricsQuery.check>['format'];

function send(reply: FastifyReply, format: MetricsFormat, families: MetricFamily[]): FastifyReply {
  if (format === 'json')
    return reply
      .code(200)
      .header('content-type', 'application/json')
      .send(Buffer.from(JSON.stringify(renderJson(families))));
  return reply.code(200).header('content-type', 'text/plain').send(renderPrometheus(families));
}

export function metricsRoutes(app: FastifyInstance, manager: PipelineManager): void {
  declareRoute<undefined, ReturnType<typeof metricsQuery.check>, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/metrics',
    summary: "A running pipeline's metrics (Prometheus text or JSON)",
    query: metricsQuery,
    handler: async (req, reply, input) => {
      const { format } = input.query; // a bad format is refused before the pipeline is looked up
      const host = deployed(manager, req.params.name);
      const rec = manager.get(req.params.name).rec;
      return send(reply, format, pipelineMetrics(host, rec));
    },
  });

  app.get('/metrics', async (_req, reply) => {
    const lists: MetricFamily[][] = [];
    for (const e of manager.list()) {
      const s = e.dep.deployment_status;
      if ((s === 'Running' || s === 'Paused') && e.runtime) lists.push(pipelineMetrics(e.runtime, e.rec));
    }
    return send(reply, 'prometheus', mergeFamilies(lists));
  });
}
