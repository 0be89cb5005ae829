/**
 * `ops pipe query NAME SQL`: an ad-hoc SELECT over a running pipeline's materialized tables and views (a table,
 * TSV when piped, or --json rows), or an INSERT INTO one of its tables (its `count` row). `--format arrow|parquet`
 * writes the server's Arrow IPC stream or Parquet file as it comes to `-o FILE` or a piped stdout (never to a
 * terminal); `--format hash` prints the result's order-independent digest (today's Feldera's `hash` format).
 */
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import type { Column } from '../../core/output.js';
import { client, explain } from './shared.js';

export interface PipeQueryOptions {
  name: string;
  /** one SELECT over the pipeline's materialized tables and views, or one INSERT INTO a table */
  sql: string;
  /** rows (default), or the server's arrow_ipc, parquet or hash answer */
  format?: 'rows' | 'arrow' | 'parquet' | 'hash';
  /** where an arrow, parquet or hash answer goes (default stdout) */
  output?: string;
}

const SERVER_FORMAT = { arrow: 'arrow_ipc', parquet: 'parquet', hash: 'hash' } as const;

export function newCmdPipeQuery(f: Factory, runF: RunFunction<PipeQueryOptions> = runPipeQuery): Command {
  return new Command('query')
    .arguments('<name> <sql>')
    .description('Run an ad-hoc SELECT over the materialized tables and views of a running pipeline (a table, or --json), or an INSERT INTO one of its tables (prints the count)')
    .addHelpText(
      'after',
      `\nExamples:\n  ops pipe query shop "SELECT product, revenue FROM revenue_by_product WHERE revenue > 100"\n  ops pipe query shop "SELECT * FROM top_customers" --json | jq length\n  ops pipe query shop "INSERT INTO orders VALUES (1001, 'ada', 'pen', 2, 5.00, TIMESTAMP '2026-11-22 10:05:00')"`,
    )
    .addOption(
      new Option('--format <format>', 'rows (a table, or --json), or the answer as an Arrow IPC stream, a Parquet file, or its hash').choices(['rows', 'arrow', 'parquet', 'hash']).default('rows'),
    )
    .option('-o, --output <file>', 'write an arrow, parquet or hash answer to this file (default stdout, which must not be a terminal for arrow and parquet)')
    .action((name: string, sql: string, o: { format?: PipeQueryOptions['format']; output?: string }) => runWith(f, runF, { name, sql, format: o.format, output: o.output }));
}

export async function runPipeQuery(opts: PipeQueryOptions, ctx: Context): Promise<void> {
  const { name, sql } = opts;
  if (opts.format !== undefined && opts.format !== 'rows') return writeAnswer(opts.format, opts, ctx);
  if (opts.output !== undefined) throw new UsageError('-o/--output takes an arrow, parquet or hash answer: add --format arrow|parquet|hash, or redirect stdout');
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

/** The server's answer in a binary or digest format, written as it comes: to -o FILE, else to a stdout that is not a terminal. */
async function writeAnswer(format: 'arrow' | 'parquet' | 'hash', opts: PipeQueryOptions, ctx: Context): Promise<void> {
  if (opts.output === undefined && format !== 'hash' && ctx.io.stdoutIsTTY) throw new UsageError(`--format ${format} writes binary data: give -o FILE or redirect stdout`);
  const { pipeline } = await import('node:stream/promises'); // for this verb only, not every `ops pipe` verb
  let body: Readable;
  try {
    body = await client(ctx).queryBytes(opts.name, opts.sql, SERVER_FORMAT[format]);
  } catch (err) {
    explain(err, opts.name);
  }
  if (opts.output === undefined) {
    await pipeline(body, ctx.io.stdout, { end: false });
    if (format === 'hash') ctx.io.stdout.write('\n');
    return;
  }
  try {
    await pipeline(body, createWriteStream(opts.output));
  } catch (err) {
    throw new OpsError(`could not write ${opts.output}: ${(err as Error).message}`, ExitCode.failure);
  }
  ctx.out.info(`wrote the ${format} answer to ${opts.output}`);
}
