/**
 * Today's checkpoint endpoints, answered as Feldera's open-source edition answers them (the edition
 * `GET /v0/config` reports), for `ops serve` keeps no storage (runtime_config.storage is false):
 * - `POST .../checkpoint` and `POST .../checkpoint/sync`: 501 EnterpriseFeature, Feldera's message (its
 *   manager refuses them before it looks at the pipeline) followed by why there is nothing to checkpoint here.
 * - `GET .../checkpoints`: `[]`; `GET .../checkpoint_status`: `{success: null, failure: null}`;
 *   `GET .../checkpoint/sync_status`: `{success: null, failure: null, periodic: null}`. These reach the
 *   running pipeline in Feldera, so a pipeline that is not deployed gets the manager's 503
 *   PipelineInteractionNotDeployed, and an `incarnation_uuid` other than this run's is 400
 *   IncarnationUuidMismatch (one that is not a UUID: 400 InvalidQueryParameter).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { PipelineHost } from '../host.js';
import type { PipelineManager } from '../manager.js';
import { deployed } from './completion.js';
import { param, parseUuid, queryError, type Query } from './util.js';

export const NO_CHECKPOINTS =
  'Cannot use enterprise-only feature (checkpoint) in Feldera community edition. ' +
  'ops serve keeps no storage (runtime_config.storage is false): a pipeline keeps its state only while it is deployed, so there is nothing to checkpoint or sync.';

const enterpriseFeature = () => new ApiError(501, 'EnterpriseFeature', NO_CHECKPOINTS, { feature: 'checkpoint' });

/** The pipeline's host after checking `incarnation_uuid` (when given) against this run's. */
function sameIncarnation(host: PipelineHost, q: Query): PipelineHost {
  const given = param(q, 'incarnation_uuid');
  if (given === undefined) return host;
  const parsed = parseUuid(given);
  if ('error' in parsed) throw queryError(`UUID parsing failed: ${parsed.error}`, 'incarnation_uuid', given);
  if (parsed.uuid !== host.incarnation)
    throw new ApiError(400, 'IncarnationUuidMismatch', `Incarnation UUID mismatch (${parsed.uuid} in request, expected ${host.incarnation})`, {
      requested: parsed.uuid,
      expected: host.incarnation,
    });
  return host;
}

export function checkpointRoutes(app: FastifyInstance, manager: PipelineManager): void {
  app.post('/pipelines/:name/checkpoint', async () => {
    throw enterpriseFeature();
  });
  app.post('/pipelines/:name/checkpoint/sync', async () => {
    throw enterpriseFeature();
  });

  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoints', async (req) => {
    deployed(manager, req.params.name);
    return [];
  });
  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoint_status', async (req) => {
    sameIncarnation(deployed(manager, req.params.name), req.query as Query);
    return { success: null, failure: null };
  });
  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoint/sync_status', async (req) => {
    sameIncarnation(deployed(manager, req.params.name), req.query as Query);
    return { success: null, failure: null, periodic: null };
  });
}
