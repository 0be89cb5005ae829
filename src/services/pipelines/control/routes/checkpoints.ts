/**
 * Today's checkpoint endpoints, answered as Feldera's Enterprise edition answers them (ops serve keeps each
 * pipeline's state in its storage: docs/pipelines.md, "Durable pipelines"):
 * - `POST .../checkpoint`: 200 `{checkpoint_sequence_number, incarnation_uuid}` at once (sequence numbers of
 *   this run, from 0); the checkpoint is written between steps, and `GET .../checkpoint_status` reports it
 *   (`success`: the last sequence number written; `failure`: the last failure ever, with its reason).
 * - `GET .../checkpoints`: the stored checkpoints' metadata (Feldera's CheckpointMetadata), oldest first.
 * - `POST .../checkpoint/sync`: 501 EnterpriseFeature (syncing to object storage is not a local matter);
 *   `GET .../checkpoint/sync_status`: `{success: null, failure: null, periodic: null}`.
 * These reach the running pipeline in Feldera, so a pipeline that is not deployed gets the manager's 503
 * PipelineInteractionNotDeployed, and an `incarnation_uuid` other than this run's is 400
 * IncarnationUuidMismatch (one that is not a UUID: 400 InvalidQueryParameter).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../shared/errors.js';
import type { PipelineHost } from '../../runner/host.js';
import type { PipelineManager } from '../manager.js';
import { deployed } from './completion.js';
import { param, parseUuid, queryError, type Query } from './util.js';

export const NO_CHECKPOINT_SYNC = 'Cannot use enterprise-only feature (checkpoint sync) in this edition: ops serve keeps checkpoints on its local disk and syncs them to no object store.';

const enterpriseFeature = () => new ApiError(501, 'EnterpriseFeature', NO_CHECKPOINT_SYNC, { feature: 'checkpoint sync' });

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
  app.post<{ Params: { name: string } }>('/pipelines/:name/checkpoint', async (req) => {
    deployed(manager, req.params.name);
    const { sequence, incarnation } = manager.checkpoint(req.params.name);
    return { checkpoint_sequence_number: sequence, incarnation_uuid: incarnation };
  });
  app.post('/pipelines/:name/checkpoint/sync', async () => {
    throw enterpriseFeature();
  });

  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoints', async (req) => {
    deployed(manager, req.params.name);
    return manager.checkpointList(manager.get(req.params.name));
  });
  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoint_status', async (req) => {
    const host = sameIncarnation(deployed(manager, req.params.name), req.query as Query);
    return { success: host.checkpointStatus.success, failure: host.checkpointStatus.failure };
  });
  app.get<{ Params: { name: string } }>('/pipelines/:name/checkpoint/sync_status', async (req) => {
    sameIncarnation(deployed(manager, req.params.name), req.query as Query);
    return { success: null, failure: null, periodic: null };
  });
}
