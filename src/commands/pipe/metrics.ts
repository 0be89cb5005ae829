/**
 * `ops pipe metrics NAME [--json]`: today's metrics of a running or paused pipeline. The Prometheus text is
 * printed as the server wrote it (control characters stripped) (to pipe into a file or a scraper's textfile directory); --json prints
 * Feldera's JSON form (`[{key, type, description, values}]`) instead.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { sanitize } from '../../core/sanitize.js';
import { client, explainToday } from './shared.js';

export interface PipeMetricsOptions {
  name: string;
}

export function newCmdPipeMetrics(f: Factory, runF: RunFunction<PipeMetricsOptions> = runPipeMetrics): Command {
  return new Command('metrics')
    .arguments('<name>')
    .description("Metrics of a running pipeline: the Prometheus text, or Feldera's JSON form with --json")
    .addHelpText('after', examples('ops pipe metrics shop | grep records_input_total', 'ops pipe metrics shop --json | jq \'.[] | select(.key == "dbsp_steps_total")\''))
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runPipeMetrics(opts: PipeMetricsOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  let metrics: unknown;
  try {
    metrics = await pipes.metrics(opts.name, ctx.json ? 'json' : 'prometheus');
  } catch (err) {
    explainToday(err, opts.name, 'metrics');
  }
  if (ctx.json) return ctx.out.writeJson(metrics);
  const text = sanitize(String(metrics), { keepNewlines: true });
  await ctx.out.write(text.endsWith('\n') || text === '' ? text : text + '\n');
}
