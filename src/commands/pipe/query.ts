/** `ops pipe query NAME SQL`: an ad-hoc SELECT over a running pipeline's materialized tables and views (a table, TSV when piped, or --json rows). */
import type { Context } from '../../context.js';
import type { Column } from '../../core/output.js';
import { client, explain } from './shared.js';

export async function pipeQuery(ctx: Context, name: string, sql: string): Promise<void> {
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
