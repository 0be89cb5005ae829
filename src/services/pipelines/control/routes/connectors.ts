/**
 * Today's Feldera input connector orchestration: `POST .../tables/{table}/connectors/{connector}/start|pause`
 * (docs/pipelines.md, "Input connectors: start and pause"). A connector's stats are answered by misc.ts.
 *
 * Rules (as today's Feldera): the endpoint is `{table}.{connector}`, the table name read as an SQL identifier
 * (case-insensitive unless quoted); start and pause answer 200 with an empty body once the pipeline's process
 * did it (and kept it in storage: a restart finds the connector as left); another action is 400
 * InvalidConnectorAction; an unknown table or connector is 404 UnknownInputEndpoint; a pipeline that is not
 * deployed gets 503 PipelineInteractionNotDeployed. The connector's entry of `/stats` `inputs` has `paused`: whether
 * the user paused it. A connector is active only while both it and the pipeline
 * run; a paused one keeps what it read and has not applied queued (buffered).
 */
import type { FastifyInstance } from 'fastify';
import { FelderaError } from '../../shared/errors.js';
import type { PipelineManager } from '../manager.js';
import { findRelation } from '../../shared/names.js';
import { deployed } from './completion.js';

type ConnectorParams = { name: string; table: string; connector: string };

const ConnectorErrors = {
  invalidAction: (action: string) => new FelderaError(400, 'InvalidConnectorAction', `Invalid connector action '${action}'; valid actions are: 'start' or 'pause'`, { action }),
  unknownInputEndpoint: (endpoint: string) => new FelderaError(404, 'UnknownInputEndpoint', `unknown input endpoint name '${endpoint}'`, { endpoint_name: endpoint }),
};

/** `{table}.{connector}` with the table's declared name (as Feldera names an input endpoint). */
function endpointName(tableName: string | undefined, params: ConnectorParams): string {
  return `${tableName ?? params.table}.${params.connector}`;
}

export function connectorRoutes(app: FastifyInstance, manager: PipelineManager): void {
  app.post<{ Params: ConnectorParams & { action: string } }>('/pipelines/:name/tables/:table/connectors/:connector/:action', async (req, reply) => {
    const { action } = req.params;
    if (action !== 'start' && action !== 'pause') throw ConnectorErrors.invalidAction(action);
    const host = deployed(manager, req.params.name);
    const table = findRelation(host.program, req.params.table, 'table');
    const endpoint = endpointName(table?.name, req.params);
    if (!table) throw ConnectorErrors.unknownInputEndpoint(endpoint);
    await host.setConnectorPaused(endpoint, action === 'pause');
    return reply.code(200).send();
  });
}
