/**
 * A Parquet file for `ops pipe ingest` (format=parquet: the server takes one whole file per request). Nothing here
 * decodes the file's data: the server does. This module tells a Parquet input by its first bytes, counts its rows
 * from its footer (what the summary reports and what a v0.24-era `--wait` waits for), and reads a stream (stdin)
 * whole as bytes within a bound.
 * Rules:
 * - a Parquet file starts (and ends) with the 4 bytes `PAR1`;
 * - the row count is the footer's num_rows, read by hyparquet (a Parquet reader in plain JavaScript, loaded only
 *   when a Parquet file is sent): only the file's tail is read; a footer it cannot read gives undefined (the file
 *   still goes to the server, whose answer says what is wrong with it);
 * - a stream longer than the bound is refused (InputError) before more than the bound is held.
 */
import { formatBytes } from '../../core/units.js';
import { InputError } from './ingest-input.js';

/** The first (and last) four bytes of every Parquet file. */
export const PARQUET_MAGIC = 'PAR1';

/** Most bytes of Parquet read from stdin (it is held whole before it is sent; a file is streamed instead). */
export const MAX_PARQUET_STDIN_BYTES = 1024 * 1024 * 1024;

/** True when the input starts with Parquet's magic (a text head compares its first four characters). */
export function startsAsParquet(head: string | Uint8Array): boolean {
  const first = typeof head === 'string' ? head.slice(0, 4) : Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 4)).toString('latin1');
  return first === PARQUET_MAGIC;
}

/** The rows a Parquet file's footer announces (a path is read from its end only), or undefined when it has no readable footer. */
export async function parquetRowCount(file: string | Uint8Array): Promise<number | undefined> {
  const hyparquet = await import('hyparquet');
  try {
    const metadata = typeof file === 'string' ? await hyparquet.parquetMetadataAsync(await hyparquet.asyncBufferFromFile(file)) : hyparquet.parquetMetadata(file);
    const rows = Number(metadata.num_rows);
    return Number.isSafeInteger(rows) && rows >= 0 ? rows : undefined;
  } catch {
    return undefined;
  }
}

/** A stream's bytes, whole; more than `limit` bytes is an InputError (what was read is let go). */
export async function readAllBytes(input: AsyncIterable<Buffer | string>, limit = MAX_PARQUET_STDIN_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    size += bytes.byteLength;
    if (size > limit) throw new InputError(`more than ${formatBytes(limit)} of Parquet: too much to hold from a pipe`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
