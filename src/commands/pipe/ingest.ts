/** `ops pipe ingest NAME TABLE [FILE|-]`: batches of rows or changes, progress, summary, --wait. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, ExitCode, OpsError, TimeoutError, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { findRelation, isStopped, relationRef, type PipelinesClient } from '../../clients/pipelines.js';
import { InputError, batches, csvRecordGroups, formatFromName, jsonEventGroups, skipRecords, type IngestFormat } from '../../clients/pipelines/ingest-input.js';
import { watchInterrupts } from '../../core/interrupts.js';
import { applyCsvHeader } from '../../clients/pipelines/csv-header.js';
import { startProgress } from '../../core/progress.js';
import { DEFAULT_WAIT, POLL_MS, client, explain, getPipeline, parsePositiveInt, sleep, waitLimitMs } from './shared.js';
import { cannotRead } from '../../core/file-errors.js';

export interface PipeIngestOptions {
  name: string;
  table: string;
  /** NDJSON, a JSON array or CSV; "-" or undefined reads stdin */
  file?: string;
  format?: IngestFormat;
  /** CSV: true = the first record is a header, false = it is data, undefined = a header when it names the columns */
  header?: boolean;
  batchSize?: string;
  /** leave out the first N records of the input (to resume an interrupted ingest) */
  skip?: string;
  wait?: boolean;
  force?: boolean;
}

