/**
 * `ops pipe stats NAME [--watch]`: a summary table on a terminal (sizes and durations in units), key/value
 * lines with the raw numbers when piped, the object with --json.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, ExitCode } from '../../core/errors.js';
import { cellText, type Column } from '../../core/output.js';
import { formatBytes, formatDuration } from '../../core/units.js';
import { relativeTime } from '../../core/time-text.js';
import { flatten } from './render.js';
import { client, explain, getPipeline, sleep } from './shared.js';

export interface PipeStatsOptions {
  name: string;
  watch?: boolean;
  interval?: string;
}

type Obj = Record<string, unknown>;

/** `key\tvalue` pairs: global metrics, then per endpoint (by name), leaving out the (large) pipeline_config and metrics list. */
export function statsPairs(stats: Obj): [string, unknown][] {
  const out: [string, unknown][] = [];
  flatten(stats.global_metrics ?? {}, 'global_metrics', out);
  for (const kind of ['inputs', 'outputs'] as const) {
    const list = Array.isArray(stats[kind]) ? (stats[kind] as Obj[]) : [];
    for (const ep of list) {
      const id = String(ep.endpoint_name ?? '?');
      flatten(ep.metrics ?? {}, `${kind}.${id}.metrics`, out);
      if (ep.fatal_error) out.push([`${kind}.${id}.fatal_error`, ep.fatal_error]);
    }
  }
  return out;
}

const num = (v: unknown) => (typeof v === 'number' ? v : '');
const bytes = (v: unknown) => (typeof v === 'number' ? formatBytes(v) : '');

/** A global metric for people: sizes and durations in units, the start time as a date (the table only). */
export function humanMetric(key: string, value: unknown): string {
  if (typeof value !== 'number') return cellText(value);
  if (/(^|_)bytes$/.test(key)) return formatBytes(value);
  if (/(^|_)(msecs|ms|millis)$/.test(key)) return formatDuration(value);
  if (/(^|_)usecs$/.test(key)) return formatDuration(value / 1000);
  if (key === 'start_time' && value > 1e9) return `${new Date(value * 1000).toISOString()} (${relativeTime(new Date(value * 1000).toISOString())})`;
  return cellText(value);
}

async function drawTable(ctx: Context, stats: Obj): Promise<void> {
  const g = (stats.global_metrics ?? {}) as Obj;
  const globals = Object.entries(g).filter(([, v]) => v === null || typeof v !== 'object');
  const c = ctx.out.c;
  let text = c.bold('global') + '\n';
  const width = Math.max(...globals.map(([k]) => k.length), 1);
  for (const [k, v] of globals) text += `  ${k.padEnd(width)}  ${humanMetric(k, v)}\n`;
  await ctx.out.write(text);
  const inputs = (Array.isArray(stats.inputs) ? stats.inputs : []) as Obj[];
  const outputs = (Array.isArray(stats.outputs) ? stats.outputs : []) as Obj[];
  const m = (ep: Obj) => (ep.metrics ?? {}) as Obj;
  if (inputs.length > 0) {
    await ctx.out.write('\n' + c.bold('inputs') + '\n');
    const cols: Column<Obj>[] = [
      { header: 'endpoint', get: (ep) => ep.endpoint_name, shrink: true },
      { header: 'records', get: (ep) => num(m(ep).total_records) },
      { header: 'bytes', get: (ep) => bytes(m(ep).total_bytes) },
      { header: 'buffered', get: (ep) => num(m(ep).buffered_records) },
      { header: 'parse errors', get: (ep) => num(m(ep).num_parse_errors) },
      { header: 'transport errors', get: (ep) => num(m(ep).num_transport_errors) },
      { header: 'error', get: (ep) => ep.fatal_error ?? '', shrink: true, style: (t, _r, cc) => cc.red(t) },
    ];
    await ctx.out.list(inputs, cols);
  }
  if (outputs.length > 0) {
    await ctx.out.write('\n' + c.bold('outputs') + '\n');
    const cols: Column<Obj>[] = [
      { header: 'endpoint', get: (ep) => ep.endpoint_name, shrink: true },
      { header: 'sent records', get: (ep) => num(m(ep).transmitted_records) },
      { header: 'sent bytes', get: (ep) => bytes(m(ep).transmitted_bytes) },
      { header: 'queued', get: (ep) => num(m(ep).queued_records) },
      { header: 'errors', get: (ep) => num(Number(m(ep).num_encode_errors ?? 0) + Number(m(ep).num_transport_errors ?? 0)) },
      { header: 'error', get: (ep) => ep.fatal_error ?? '', shrink: true, style: (t, _r, cc) => cc.red(t) },
    ];
    await ctx.out.list(outputs, cols);
  }
}

async function show(ctx: Context, stats: Obj): Promise<void> {
  if (ctx.out.format === 'json') return ctx.out.writeJson(stats);
  if (ctx.out.format === 'tsv')
    return ctx.out.write(
      statsPairs(stats)
        .map(([k, v]) => `${k}\t${cellText(v)}\n`)
        .join(''),
    );
  return drawTable(ctx, stats);
}

export function newCmdPipeStats(f: Factory, runF: RunFunction<PipeStatsOptions> = runPipeStats): Command {
  return new Command('stats')
    .arguments('<name>')
    .description('Statistics of a running pipeline (a table, or --json); --watch to refresh')
    .option('--watch', 'refresh: redraw on a terminal, one NDJSON record per sample otherwise')
    .option('--interval <seconds>', 'seconds between samples with --watch', '2')
    .addHelpText('after', '\nExamples:\n  ops pipe stats shop\n  ops pipe stats shop --json | jq .global_metrics\n  ops pipe stats shop --watch')
    .action((name: string, flags: Omit<PipeStatsOptions, 'name'>) => runWith(f, runF, { ...flags, name }));
}

export async function runPipeStats(opts: PipeStatsOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  if (!opts.watch) {
    try {
      return await show(ctx, await pipes.stats(name));
    } catch (err) {
      explain(err, name);
    }
  }
  const interval = Number(opts.interval ?? '2');
  if (!Number.isFinite(interval) || interval <= 0) {
    const { UsageError } = await import('../../core/errors.js');
    throw new UsageError(`--interval must be a positive number of seconds, not "${opts.interval}"`);
  }
  await getPipeline(ctx, pipes, name);
  const redraw = ctx.out.format === 'table';
  ctx.io.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.ok);
  });
  for (;;) {
    let stats: Obj;
    try {
      stats = await pipes.stats(name);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'PipelineNotRunningOrPaused' || err.status === 503)) {
        ctx.out.info(`${name} is not running any more`);
        return;
      }
      explain(err, name);
    }
    if (redraw) {
      await ctx.out.write('\u001b[H\u001b[2J');
      await ctx.out.write(ctx.out.c.dim(`${name} at ${new Date().toISOString()} (every ${interval}s; Ctrl-C to stop)`) + '\n\n');
      await drawTable(ctx, stats);
    } else await ctx.out.ndjson({ time: new Date().toISOString(), ...stats });
    await sleep(interval * 1000);
  }
}
