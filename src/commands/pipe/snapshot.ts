/** `ops pipe snapshot NAME VIEW`: the current contents of a view (a table, TSV when piped, or --json rows). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import { isStopped, relationRef } from '../../clients/pipelines.js';
import { client, explain, getPipeline } from './shared.js';

export interface PipeSnapshotOptions {
  name: string;
  /** the view (or table) to read */
  view: string;
}

export function newCmdPipeSnapshot(f: Factory, runF: RunFunction<PipeSnapshotOptions> = runPipeSnapshot): Command {
  return new Command('snapshot')
    .arguments('<name> <view>')
    .description('Print the current contents of a view (a table, or --json)')
    .addHelpText('after', '\nExamples:\n  ops pipe snapshot shop revenue_by_product\n  ops pipe snapshot shop top_customers --json | jq length')
    .action((name: string, view: string) => runWith(f, runF, { name, view }));
}

export async function runPipeSnapshot(opts: PipeSnapshotOptions, ctx: Context): Promise<void> {
  const { name, view } = opts;
  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  if (isStopped(p.deployment.status)) throw new OpsError(`${name} is not running (${p.deployment.status})`, ExitCode.failure, `Start it first: ops pipe start ${name}`);
  let result;
  try {
    result = await pipes.snapshot(name, relationRef([...p.outputs, ...p.inputs], view));
  } catch (err) {
    explain(err, name);
  }
  const { rows, limited } = result;
  if (limited) ctx.out.warn(`the server returned ${rows.length} rows, its limit for a snapshot: the view may hold more`);
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const columns: Column<Record<string, unknown>>[] = keys.map((k) => ({ header: k, key: k }));
  if (rows.length === 0 && ctx.out.format === 'table') ctx.out.info('(empty)');
  await ctx.out.list(rows, columns);
}
