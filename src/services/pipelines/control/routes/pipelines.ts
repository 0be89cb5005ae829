/**
 * Pipeline definitions and lifecycle actions: /programs, /pipelines, /pipelines/{name}[/start|pause|shutdown]
 * (v0.24) and today's /stop, /resume, /clear, /dismiss_error, /start_transaction, /commit_transaction,
 * /update_runtime (the pipeline object: one runtime here) and /start_compaction (a no-op on a deployed pipeline) beside
 * them (the transaction actions, today's API only, answer 503 PipelineInteractionNotDeployed as the other
 * forwarded requests when the pipeline is not deployed). Pipeline objects are answered in the shape of the
 * server's forced API (`--feldera`, `--pipeline-api`), else of the requesting client's (client-api.ts: a
 * request's mark, else the pipeline's creating client's kind).
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../shared/errors.js';
import { createBody, patchBody, replaceBody, validateProgramBody } from './bodies.js';
import type { PipelineManager } from '../manager.js';
import { PIPELINE_SELECTORS, serializePipeline as serialize, serializeProgram, type DeploymentState, type PipelineApi, type PipelineRecord } from '../model.js';
import { answerApi, clientApiOf, type ClientRequest } from '../client-api.js';
import { deployed } from './completion.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';
import { choice, flag, type Query } from './query-fields.js';

/** GET /pipelines: ?selector (all, status, ...) and ?code (the program's SQL in each answer). */
const listQuery = objectOf({ selector: choice(PIPELINE_SELECTORS, 'all'), code: flag(true) });
/** GET /pipelines/{name}: ?code, then ?selector (read in this order by the manager). */
const oneQuery = objectOf({ code: flag(true), selector: choice(PIPELINE_SELECTORS, 'all') });
/**
 * POST /pipelines/{name}/{action}: ?force (stop: discard the storage), read by /stop only; ?initial, read by
 * /start only: `paused` starts paused, anything else (`running`, `standby`, a repeated one) running.
 */
const actionQuery = objectOf({
  force: flag(false),
  initial: optional(field<string>({ type: 'string', enum: ['running', 'paused', 'standby'] }, (v) => (typeof v === 'string' ? v : undefined))),
});
type Named = { name: string };

/** `forced`: the API every client gets (`ops serve --feldera`/`--pipeline-api`); undefined: each client its own. */
/** A pipeline object as the requesting client reads it (its API, ?selector, today's storage status). */
type SerializePipeline = (req: ClientRequest, rec: PipelineRecord, dep: DeploymentState, opts?: { code?: boolean; selector?: (typeof PIPELINE_SELECTORS)[number] }) => unknown;

const described = (req: { headers: ClientRequest['headers']; query: unknown }, body: unknown): ClientRequest => ({ headers: req.headers, query: req.query as Query, body });

export function pipelineRoutes(app: FastifyInstance, manager: PipelineManager, forced?: PipelineApi): void {
  const serializePipeline: SerializePipeline = (req, rec, dep, opts = {}) => {
    const api = answerApi(forced, req, rec.client_api);
    return serialize(rec, dep, {
      ...opts,
      api,
      // only the two reads take ?selector; a write answers the whole object and ignores it, as Feldera does
      // (read after the write, a bad value answered 400 for a pipeline already created)
      selector: opts.selector ?? 'all',
      ...(api === 'current' ? { storage: manager.storageStatus(manager.get(rec.name)) } : {}),
    });
  };
  definitionRoutes(app, manager, serializePipeline);
  validateProgramRoute(app, manager);
  lifecycleRoute(app, manager, serializePipeline);
}

