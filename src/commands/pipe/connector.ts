/**
 * `ops pipe connector start|pause|stats NAME TABLE CONNECTOR`: today's input connector orchestration (fda's
 * `connector` verbs). `pause` stops the connector reading (what it read and has not applied stays queued),
 * `start` resumes it; both print what the connector now is (its stats' `paused` and records). `stats` prints
 * the connector's status and figures. The connector is named as in the program (`unnamed-N` for one without a
 * name); the table as in other commands. Errors: an unknown table or connector, a pipeline that is not
 * deployed (exit 1 with a hint), a v0.24-era server without these routes (exit 1, said so).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiError, ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import type { PipelinesClient } from '../../clients/pipelines.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { client, explainToday } from './shared.js';

const WHAT = 'input connector start and pause';

export interface PipeConnectorOptions {
  name: string;
  table: string;
  connector: string;
}

export interface PipeConnectorActionOptions extends PipeConnectorOptions {
  action: 'start' | 'pause';
}

/** `ops pipe connector`: the group and its verbs. */
export function newCmdPipeConnector(f: Factory): Command {
  const group = new Command('connector')
    .description('Input connectors: pause one (it stops reading; what it read stays queued), start it again, see its stats')
    .addHelpText('after', examples('ops pipe connector pause shop orders seed', 'ops pipe connector start shop orders seed', 'ops pipe connector stats shop orders seed --json'));
  return addVerbs(group, newCmdPipeConnectorAction(f, 'start'), newCmdPipeConnectorAction(f, 'pause'), newCmdPipeConnectorStats(f));
}

export function newCmdPipeConnectorAction(f: Factory, action: 'start' | 'pause', runF: RunFunction<PipeConnectorActionOptions> = runPipeConnectorAction): Command {
  return new Command(action)
    .arguments('<name> <table> <connector>')
    .description(
      action === 'start'
        ? 'Start (resume) an input connector: it reads again, its queued data is applied'
        : 'Pause an input connector: it stops reading, what it read and has not applied stays queued',
    )
    .addHelpText('after', examples(`ops pipe connector ${action} shop orders seed`))
    .action((name: string, table: string, connector: string) => runWith(f, runF, { name, table, connector, action }));
}

export function newCmdPipeConnectorStats(f: Factory, runF: RunFunction<PipeConnectorOptions> = runPipeConnectorStats): Command {
  return new Command('stats')
    .arguments('<name> <table> <connector>')
    .description("An input connector's status and figures (paused, records, bytes, errors)")
    .addHelpText('after', examples('ops pipe connector stats shop orders seed', 'ops pipe connector stats shop orders seed --json | jq .paused'))
    .action((name: string, table: string, connector: string) => runWith(f, runF, { name, table, connector }));
}

/** The server's error in the user's words: an unknown connector or table, a server without these routes. */
function explainConnector(err: unknown, o: PipeConnectorOptions): never {
  if (err instanceof ApiError && err.code === 'UnknownInputEndpoint') {
    throw new OpsError(
      `${sanitize(o.name)} has no input connector "${sanitize(o.connector)}" on table "${sanitize(o.table)}"`,
      ExitCode.failure,
      `\`ops pipe stats ${o.name} --json\` lists its input connectors (TABLE.CONNECTOR; unnamed ones are unnamed-N).`,
    );
  }
  explainToday(err, o.name, WHAT);
}

async function statsOf(pipes: PipelinesClient, o: PipeConnectorOptions): Promise<Record<string, unknown>> {
  try {
    return await pipes.connectorStats(o.name, o.table, o.connector);
  } catch (err) {
    explainConnector(err, o);
  }
}

/** The connector's stats as one row: endpoint, state, records and bytes, queued records, errors. */
async function printStats(ctx: Context, stats: Record<string, unknown>): Promise<void> {
  const metrics = (stats.metrics ?? {}) as Record<string, unknown>;
  const num = (key: string) => (typeof metrics[key] === 'number' ? metrics[key] : '');
  await ctx.out.item(stats, [
    { header: 'endpoint', get: (s) => String(s.endpoint_name ?? '') },
    { header: 'state', get: (s) => (s.paused === true ? 'paused' : 'running') },
    { header: 'records', get: () => num('total_records') },
    { header: 'bytes', get: () => num('total_bytes') },
    { header: 'queued', get: () => num('buffered_records') },
    { header: 'end of input', get: () => (metrics.end_of_input === true ? 'yes' : 'no') },
    { header: 'errors', get: () => Number(metrics.num_transport_errors ?? 0) + Number(metrics.num_parse_errors ?? 0) },
    { header: 'fatal error', get: (s) => (typeof s.fatal_error === 'string' ? s.fatal_error : '') },
  ]);
}

export async function runPipeConnectorAction(o: PipeConnectorActionOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  try {
    await pipes.connectorAction(o.name, o.table, o.connector, o.action);
  } catch (err) {
    explainConnector(err, o);
  }
  const stats = await statsOf(pipes, o);
  if (ctx.json) return ctx.out.writeJson(stats);
  const endpoint = sanitize(String(stats.endpoint_name ?? `${o.table}.${o.connector}`));
  ctx.out.success(`${sanitize(o.name)}: input connector ${endpoint} ${stats.paused === true ? 'paused' : 'started'}`);
}

export async function runPipeConnectorStats(o: PipeConnectorOptions, ctx: Context): Promise<void> {
  const stats = await statsOf(client(ctx), o);
  if (ctx.json) return ctx.out.writeJson(stats);
  await printStats(ctx, stats);
}
