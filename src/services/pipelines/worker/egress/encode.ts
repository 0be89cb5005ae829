/**
 * Egress encoding of Z-set changes: JSON `{"insert": row}` / `{"delete": row}` items (a row of weight w
 * is written |w| times), Snowflake's flat records (the row's fields then `__action`, `__stream_id`,
 * `__seq_number`, one record per unit of weight, numbered from 0 per stream), and CSV lines ending with the
 * weight column, fields separated by the encoding's delimiter. Chunks hold at most the encoding's
 * chunkRecords records (Feldera's buffer_size_records, 10,000 by default).
 *
 * Limit: repeating a row once per unit of its weight is bounded (MAX_REPEATED_RECORDS records beyond one
 * per row in one encoding): a weight of 10^9 (one weighted ingress event) must not make a worker build an
 * array of 10^9 strings, whose growth is one allocation too big for any heap limit and ends the whole
 * process, not just the worker. Past it, OutputTooLarge; CSV carries the weight as a column and is not limited.
 */
import type { TextBytes } from './text-bytes.js';
import { jsonText, type ColumnSchema, type JsonValue, type WeightedRow } from '../../../../engine/index.js';
import { writeCsvField } from '../../../../formats/csv.js';
import { flavoredRow } from './flavor.js';
import { defaultEncoding, type EncodedChunk, type OutputEncoding, type OutputFormat } from '../../shared/encoding.js';

/** A stream's record counter (Snowflake's __seq_number), kept across its steps. */
export interface RecordCounter {
  next: number;
}

const asEncoding = (e: OutputFormat | OutputEncoding): OutputEncoding => (typeof e === 'string' ? defaultEncoding(e) : e);

/** Records a JSON encoding may add beyond one per row by repeating rows of weight beyond 1. */
export const MAX_REPEATED_RECORDS = 1_000_000;

/** Rows whose weights would repeat them past MAX_REPEATED_RECORDS in a JSON encoding. */
export class OutputTooLarge extends Error {
  constructor(readonly records: number) {
    super(
      `rows of weight beyond 1 would be written ${records} times in JSON (each unit of weight is a record), more than ${MAX_REPEATED_RECORDS} records beyond one per row; CSV (format=csv) carries each row's weight as a column instead`,
    );
  }
}

/** Throws OutputTooLarge when writing `rows` once per unit of weight goes past MAX_REPEATED_RECORDS extra records. */
export function checkRepeats(rows: readonly WeightedRow[]): void {
  let extra = 0;
  for (const { weight } of rows) {
    const w = Math.abs(weight);
    if (w > 1) extra += w - 1;
  }
  if (extra > MAX_REPEATED_RECORDS) throw new OutputTooLarge(extra + rows.length);
}

export function encodeJsonItems(rows: WeightedRow[], encoding: OutputEncoding = defaultEncoding('json'), columns: ColumnSchema[] = [], counter: RecordCounter = { next: 0 }): string[] {
  checkRepeats(rows);
  const out: string[] = [];
  for (const { row, weight } of rows) {
    const s = jsonText(encoding.flavor === 'default' ? row : flavoredRow(row, columns, encoding.flavor)); // digit-exact integers beyond 2^53 (bigints)
    if (encoding.updateFormat === 'snowflake') {
      // the row's fields, then Snowflake's: each record numbered
      const head = s.length > 2 ? `${s.slice(0, -1)},` : '{';
      const tail = `"__action":"${weight > 0 ? 'insert' : 'delete'}","__stream_id":${encoding.streamId || '0'},"__seq_number":`;
      for (let k = Math.abs(weight); k > 0; k--) out.push(`${head}${tail}${counter.next++}}`);
      continue;
    }
    const item = weight > 0 ? `{"insert":${s}}` : `{"delete":${s}}`;
    for (let k = Math.abs(weight); k > 0; k--) out.push(item);
  }
  return out;
}

export function csvField(v: JsonValue, delimiter = ','): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'object') s = jsonText(v);
  else s = String(v);
  return delimiter === ',' ? writeCsvField(s) : writeCsvField(s, { delimiter });
}

export function encodeCsvLines(rows: WeightedRow[], columns: ColumnSchema[], delimiter = ','): string[] {
  return rows.map(({ row, weight }) => {
    let line = '';
    for (const c of columns) line += csvField(row[c.name] ?? null, delimiter) + delimiter;
    return `${line}${weight}\n`;
  });
}

/**
 * Splits changes into chunk bodies for the given format or encoding; `counter` numbers a Snowflake
 * stream's records (kept by the caller across steps).
 */
export function encodeChunks(rows: WeightedRow[], format: OutputFormat | OutputEncoding, columns: ColumnSchema[], counter?: RecordCounter): EncodedChunk[] {
  const encoding = asEncoding(format);
  const size = Math.max(1, encoding.chunkRecords);
  const chunks: EncodedChunk[] = [];
  if (encoding.format === 'json') {
    const items = encodeJsonItems(rows, encoding, columns, counter);
    for (let i = 0; i < items.length; i += size) {
      const part = items.slice(i, i + size);
      chunks.push({ data: `"json_data":[${part.join(',')}]`, records: part.length });
    }
  } else {
    const lines = encodeCsvLines(rows, columns, encoding.delimiter);
    for (let i = 0; i < lines.length; i += size) {
      const part = lines.slice(i, i + size);
      chunks.push({ data: `"text_data":${JSON.stringify(part.join(''))}`, records: part.length });
    }
  }
  return chunks;
}

/**
 * Snapshot body: one object holding everything (an empty snapshot still has its data field), written into
 * `out` item by item (a CSV text's JSON string line by line: escaping each line gives the escaped whole),
 * so that no string as big as the body is made.
 */
export function snapshotBody(rows: WeightedRow[], format: OutputFormat, columns: ColumnSchema[], out: TextBytes): void {
  if (format === 'json') {
    out.add('{"sequence_number":0,"json_data":[');
    encodeJsonItems(rows).forEach((item, i) => out.add(i === 0 ? item : `,${item}`));
    out.add(']}');
    return;
  }
  out.add('{"sequence_number":0,"text_data":"');
  for (const line of encodeCsvLines(rows, columns)) out.add(JSON.stringify(line).slice(1, -1));
  out.add('"}');
}
