/** `ops pipe query NAME SQL`: an ad-hoc SELECT over a running pipeline's materialized tables and views (a table, TSV when piped, or --json rows), or an INSERT INTO one of its tables (its `count` row). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import type { Column } from '../../core/output.js';
import { client, explain } from './shared.js';

export interface PipeQueryOptions {
  name: string;
  /** one SELECT over the pipeline's materialized tables and views, or one INSERT INTO a table */
  sql: string;
}

export function newCmdPipeQuery(f: Factory, runF: RunFunction<PipeQueryOptions> = runPipeQuery): Command {
  return new Command('query')
    .arguments('<name> <sql>')
    .description('Run an ad-hoc SELECT over the materialized tables and views of a running pipeline (a table, or --json), or an INSERT INTO one of its tables (prints the count)')
    .addHelpText(
      'after',
      `\nExamples:\n  ops pipe query shop "SELECT product, revenue FROM revenue_by_product WHERE revenue > 100"\n  ops pipe query shop "SELECT * FROM top_customers" --json | jq length\n  ops pipe query shop "INSERT INTO orders VALUES (1001, 'ada', 'pen', 2, 5.00, TIMESTAMP '2026-11-22 10:05:00')"`,
    )
    .action((name: string, sql: string) => runWith(f, runF, { name, sql }));
}

export async function runPipeQuery(opts: PipeQueryOptions, ctx: Context): Promise<void> {
  const { name, sql } = opts;
  let rows: Record<string, unknown>[];
  try {
    rows = await client(ctx).query(name, sql);
  } catch (err) {
    explain(err, name);
  }
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const columns: Column<Record<string, unknown>>[] = keys.map((k) => ({ header: k, key: k }));
  if (rows.length === 0 && ctx.out.format === 'table') ctx.out.info('(no rows)');
  await ctx.out.list(rows, columns);
}
