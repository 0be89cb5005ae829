/**
 * `ops pipe ingest NAME TABLE [FILE|-]`: batches of rows or changes (JSON, CSV), or one whole Parquet file
 * (ingest-parquet.ts), progress, summary, --wait (ingest-wait.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { findRelation, isStopped, relationRef, type PipelinesClient } from '../../clients/pipelines.js';
import { InputError, batches, csvRecordGroups, formatFromName, jsonEventGroups, skipRecords, type IngestFormat } from '../../clients/pipelines/ingest-input.js';
import { watchInterrupts } from '../../core/interrupts.js';
import { applyCsvHeader } from '../../clients/pipelines/csv-header.js';
import { startProgress, type Progress } from '../../core/progress.js';
import { PARQUET_MAGIC, startsAsParquet } from '../../clients/pipelines/parquet-input.js';
import { DEFAULT_WAIT, client, explain, getPipeline, parsePositiveInt, waitLimitMs } from './shared.js';
import { cannotRead } from '../../core/file-errors.js';
import { badRecords } from './parse-errors.js';
import { inputRecords, waitIngested } from './ingest-wait.js';
import { sendParquet } from './ingest-parquet.js';

export interface PipeIngestOptions {
  name: string;
  table: string;
  /** NDJSON, a JSON array, CSV or a Parquet file; "-" or undefined reads stdin */
  file?: string;
  format?: IngestFormat;
  /** CSV: true = the first record is a header, false = it is data, undefined = a header when it names the columns */
  header?: boolean;
  /** records per request (default 1000); not with Parquet, sent whole in one request */
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

/** Parquet when the input starts with its magic `PAR1`; JSON when it starts with `{` or `[`; anything else needs --format csv. */
export function sniffFormat(head: string): IngestFormat | undefined {
  if (startsAsParquet(head)) return 'parquet';
  const first = head.replace(/^\uFEFF/, '').trimStart()[0];
  if (first === undefined) return undefined;
  return first === '{' || first === '[' ? 'json' : undefined;
}

/** No input (a Parquet file on disk is streamed by its path). */
async function* noChunks(): AsyncGenerator<Buffer> {}

/** The format of an input that neither --format nor its name tells, from its first bytes. */
function formatOfHead(head: string, label: string): IngestFormat {
  const sniffed = sniffFormat(head);
  if (sniffed) return sniffed;
  if (head.trim() === '') return 'json';
  throw new UsageError(`cannot tell the format of ${label}: it does not start with "{" or "[" (nor is it Parquet)`, 'For CSV, pass --format csv.');
}

/** A head that may still turn out to be Parquet's magic when more bytes come. */
const magicSoFar = (head: string) => head.length < PARQUET_MAGIC.length && PARQUET_MAGIC.startsWith(head);