/** A count of records: a whole number, 0 or more. */
function parseCount(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number (0 or more), not "${value}"`);
  return n;
}

/** JSON when the input starts with `{` or `[`; anything else needs --format csv. */
export function sniffFormat(head: string): IngestFormat | undefined {
  const first = head.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === undefined) return undefined;
  return first === '{' || first === '[' ? 'json' : undefined;
}

/** The input as chunks, with the first chunk read ahead (to sniff the format of stdin). */
async function peeked(stream: AsyncIterable<Buffer | string>): Promise<{ head: string; chunks: AsyncIterable<Buffer | string> }> {
  const it = stream[Symbol.asyncIterator]();
  const firsts: (Buffer | string)[] = [];
  let head = '';
  let done = false;
  while (head.trim() === '' && !done) {
    const r = await it.next();
    if (r.done) done = true;
    else {
      firsts.push(r.value);
      head += typeof r.value === 'string' ? r.value : r.value.toString('utf8', 0, Math.min(r.value.length, 4096));
    }
  }
  async function* chunks(): AsyncGenerator<Buffer | string> {
    yield* firsts;
    if (done) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  return { head, chunks: chunks() };
}

export function newCmdPipeIngest(f: Factory, runF: RunFunction<PipeIngestOptions> = runPipeIngest): Command {
  return new Command('ingest')
    .arguments('<name> <table> [file]')
    .description('Send rows or changes to a table: NDJSON, a JSON array, or CSV; "-" or no file reads stdin')
    .addOption(new Option('--format <format>', 'input format (default: from the file name, else JSON)').choices(['json', 'csv']))
    .option('--batch-size <n>', 'records per request', '1000')
    .option('--skip <n>', 'leave out the first N records of the input (to go on after an interrupted ingest)')
    .option('--header', 'CSV: the first line is a header naming the columns (default: when it names them)')
    .option('--no-header', 'CSV: the first line is a row, even if it looks like a header')
    .option('--wait', 'return when the pipeline has processed everything sent')
    .option('--force', 'send even while the pipeline is paused')
    .addHelpText(
      'after',
      '\nJSON records are rows (sent as inserts) or changes: {"insert": row}, {"delete": row}, {"update": row}.\nCSV fields are in the table\'s column order, unless the first line is a header naming the columns (any\norder, any case): then each record is mapped by name.\nExamples:\n  ops pipe ingest shop orders orders.ndjson\n  ops pipe ingest shop orders rows.json --wait\n  cat orders.csv | ops pipe ingest shop orders - --format csv --batch-size 5000',
    )
    .action((name: string, table: string, file: string | undefined, flags: Omit<PipeIngestOptions, 'name' | 'table' | 'file'>) => runWith(f, runF, { ...flags, name, table, file }));
}

export async function runPipeIngest(opts: PipeIngestOptions, ctx: Context): Promise<void> {
  const { name, table, file } = opts;
  const size = parsePositiveInt(opts.batchSize ?? '1000', '--batch-size');
  const skip = opts.skip === undefined ? 0 : parseCount(opts.skip, '--skip');
  let input: AsyncIterable<Buffer | string>;
  let format = opts.format;
  let label: string;
  if (file && file !== '-') {
    try {
      if ((await stat(file)).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } catch (err) {
      throw new OpsError(cannotRead(file, err));
    }
    input = createReadStream(file);
    format ??= formatFromName(file);
    label = file;
  } else {
    if (ctx.io.stdinIsTTY) throw new UsageError('no input given', 'Give a FILE, or pipe the records on stdin: cat rows.ndjson | ops pipe ingest NAME TABLE -');
    input = ctx.io.stdin;
    label = 'stdin';
  }
  const { head, chunks } = await peeked(input);
  if (!format) {
    format = sniffFormat(head);
    if (!format) {
      if (head.trim() === '') format = 'json';
      else throw new UsageError(`cannot tell the format of ${label}: it does not start with "{" or "["`, 'For CSV, pass --format csv.');
    }
  }

  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  if (isStopped(p.deployment.status)) {
    throw new OpsError(`${name} is not running (${p.deployment.status})`, ExitCode.failure, `Start it first: ops pipe start ${name}`);
  }
  // A paused pipeline holds pushed records until it runs: say so now rather than time out.
  if (p.deployment.status === 'Paused' && !opts.force) {
    throw new OpsError(`${name} is paused: it takes no records until it runs`, ExitCode.failure, `Start it with \`ops pipe start ${name}\`, or pass --force to queue the records while it is paused.`);
  }
  if (p.inputs.length > 0 && !findRelation(p.inputs, table)) {
    throw new OpsError(`${name} has no table "${sanitize(table)}"`, ExitCode.failure, `Its tables: ${p.inputs.map((r) => r.name).join(', ')}`);
  }
  const tableRef = relationRef(p.inputs, table);
  const legacyWait = opts.wait && p.generation === 'legacy';
  const baseline = legacyWait ? await inputRecords(pipes, name) : 0;

  const progress = await startProgress(ctx.io, `${name}/${table}: sending`, { json: ctx.json, plainLines: false });
  const columns = findRelation(p.inputs, table)?.fields?.map((f) => f.name);
  const records =
    format === 'csv'
      ? applyCsvHeader(csvRecordGroups(chunks), {
          header: opts.header,
          columns: columns?.length ? columns : undefined,
          onHeader: (read) => read && !ctx.json && ctx.out.info(`${label}: reading the first line as a header (--no-header to send it as a row)`),
        })
      : jsonEventGroups(chunks);
  let sent = 0;
  let batchCount = 0;
  const tokens: string[] = [];
  // Ctrl-C while sending: the batch in flight is finished, then the command says how far it got and how to resume
  const interrupts = watchInterrupts();
  const stopped = (inFlight?: { first: number; records: number }): OpsError => {
    progress.stop();
    const upTo = skip + sent;
    const accepted = sent === 0 ? 'no record was accepted' : `records ${skip + 1}-${upTo} were sent and accepted (${sent})`;
    const resume = (from: number) => `ops pipe ingest ${name} ${table} ${file && file !== '-' ? file : '-'}${format === 'csv' ? ' --format csv' : ''} --skip ${from}`;
    if (!inFlight) return new OpsError(`interrupted: ${accepted}; nothing after record ${upTo} was sent`, ExitCode.interrupted, `To go on from there: ${resume(upTo)}`);
    const last = inFlight.first + inFlight.records - 1;
    return new OpsError(
      `interrupted: ${accepted}; records ${inFlight.first}-${last} were in flight and may or may not have been applied`,
      ExitCode.interrupted,
      `To go on from there: ${resume(upTo)} (if records ${inFlight.first}-${last} are in the table, --skip ${last})`,
    );
  };
  try {
    const iterator = batches(skip > 0 ? skipRecords(records, skip) : records, size, skip + 1)[Symbol.asyncIterator]();
    for (;;) {
      const next = await Promise.race([iterator.next(), interrupts.first.then(() => 'interrupted' as const)]);
      if (next === 'interrupted') throw stopped();
      if (next.done) break;
      const batch = next.value;
      try {
        const request = pipes.ingest(name, tableRef, batch.body, { format, array: format === 'json', force: opts.force });
        const res = await Promise.race([request, interrupts.second.then(() => 'interrupted' as const)]);
        if (res === 'interrupted') throw stopped(batch);
        if (res.token) tokens.push(res.token);
      } catch (err) {
        if (err instanceof OpsError && err.exitCode === ExitCode.interrupted) throw err;
        progress.stop();
        if (err instanceof ApiError && err.code !== 'UnknownPipelineName') {
          const range = `records ${batch.first}-${batch.first + batch.records - 1}`;
          const partial = format === 'csv' ? ' (in CSV the valid records of that batch may have been taken)' : '';
          const accepted = `${sent} record${sent === 1 ? ' was' : 's were'} accepted before it${partial}.`;
          const bad = badRecords(err, batch.first);
          if (bad) throw new OpsError(`the batch of ${range} was refused: ${bad.headline}`, err.exitCode, [...bad.lines, accepted].join('\n'));
          throw new OpsError(`the batch of ${range} was refused: ${err.message}`, err.exitCode, accepted);
        }
        explain(err, name);
      }
      sent += batch.records;
      batchCount++;
      progress.update(`${name}/${table}: sent ${sent} record${sent === 1 ? '' : 's'} (${batchCount} batch${batchCount === 1 ? '' : 'es'})`);
      if (interrupts.count > 0) throw stopped();
    }
  } catch (err) {
    progress.stop();
    interrupts.dispose();
    if (err instanceof InputError) {
      throw new OpsError(`${label}: ${err.message}`, ExitCode.failure, `${sent} record${sent === 1 ? ' was' : 's were'} sent before it.`);
    }
    throw err;
  }

  interrupts.dispose();
  let processed: boolean | undefined;
  if (opts.wait && sent > 0) {
    progress.update(`${name}/${table}: sent ${sent}; waiting until processed`);
    const deadline = Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.deploy);
    try {
      if (tokens.length > 0) await waitTokens(pipes, name, tokens, deadline);
      else await waitProcessed(pipes, name, baseline + sent, deadline);
      processed = true;
    } catch (err) {
      progress.stop();
      throw err;
    }
  }
  progress.stop();
  const summary = { pipeline: name, table, format, records: sent, batches: batchCount, ...(opts.wait ? { processed: processed ?? sent === 0 } : {}) };
  if (ctx.json) return ctx.out.writeJson(summary);
  await ctx.out.write(`sent ${sent} record${sent === 1 ? '' : 's'} to ${sanitize(name)}/${sanitize(table)} in ${batchCount} batch${batchCount === 1 ? '' : 'es'}${opts.wait ? ' (processed)' : ''}\n`);
}

