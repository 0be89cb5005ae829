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
import { FelderaError } from '../../shared/errors.js';
import type { PipelineHost } from '../../runner/host.js';
import type { PipelineManager } from '../manager.js';
import { deployed } from './completion.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';
import { param, queryError, type Query } from './query-fields.js';
import { parseUuid } from './uuid.js';

export const NO_CHECKPOINT_SYNC = 'Cannot use enterprise-only feature (checkpoint sync) in this edition: ops serve keeps checkpoints on its local disk and syncs them to no object store.';

const enterpriseFeature = () => new FelderaError(501, 'EnterpriseFeature', NO_CHECKPOINT_SYNC, { feature: 'checkpoint sync' });

/** ?incarnation_uuid: a UUID in any form Rust's uuid crate reads, as its lower-case hyphenated form. */
const incarnationQuery = objectOf({
  incarnation_uuid: optional(
    field<string>({ type: 'string', format: 'uuid' }, (v, _fail, name) => {
      const given = param({ [name]: v } as Query, name)!;
      const parsed = parseUuid(given);
      if ('error' in parsed) throw queryError(`UUID parsing failed: ${parsed.error}`, name, given);
      return parsed.uuid;
    }),
  ),
});
type IncarnationQuery = ReturnType<typeof incarnationQuery.check>;

/** The pipeline's host after checking `incarnation_uuid` (when given) against this run's. */
function sameIncarnation(host: PipelineHost, query: IncarnationQuery): PipelineHost {
  const given = query.incarnation_uuid;
  if (given === undefined) return host;
  if (given !== host.incarnation)
    throw new FelderaError(400, 'IncarnationUuidMismatch', `Incarnation UUID mismatch (${given} in request, expected ${host.incarnation})`, {
      requested: given,
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
  declareRoute<undefined, IncarnationQuery, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/checkpoint_status',
    summary: "The pipeline's last checkpoint written and last failure",
    query: incarnationQuery,
    handler: async (req, _reply, input) => {
      const host = deployed(manager, req.params.name); // a pipeline not deployed is answered before its query is read
      sameIncarnation(host, input.query);
      return { success: host.checkpointStatus.success, failure: host.checkpointStatus.failure };
    },
  });
  declareRoute<undefined, IncarnationQuery, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/checkpoint/sync_status',
    summary: 'Checkpoint sync to object storage (none here)',
    query: incarnationQuery,
    handler: async (req, _reply, input) => {
      sameIncarnation(deployed(manager, req.params.name), input.query);
      return { success: null, failure: null, periodic: null };
    },
  });
}
