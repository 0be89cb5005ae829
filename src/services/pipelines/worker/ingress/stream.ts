/**
 * Reading an ingress body as it streams in: each chunk goes straight to the format's incremental
 * parser, so memory follows the chunk and the changes kept, not the body. A body over the limit is
 * refused as a whole (413; the parser's work is dropped, nothing is applied). Usable in any thread:
 * a worker that receives the chunks as messages calls newIngressParser, push and end itself.
 */
import type { TableBinding } from './binding.js';
import { CsvParser } from './csv.js';
import { JsonParser, type JsonInputOptions } from './json.js';
import { ParquetParser } from './parquet.js';
import { bodyTooLarge } from '../../shared/ingress-limits.js';
import type { IngressParser, ParsedInput } from './parser.js';

export function newIngressParser(format: 'csv' | 'json' | 'parquet', binding: TableBinding, json: JsonInputOptions): IngressParser {
  if (format === 'parquet') return new ParquetParser(binding);
  return format === 'csv' ? new CsvParser(binding) : new JsonParser(binding, json);
}

/**
 * Feeds `body` to `parser` chunk by chunk; throws the 413 FelderaError as soon as more than `limit` bytes
 * came (or were announced by `declaredLength`, before reading any).
 */
export async function readIngressBody(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  parser: IngressParser,
  limit: number,
  declaredLength?: number,
): Promise<{ parsed: ParsedInput; bytes: number }> {
  if (declaredLength !== undefined && declaredLength > limit) throw bodyTooLarge(limit);
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > limit) throw bodyTooLarge(limit);
    parser.push(chunk);
  }
  return { parsed: parser.end(), bytes };
}
