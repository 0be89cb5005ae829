/**
 * `ops pipe events NAME [ID|latest] [--all]`: today's monitor events of a pipeline (its statuses as the
 * manager recorded them), newest first: a table on a terminal (when, resources, runtime, desired, error,
 * program), TSV when piped, the server's array with --json. With an event id (or `latest`), that one event
 * as key/value lines or its object. --all asks for every field (the details and the deployment error).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import type { Column } from '../../core/output.js';
import { ago } from './render.js';
import { client, explainToday } from './shared.js';

export interface PipeEventsOptions {
  name: string;
  /** an event id (a UUID) or `latest`; all events when omitted */
  event?: string;
  /** every field (`selector=all`) */
  all?: boolean;
}

type Obj = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The desired status: the runtime's while the pipeline is provisioned, else the resources'. */
function desired(e: Obj): string {
  return text(e.deployment_runtime_desired_status) || text(e.deployment_resources_desired_status);
}

function errorText(e: Obj): string {
  const err = e.deployment_error as Obj | null | undefined;
  if (err && typeof err === 'object') return text(err.message) || text(err.error_code);
  return '';
}

/** The columns of the list (and the fields of one event): `tty` shows times as "2m ago". */
export function eventColumns(tty: boolean, all: boolean): Column<Obj>[] {
  const columns: Column<Obj>[] = [
    { header: 'when', get: (e) => (tty ? ago(text(e.recorded_at)) || text(e.recorded_at) : e.recorded_at) },
    { header: 'resources', get: (e) => e.deployment_resources_status },
    { header: 'runtime', get: (e) => e.deployment_runtime_status },
    { header: 'desired', get: desired },
    { header: 'error', get: (e) => (e.deployment_has_error === true ? 'yes' : 'no'), style: (t, _e, c) => (t === 'yes' ? c.red(t) : t) },
    { header: 'program', get: (e) => e.program_status },
  ];
  if (all) columns.push({ header: 'error message', get: errorText, shrink: true, optional: true });
  return columns;
}

export function newCmdPipeEvents(f: Factory, runF: RunFunction<PipeEventsOptions> = runPipeEvents): Command {
  return new Command('events')
    .arguments('<name> [event]')
    .description("A pipeline's monitor events (its statuses over time), newest first; or one event by id or `latest`")
    .option('--all', 'every field: the status details and the deployment error')
    .addHelpText('after', examples('ops pipe events shop', 'ops pipe events shop latest --all --json', "ops pipe events shop --json | jq -r '.[].deployment_runtime_status'"))
    .action((name: string, event: string | undefined, flags: Omit<PipeEventsOptions, 'name' | 'event'>) => runWith(f, runF, { ...flags, name, event }));
}

export async function runPipeEvents(opts: PipeEventsOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  const selector = opts.all ? 'all' : 'status';
  const tty = ctx.out.format === 'table';
  const columns = eventColumns(tty, Boolean(opts.all));
  try {
    if (opts.event !== undefined) {
      const event = await pipes.event(opts.name, opts.event, selector);
      return await ctx.out.item(event, [{ header: 'id', get: (e) => e.event_id }, ...eventColumns(false, Boolean(opts.all))]);
    }
    const events = await pipes.events(opts.name, selector);
    if (events.length === 0 && tty) ctx.out.info(`no events recorded for ${opts.name}`);
    await ctx.out.list(events, columns);
  } catch (err) {
    explainToday(err, opts.name, 'monitor events');
  }
}