/** /programs and the pipeline definitions: list, create, read, replace, change, delete. */
function definitionRoutes(app: FastifyInstance, manager: PipelineManager, serializePipeline: SerializePipeline): void {
  app.get('/programs', async () => manager.list().map((e) => serializeProgram(e.rec)));

  declareRoute(app, {
    method: 'GET',
    url: '/pipelines',
    summary: 'List the pipelines',
    query: listQuery,
    handler: async (req, _reply, input) => {
      const { code, selector } = input.query; // the selector is refused even when there is no pipeline to answer
      return manager.list().map((e) => serializePipeline(described(req, undefined), e.rec, e.dep, { code, selector }));
    },
  });

  declareRoute(app, {
    method: 'POST',
    url: '/pipelines',
    summary: 'Create a pipeline',
    body: createBody,
    handler: async (req, reply, input) => {
      const { udf_rust: _r, udf_toml: _t, tags: _g, ...descr } = input.body;
      const client = described(req, input.body);
      const e = manager.create({ ...descr, client_api: clientApiOf(client) ?? undefined });
      return reply.code(201).send(serializePipeline(client, e.rec, e.dep));
    },
  });

  declareRoute<undefined, ReturnType<typeof oneQuery.check>, Named>(app, {
    method: 'GET',
    url: '/pipelines/:name',
    summary: 'A pipeline',
    query: oneQuery,
    handler: async (req, reply, input) => {
      reply.header('cache-control', 'no-cache');
      const e = manager.get(req.params.name); // an unknown pipeline is answered before its query is read
      const { code, selector } = input.query;
      return serializePipeline(described(req, undefined), e.rec, e.dep, { code, selector });
    },
  });

  declareRoute<ReturnType<typeof replaceBody.check>, undefined, Named>(app, {
    method: 'PUT',
    url: '/pipelines/:name',
    summary: 'Create or replace a pipeline',
    body: replaceBody,
    handler: async (req, reply, input) => {
      const { udf_rust: _r, udf_toml: _t, tags: _g, name = req.params.name, ...descr } = input.body;
      const client = described(req, input.body);
      const { entry, created } = manager.put(req.params.name, { ...descr, name, client_api: clientApiOf(client) ?? undefined });
      return reply.code(created ? 201 : 200).send(serializePipeline(client, entry.rec, entry.dep));
    },
  });

  declareRoute<ReturnType<typeof patchBody.check>, undefined, Named>(app, {
    method: 'PATCH',
    url: '/pipelines/:name',
    summary: "Change some of a pipeline's fields",
    body: patchBody,
    handler: async (req, _reply, input) => {
      const { udf_rust: _r, udf_toml: _t, tags: _g, ...changes } = input.body; // checked before the pipeline is looked up
      const e = manager.patch(req.params.name, changes);
      return serializePipeline(described(req, input.body), e.rec, e.dep);
    },
  });

  app.delete<{ Params: { name: string } }>('/pipelines/:name', async (req, reply) => {
    manager.delete(req.params.name);
    return reply.code(200).send('');
  });
}

/** Today's API: compile without creating; 200 whatever the outcome ({Success} | {SqlError} | {SystemError}), as Feldera answers. */
function validateProgramRoute(app: FastifyInstance, manager: PipelineManager): void {
  declareRoute(app, {
    method: 'POST',
    url: '/validate_program',
    summary: 'Compile a program without creating a pipeline',
    body: validateProgramBody,
    handler: async (_req, reply, input) => {
      const out = await manager.validateProgram(input.body.program_code);
      reply.header('cache-control', 'no-cache');
      if (out.ok) return { Success: { program_info: out.info } };
      if ('messages' in out) return { SqlError: { info: { exit_code: 1, messages: out.messages } } };
      return { SystemError: { error: out.systemError } };
    },
  });
}

/** POST /pipelines/{name}/{action}: the lifecycle actions (202, or the action's own answer). */
function lifecycleRoute(app: FastifyInstance, manager: PipelineManager, serializePipeline: SerializePipeline): void {
  declareRoute<undefined, ReturnType<typeof actionQuery.check>, Named & { action: string }>(app, {
    method: 'POST',
    url: '/pipelines/:name/:action',
    summary: 'A lifecycle action: start, pause, shutdown, stop, resume, clear, dismiss_error, start_transaction, commit_transaction',
    query: actionQuery,
    handler: async (req, reply, input) => {
      const { name, action } = req.params;
      manager.get(name);
      switch (action) {
        case 'start': {
          // today's `initial=paused` starts paused (`standby` has no meaning without shared storage: running)
          if (input.query.initial === 'paused') manager.pause(name);
          else manager.start(name);
          break;
        }
        case 'pause':
          manager.pause(name);
          break;
        case 'shutdown':
          await manager.shutdown(name);
          break;
        case 'stop': {
          // today's API: force=false (the default) checkpoints and keeps the storage, force=true discards it;
          // a failed pipeline stays failed until /dismiss_error
          const { force } = input.query;
          await manager.stop(name, { force });
          break;
        }
        case 'resume':
          manager.resume(name);
          break;
        case 'clear':
          manager.clearStorage(name);
          break;
        case 'dismiss_error':
          await manager.dismissError(name);
          return reply.code(200).send('');
        case 'start_transaction':
          return reply.code(200).send({ transaction_id: deployed(manager, name).startTransaction() });
        case 'commit_transaction':
          // answered once the commit's one step is taken (Feldera answers when it begins; its SDK then polls stats)
          await deployed(manager, name).commitTransaction();
          return reply.code(200).type('application/json').send(JSON.stringify('Transaction commit initiated'));
        case 'update_runtime': {
          // today's "recompile with the platform's runtime": ops serve has one runtime, which compiled it already;
          // the pipeline object is the answer, as Feldera's
          const e = manager.get(name);
          return reply.code(200).send(serializePipeline({ headers: req.headers, query: req.query as Query }, e.rec, e.dep));
        }
        case 'start_compaction':
          // today's "compact the state now": a deployed pipeline's state here is compact already (no LSM levels)
          deployed(manager, name);
          return reply.code(200).send('');
        default:
          throw Errors.invalidAction(action);
      }
      return reply.code(202).send('');
    },
  });
}
