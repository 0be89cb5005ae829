/**
 * Pipeline definitions and lifecycle actions: /programs, /pipelines, /pipelines/{name}[/start|pause|shutdown]
 * (v0.24) and today's /stop, /resume, /clear, /dismiss_error, /start_transaction, /commit_transaction beside
 * them (the transaction actions, today's API only, answer 503 PipelineInteractionNotDeployed as the other
 * forwarded requests when the pipeline is not deployed). Pipeline objects are answered in
 * the shape of the server's `--pipeline-api`.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../errors.js';
import type { PipelineManager } from '../manager.js';
import { serializePipeline as serialize, serializeProgram, type DeploymentState, type PipelineApi, type PipelineRecord } from '../model.js';
import { deployed } from './completion.js';
import { boolParam, jsonBody, parseDescr, parsePatch, type Query } from './util.js';

export function pipelineRoutes(app: FastifyInstance, manager: PipelineManager, api: PipelineApi = 'v0.24'): void {
  const serializePipeline = (rec: PipelineRecord, dep: DeploymentState, opts: { code?: boolean } = {}) =>
    serialize(rec, dep, { ...opts, api, ...(api === 'current' ? { storage: manager.storageStatus(manager.get(rec.name)) } : {}) });
  const view = (name: string, code = true) => {
    const e = manager.get(name);
    return serializePipeline(e.rec, e.dep, { code });
  };

  app.get('/programs', async () => manager.list().map((e) => serializeProgram(e.rec)));

  app.get('/pipelines', async (req) => {
    const code = boolParam(req.query as Query, 'code', true);
    return manager.list().map((e) => serializePipeline(e.rec, e.dep, { code }));
  });

  app.post('/pipelines', async (req, reply) => {
    const d = parseDescr(jsonBody(req), undefined);
    const e = manager.create(d);
    return reply.code(201).send(serializePipeline(e.rec, e.dep));
  });

  app.get<{ Params: { name: string } }>('/pipelines/:name', async (req, reply) => {
    reply.header('cache-control', 'no-cache');
    return view(req.params.name, boolParam(req.query as Query, 'code', true));
  });

  app.put<{ Params: { name: string } }>('/pipelines/:name', async (req, reply) => {
    const d = parseDescr(jsonBody(req), req.params.name);
    const { entry, created } = manager.put(req.params.name, d);
    return reply.code(created ? 201 : 200).send(serializePipeline(entry.rec, entry.dep));
  });

  app.patch<{ Params: { name: string } }>('/pipelines/:name', async (req) => {
    const e = manager.patch(req.params.name, parsePatch(jsonBody(req)));
    return serializePipeline(e.rec, e.dep);
  });

  app.delete<{ Params: { name: string } }>('/pipelines/:name', async (req, reply) => {
    manager.delete(req.params.name);
    return reply.code(200).send('');
  });

  app.post<{ Params: { name: string; action: string } }>('/pipelines/:name/:action', async (req, reply) => {
    const { name, action } = req.params;
    manager.get(name);
    switch (action) {
      case 'start': {
        // today's `initial=paused` starts paused (`standby` has no meaning without shared storage: running)
        const initial = (req.query as Query).initial;
        if (initial === 'paused') manager.pause(name);
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
        const force = boolParam(req.query as Query, 'force', false);
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
      default:
        throw Errors.invalidAction(action);
    }
    return reply.code(202).send('');
  });
}