/** The input as chunks, with the first chunks read ahead (to sniff the format of stdin): up to one that is not blank, and at least Parquet's 4 magic bytes. */
async function peeked(stream: AsyncIterable<Buffer | string>): Promise<{ head: string; chunks: AsyncIterable<Buffer | string> }> {
  const it = stream[Symbol.asyncIterator]();
  const firsts: (Buffer | string)[] = [];
  let head = '';
  let done = false;
  while ((head.trim() === '' || magicSoFar(head)) && !done) {
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
    .description('Send rows or changes to a table: NDJSON, a JSON array, CSV, or a Parquet file; "-" or no file reads stdin')
    .addOption(new Option('--format <format>', 'input format (default: from the file name, else from the first bytes: JSON or Parquet)').choices(['json', 'csv', 'parquet']))
    .option('--batch-size <n>', 'records per request (default: 1000; not with Parquet)')
    .option('--skip <n>', 'leave out the first N records of the input (to go on after an interrupted ingest; not with Parquet)')
    .option('--header', 'CSV: the first line is a header naming the columns (default: when it names them)')
    .option('--no-header', 'CSV: the first line is a row, even if it looks like a header')
    .option('--wait', 'return when the pipeline has processed everything sent')
    .option('--force', 'send even while the pipeline is paused')
    .addHelpText(
      'after',
      '\nJSON records are rows (sent as inserts) or changes: {"insert": row}, {"delete": row}, {"update": row}.\nCSV fields are in the table\'s column order, unless the first line is a header naming the columns (any\norder, any case): then each record is mapped by name.\nA Parquet file goes whole in one request (each record an insert; columns matched by name); a file is\nstreamed from disk, stdin is read whole first.\nExamples:\n  ops pipe ingest shop orders orders.ndjson\n  ops pipe ingest shop orders rows.json --wait\n  ops pipe ingest shop orders orders.parquet --wait\n  cat orders.csv | ops pipe ingest shop orders - --format csv --batch-size 5000',
    )
    .action((name: string, table: string, file: string | undefined, flags: Omit<PipeIngestOptions, 'name' | 'table' | 'file'>) => runWith(f, runF, { ...flags, name, table, file }));
}

export async function runPipeIngest(opts: PipeIngestOptions, ctx: Context): Promise<void> {
  const { name, table, file } = opts;
  const path = file && file !== '-' ? file : undefined;
  let fileSize: number | undefined;
  // a regular file: its size is known and it can be read again from its start (not a pipe, nor <(...))
  let regularFile = false;
  if (path) {
    try {
      const info = await stat(path);
      if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      regularFile = info.isFile();
      fileSize = info.size;
    } catch (err) {
      throw new OpsError(cannotRead(path, err));
    }
  } else if (ctx.io.stdinIsTTY) {
    throw new UsageError('no input given', 'Give a FILE, or pipe the records on stdin: cat rows.ndjson | ops pipe ingest NAME TABLE -');
  }
  const label = path ? sanitize(path) : 'stdin';
  const given = opts.format ?? (path ? formatFromName(path) : undefined);
  if (given === 'parquet') refuseBatchFlags(opts);
  const size = parsePositiveInt(opts.batchSize ?? '1000', '--batch-size');
  const skip = opts.skip === undefined ? 0 : parseCount(opts.skip, '--skip');
  // the input read ahead (to sniff its format), except a Parquet file on disk: streamed when it is sent, from its start
  let chunks: AsyncIterable<Buffer | string> = noChunks();
  let head = '';
  let streamFile = regularFile && given === 'parquet';
  if (!streamFile) {
    const input = path ? createReadStream(path) : ctx.io.stdin;
    ({ head, chunks } = await peeked(input));
    if (given === undefined && regularFile && startsAsParquet(head)) {
      input.destroy();
      streamFile = true;
    }
  }
  const format: IngestFormat = given ?? formatOfHead(head, label);
  if (given === undefined && format === 'parquet') refuseBatchFlags(opts);

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
  if (format === 'parquet') {
    let sent: Awaited<ReturnType<typeof sendParquet>>;
    try {
      sent = await sendParquet(ctx, pipes, { name, table, tableRef, force: opts.force }, streamFile && path ? { label, path, size: fileSize } : { label, chunks }, progress);
    } catch (err) {
      progress.stop();
      throw err;
    }
    const tokens = sent.token ? [sent.token] : [];
    // records unknown (a footer ops could not read, yet the server took the file): wait on the token
    const processed = await waitIfAsked(ctx, pipes, opts, progress, { tokens, expected: baseline + (sent.records ?? 0), sent: sent.records ?? 1 });
    const summary = { pipeline: name, table, format, records: sent.records ?? null, batches: 1, ...(opts.wait ? { processed } : {}) };
    if (ctx.json) return ctx.out.writeJson(summary);
    const what = sent.records === undefined ? label : `${sent.records} record${sent.records === 1 ? '' : 's'}`;
    return ctx.out.write(`sent ${what} to ${sanitize(name)}/${sanitize(table)} from a Parquet file in one request${opts.wait ? ' (processed)' : ''}\n`);
  }
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
  const processed = await waitIfAsked(ctx, pipes, opts, progress, { tokens, expected: baseline + sent, sent });
  const summary = { pipeline: name, table, format, records: sent, batches: batchCount, ...(opts.wait ? { processed } : {}) };
  if (ctx.json) return ctx.out.writeJson(summary);
  await ctx.out.write(`sent ${sent} record${sent === 1 ? '' : 's'} to ${sanitize(name)}/${sanitize(table)} in ${batchCount} batch${batchCount === 1 ? '' : 'es'}${opts.wait ? ' (processed)' : ''}\n`);
}

/** --batch-size and --skip count records of a text input; a Parquet file goes whole in one request. */
function refuseBatchFlags(opts: PipeIngestOptions): void {
  const given = [opts.batchSize !== undefined && '--batch-size', opts.skip !== undefined && '--skip'].filter(Boolean);
  if (given.length > 0) {
    throw new UsageError(`${given.join(' and ')} cannot be used with Parquet: a Parquet file is sent whole, in one request`, 'Leave it out, or split the file into smaller Parquet files.');
  }
}

/**
 * --wait: until everything sent is processed (true), or at once when nothing was sent; undefined without --wait.
 * The progress line says it is waiting; the wait's limit is --timeout, else DEFAULT_WAIT.deploy. Stops the progress.
 */
async function waitIfAsked(
  ctx: Context,
  pipes: PipelinesClient,
  opts: PipeIngestOptions,
  progress: Progress,
  what: { tokens: string[]; expected: number; sent: number },
): Promise<boolean | undefined> {
  try {
    if (!opts.wait) return undefined;
    if (what.sent === 0) return true;
    progress.update(`${opts.name}/${opts.table}: sent ${what.sent}; waiting until processed`);
    await waitIngested(pipes, opts.name, what, Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.deploy));
    return true;
  } finally {
    progress.stop();
  }
}
