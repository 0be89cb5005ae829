/**
 * How a stream's output is written, as both sides know it: the encoding a request asks for (the server reads
 * it from the request, control/egress-config.ts), the key streams sharing their chunks are grouped by, and the
 * frame a watch stream sends a chunk in. The worker encodes rows (worker/egress/encode.ts); the server only
 * frames the chunks it receives, so this module needs nothing of the engine.
 */

export const CHUNK_RECORDS = 10_000;
export type OutputFormat = 'json' | 'csv';

/** How a stream's changes are written (control/egress-config.ts reads it from the request). */
export interface OutputEncoding {
  format: OutputFormat;
  /** JSON records: insert/delete objects, or Snowflake's flat records. */
  updateFormat: 'insert_delete' | 'snowflake';
  /** JSON values: Feldera's default flavor, or its snowflake flavor (worker/egress/flavor.ts). */
  flavor: 'default' | 'snowflake';
  /** Records per chunk (at least 1). */
  chunkRecords: number;
  /** CSV field delimiter: one ASCII character. */
  delimiter: string;
  /** Snowflake: the stream's id (decimal; each stream draws its own); '' otherwise. */
  streamId: string;
}

export function defaultEncoding(format: OutputFormat): OutputEncoding {
  return { format, updateFormat: 'insert_delete', flavor: 'default', chunkRecords: CHUNK_RECORDS, delimiter: ',', streamId: '' };
}

/** Streams with equal keys share their encoded chunks (a Snowflake stream's key is its own: its stream id). */
export function encodingKey(e: OutputEncoding): string {
  return JSON.stringify([e.format, e.updateFormat, e.flavor, e.chunkRecords, e.delimiter, e.streamId]);
}

/** One encoded chunk body: the part after `"sequence_number":N,` and the number of records in it. */
export interface EncodedChunk {
  data: string;
  records: number;
}

/** One chunk of a watch stream as it is sent: `{"sequence_number":N,...}` and CRLF (no chunk: the number alone). */
export function frame(seq: number, chunk?: EncodedChunk): string {
  return chunk ? `{"sequence_number":${seq},${chunk.data}}\r\n` : `{"sequence_number":${seq}}\r\n`;
}