async function inputRecords(pipes: PipelinesClient, name: string): Promise<number> {
  const stats = await pipes.stats(name);
  const g = (stats.global_metrics ?? {}) as Record<string, unknown>;
  return typeof g.total_input_records === 'number' ? g.total_input_records : 0;
}

/**
 * Today's API: everything sent processed. A token stands for a position in its input endpoint's stream:
 * complete means every record the endpoint took up to it is processed. Every batch went to the same table
 * in the same format, that is the same HTTP input endpoint, so the last token covers them all: it is the
 * only one polled (one request per poll however many batches were sent).
 */
async function waitTokens(pipes: PipelinesClient, name: string, tokens: string[], deadline: number): Promise<void> {
  for (const token of tokens.slice(-1)) {
    for (;;) {
      const state = await pipes.completionStatus(name, token);
      if (state === 'complete') break;
      if (state === 'restarted') throw new OpsError(`${name} restarted before it processed the data`, ExitCode.failure, 'Some records may be lost; check with ops pipe stats.');
      if (Date.now() >= deadline) throw new TimeoutError(`${name} had not processed everything sent in time`, 'Wait longer with --timeout SECONDS.');
      await sleep(POLL_MS);
    }
  }
}

const SHOWN_PARSE_ERRORS = 10;

/**
 * A ParseErrors answer as lines naming the records of the input (the server numbers the events of the
 * request, which is one batch): `record 1503: failed to deserialize JSON record: ...`.
 */
export function badRecords(err: ApiError, first: number): { headline: string; lines: string[] } | undefined {
  const body = err.body as { message?: unknown; details?: { errors?: unknown; num_errors?: unknown } } | undefined;
  const errors = body?.details?.errors;
  if (err.code !== 'ParseErrors' || !Array.isArray(errors) || errors.length === 0) return undefined;
  const total = typeof body?.details?.num_errors === 'number' ? body.details.num_errors : errors.length;
  const lines = (errors as { event_number?: unknown; description?: unknown }[]).slice(0, SHOWN_PARSE_ERRORS).map((e) => {
    const where = typeof e.event_number === 'number' ? `record ${first + e.event_number - 1}` : 'a record';
    return `  ${where}: ${sanitize(String(e.description ?? 'cannot be parsed'))}`;
  });
  if (total > lines.length) lines.push(`  ... and ${total - lines.length} more`);
  return { headline: `${total} bad record${total === 1 ? '' : 's'} (ParseErrors):`, lines };
}

/** v0.24-era API: no tokens; wait until the input counter covers what was sent and everything is processed. */
async function waitProcessed(pipes: PipelinesClient, name: string, expected: number, deadline: number): Promise<void> {
  for (;;) {
    const stats = await pipes.stats(name);
    const g = (stats.global_metrics ?? {}) as Record<string, number>;
    const input = g.total_input_records ?? 0;
    const done = g.total_processed_records ?? 0;
    if (input >= expected && done >= input && !(g.buffered_input_records > 0)) return;
    if (Date.now() >= deadline) throw new TimeoutError(`${name} had not processed everything sent in time (${done} of ${Math.max(input, expected)} records)`, 'Wait longer with --timeout SECONDS.');
    await sleep(POLL_MS);
  }
}
