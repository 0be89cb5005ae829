/**
 * `ops pipe ingest` of a Parquet file: the whole file in ONE request (format=parquet, application/octet-stream),
 * as Feldera's Parquet input takes it. A regular file is streamed as it is sent (never held in memory); stdin
 * (or a pipe given by name) is read whole first, within MAX_PARQUET_STDIN_BYTES. The records reported are the rows the file's footer announces
 * (unknown when ops cannot read the footer: the file is still sent, and the server's answer says what is wrong).
 * A refusal is rendered as for the other formats (ParseErrors: the bad records by number); Ctrl-C stops at once,
 * saying whether the file may have been applied.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { ApiError, ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { formatBytes } from '../../core/units.js';
import { watchInterrupts } from '../../core/interrupts.js';
import type { Progress } from '../../core/progress.js';
import type { PipelinesClient } from '../../clients/pipelines.js';
import { InputError } from '../../clients/pipelines/ingest-input.js';
import { parquetRowCount, readAllBytes } from '../../clients/pipelines/parquet-input.js';
import { badRecords, parseErrorsOf } from './parse-errors.js';
import { DEFAULT_WAIT, explain, waitLimitMs } from './shared.js';

export interface ParquetTarget {
  name: string;
  table: string;
  /** The table's name as the server's URL takes it. */
  tableRef: string;
  force?: boolean;
}

/** A regular file (streamed as it is sent), or an input's chunks (stdin, a named pipe: read whole); the label is for messages. */
export type ParquetSource = { label: string; path: string; size?: number } | { label: string; chunks: AsyncIterable<Buffer | string> };

export interface ParquetSent {
  /** The rows of the file's footer; undefined when ops could not read it. */
  records: number | undefined;
  /** Today's completion token of the request. */
  token?: string;
}

export async function sendParquet(ctx: Context, pipes: PipelinesClient, to: ParquetTarget, source: ParquetSource, progress: Progress): Promise<ParquetSent> {
  const { name, table, tableRef } = to;
  const { label } = source;
  const interrupts = watchInterrupts();
  const interrupted = interrupts.first.then(() => 'interrupted' as const);
  try {
    let body: Readable | Buffer;
    let size: number | undefined;
    let records: number | undefined;
    if ('path' in source) {
      size = source.size;
      records = await parquetRowCount(source.path);
      body = createReadStream(source.path);
    } else {
      const read = await Promise.race([readAllBytes(source.chunks), interrupted]);
      if (read === 'interrupted') throw new OpsError(`interrupted while reading ${label}: nothing was sent`, ExitCode.interrupted);
      size = read.byteLength;
      records = await parquetRowCount(read);
      body = read;
    }
    if (size === 0) throw new OpsError(`${label} is empty: it holds no Parquet file`, ExitCode.failure);
    const what = `${records === undefined ? 'a Parquet file' : `${records} record${records === 1 ? '' : 's'}`}${size === undefined ? '' : ` (${formatBytes(size)})`}`;
    progress.update(`${name}/${table}: sending ${what}`);
    const abort = new AbortController();
    // the server answers once it has read (and checked) the whole file: give it as long as a --wait
    const request = pipes.ingest(name, tableRef, body, { format: 'parquet', force: to.force, signal: abort.signal, timeoutMs: waitLimitMs(ctx, DEFAULT_WAIT.deploy) });
    let res: Awaited<typeof request> | 'interrupted';
    try {
      res = await Promise.race([request, interrupted]);
    } catch (err) {
      throw refusal(err, name, label, records);
    }
    if (res === 'interrupted') {
      abort.abort();
      request.catch(() => undefined);
      throw new OpsError(`interrupted: ${label} was in flight and may or may not have been applied`, ExitCode.interrupted, `Look at ${table} before sending it again.`);
    }
    return { records, token: res.token };
  } catch (err) {
    if (err instanceof InputError) throw new OpsError(`${label}: ${err.message}`, ExitCode.failure, 'Save it to a file and give its name: a file is streamed, not held in memory.');
    throw err;
  } finally {
    interrupts.dispose();
  }
}

/** The server's refusal of the file as the command's error: its bad records by number, or what is wrong with the file. */
function refusal(err: unknown, name: string, label: string, records: number | undefined): unknown {
  if (!(err instanceof ApiError) || err.code === 'UnknownPipelineName') {
    try {
      explain(err, name);
    } catch (explained) {
      return explained;
    }
  }
  const apiError = err as ApiError;
  const parsed = parseErrorsOf(apiError);
  // a footer ops could not read either: the server's words are about the file, not a record of it
  if (parsed && records === undefined) {
    const first = parsed.errors[0]!;
    const hint = typeof first.suggestion === 'string' ? sanitize(first.suggestion) : undefined;
    return new OpsError(`${label} was refused: ${sanitize(String(first.description ?? 'it cannot be read'))}`, apiError.exitCode, hint);
  }
  const bad = badRecords(apiError, 1);
  if (bad) return new OpsError(`${label} was refused: ${bad.headline}`, apiError.exitCode, bad.lines.join('\n'));
  return new OpsError(`${label} was refused: ${apiError.message}`, apiError.exitCode);
}
