/**
 * Which Feldera API a client speaks, told from what its request carries (per client, not per server).
 *
 * Contract: `clientApiOf(request)` answers 'current' when the request carries a mark of today's clients, 'v0.24'
 * when it carries a mark only v0.24's clients send, and null when it carries neither (the caller then falls back
 * on the pipeline's own kind, `PipelineRecord.client_api`, and that on v0.24). `--feldera`/`--pipeline-api`
 * override it for every request. The marks, as today's Python SDK (python/feldera/rest/feldera_client.py,
 * _httprequests.py) and fda (crates/fda, a client generated from openapi.json) send them:
 *  - a `Feldera-Tenant` header (SDK and fda with a tenant);
 *  - `?selector=` on GET /pipelines[/{name}] (every pipeline GET of the SDK's that waits or reads status; fda's
 *    list and waits);
 *  - a pipeline body (POST /pipelines, PUT, PATCH) with `udf_rust`, `udf_toml` or `tags` (the SDK sends all
 *    three, fda's PostPutPipeline always `tags`); v0.24's SDK sends only name, description, program_code and
 *    the two configs.
 * The User-Agent tells nothing (both SDKs send `feldera-python-sdk/v1`); v0.24's own mark is `/shutdown`, on an
 * action that answers no pipeline object. GETs without a selector (the SDK's get_runtime_config, fda's waits
 * before a stop) carry no mark: they get the pipeline's kind, which is the kind of the client that created it.
 */
import type { PipelineApi } from './model.js';

export interface ClientRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  /** The parsed JSON body of a pipeline definition (POST/PUT/PATCH), if any. */
  body?: unknown;
}

/** Body fields of today's pipeline definitions that v0.24's had not. */
const TODAY_BODY_FIELDS = ['udf_rust', 'udf_toml', 'tags'] as const;

export function clientApiOf(req: ClientRequest): PipelineApi | null {
  if (req.headers['feldera-tenant'] !== undefined) return 'current';
  if (req.query.selector !== undefined) return 'current';
  const body = req.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && TODAY_BODY_FIELDS.some((k) => k in body)) return 'current';
  return null;
}

/**
 * The API to answer a request about a pipeline with: the server's forced one (`--feldera`), else the request's
 * own mark, else the pipeline's kind (the client that created it), else v0.24's.
 */
export function answerApi(forced: PipelineApi | undefined, req: ClientRequest, pipelineKind: PipelineApi | undefined): PipelineApi {
  return forced ?? clientApiOf(req) ?? pipelineKind ?? 'v0.24';
}
