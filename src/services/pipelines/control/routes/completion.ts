/**
 * Today's completion tokens: `GET .../completion_status?token=` and
 * `GET .../tables/{table}/connectors/{connector}/completion_token` (tokens.ts says what a token is; the
 * ingress route answers each request with one).
 *
 * Rules (as today's Feldera): these endpoints exist only in today's API, so a pipeline that is not
 * deployed gets today's manager's 503 PipelineInteractionNotDeployed (not v0.24's 400); a token that does
 * not decode is 400 InvalidParam; a token of an earlier start of the pipeline is 410 PipelineRestarted, one
 * naming an endpoint this run does not have 410 UnknownEndpointInCompletionToken; an unknown table or
 * connector is 404 UnknownInputEndpoint. A status is 200 `{status: "complete"|"inprogress", step}`.
 */
import type { FastifyInstance } from 'fastify';
import { FelderaError, Errors } from '../../shared/errors.js';
import type { PipelineHost } from '../../runner/host.js';
import type { PipelineManager } from '../manager.js';
import { findRelation } from '../../shared/names.js';
import { decodeToken } from '../tokens.js';
import { param, type Query } from './query-fields.js';
import { field, objectOf } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';

const TokenErrors = {
  notDeployed: (name: string, status: 'stopped' | 'provisioning' | 'stopping', desired: 'stopped' | 'provisioned') =>
    new FelderaError(
      503,
      'PipelineInteractionNotDeployed',
      `Unable to interact with pipeline because the deployment status (${status}) indicates it is not (yet) fully provisioned pipeline-id=N/A pipeline-name="${name}"`,
      { pipeline_name: name, status, desired_status: desired },
    ),
  missingParam: (name: string) => new FelderaError(400, 'MissingUrlEncodedParam', `Missing URL-encoded parameter '${name}'.`, { param: name }),
  invalidToken: (reason: string) => {
    const error = `invalid completion token: ${reason}`;
    return new FelderaError(400, 'InvalidParam', `Invalid parameter: ${error}.`, { error });
  },
  restarted: (token: string, current: string) => {
    const error = `Completion token was created by a previous incarnation of the pipeline (incarnation uuid: ${token}) and is not valid for the current incarnation (${current}). This indicates that the pipeline was suspended and resumed from a checkpoint or restarted after a failure.`;
    return new FelderaError(410, 'PipelineRestarted', error, { error });
  },
  unknownEndpointInToken: (id: number) =>
    new FelderaError(
      410,
      'UnknownEndpointInCompletionToken',
      `completion token specifies input endpoint id ${id}, which doesn't exist; this indicates that the input connector was deleted after the completion token was generated`,
      { endpoint_id: id },
    ),
  unknownInputEndpoint: (endpoint: string) => new FelderaError(404, 'UnknownInputEndpoint', `unknown input endpoint name '${endpoint}'`, { endpoint_name: endpoint }),
};

/** The running (or paused) pipeline's host, or today's manager's error for one that is not deployed. */
export function deployed(manager: PipelineManager, name: string): PipelineHost {
  const e = manager.get(name);
  const status = e.dep.deployment_status;
  if ((status === 'Running' || status === 'Paused') && e.runtime) return e.runtime;
  if (status === 'Initializing') throw Errors.initializing();
  const desired = e.dep.deployment_desired_status === 'Shutdown' ? 'stopped' : 'provisioned';
  throw TokenErrors.notDeployed(e.rec.name, status === 'Provisioning' ? 'provisioning' : status === 'ShuttingDown' ? 'stopping' : 'stopped', desired);
}

/** ?token: required (400 MissingUrlEncodedParam), decoded (400 InvalidParam), read after the pipeline is found deployed. */
const statusQuery = objectOf({
  token: field({ type: 'string', description: 'a completion token, as the ingress route answers it' }, (v, _fail, name) => {
    const text = param({ [name]: v } as Query, name);
    if (text === undefined) throw TokenErrors.missingParam(name);
    try {
      return decodeToken(text);
    } catch (err) {
      throw TokenErrors.invalidToken((err as Error).message);
    }
  }),
});

export function completionRoutes(app: FastifyInstance, manager: PipelineManager): void {
  declareRoute<undefined, ReturnType<typeof statusQuery.check>, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/completion_status',
    summary: 'Whether the input a completion token stands for is fully processed',
    query: statusQuery,
    handler: async (req, _reply, input) => {
      const host = deployed(manager, req.params.name);
      const { token } = input.query;
      const s = host.completionStatus(token);
      if (!s.ok) throw s.reason === 'restarted' ? TokenErrors.restarted(token.incarnation, s.incarnation) : TokenErrors.unknownEndpointInToken(token.endpoint);
      const complete = s.step !== null && s.completedSteps >= s.step;
      return { status: complete ? 'complete' : 'inprogress', step: s.step };
    },
  });

  app.get<{ Params: { name: string; table: string; connector: string } }>('/pipelines/:name/tables/:table/connectors/:connector/completion_token', async (req) => {
    const host = deployed(manager, req.params.name);
    const table = findRelation(host.program, req.params.table, 'table');
    const endpoint = `${table?.name ?? req.params.table}.${req.params.connector}`;
    const token = table ? host.connectorToken(endpoint) : null;
    if (token === null) throw TokenErrors.unknownInputEndpoint(endpoint);
    return { token };
  });
}
