/**
 * Egress encoding of Z-set changes: JSON `{"insert": row}` / `{"delete": row}` items (a row of weight w
 * is written |w| times) and CSV lines ending with the weight column. Chunks hold at most
 * CHUNK_RECORDS records, as Feldera's default buffer_size_records.
 */
import { jsonText, type ColumnSchema, type JsonValue, type WeightedRow } from '../../../engine/index.js';
import { writeCsvField } from '../../../formats/csv.js';

export const CHUNK_RECORDS = 10_000;
export type OutputFormat = 'json' | 'csv';

/** One encoded chunk body: the part after `"sequence_number":N,` and the number of records in it. */
export interface EncodedChunk {
  data: string;
  records: number;
}

export function encodeJsonItems(rows: WeightedRow[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of rows) {
    const s = jsonText(row); // digit-exact integers beyond 2^53 (bigints)
    const item = weight > 0 ? `{"insert":${s}}` : `{"delete":${s}}`;
    for (let k = Math.abs(weight); k > 0; k--) out.push(item);
  }
  return out;
}

export function csvField(v: JsonValue): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'object') s = jsonText(v);
  else s = String(v);
  return writeCsvField(s);
}

export function encodeCsvLines(rows: WeightedRow[], columns: ColumnSchema[]): string[] {
  return rows.map(({ row, weight }) => {
    let line = '';
    for (const c of columns) line += csvField(row[c.name] ?? null) + ',';
    return `${line}${weight}\n`;
  });
}

/** Splits changes into chunk bodies for the given format. */
export function encodeChunks(rows: WeightedRow[], format: OutputFormat, columns: ColumnSchema[]): EncodedChunk[] {
  const chunks: EncodedChunk[] = [];
  if (format === 'json') {
    const items = encodeJsonItems(rows);
    for (let i = 0; i < items.length; i += CHUNK_RECORDS) {
      const part = items.slice(i, i + CHUNK_RECORDS);
      chunks.push({ data: `"json_data":[${part.join(',')}]`, records: part.length });
    }
  } else {
    const lines = encodeCsvLines(rows, columns);
    for (let i = 0; i < lines.length; i += CHUNK_RECORDS) {
      const part = lines.slice(i, i + CHUNK_RECORDS);
      chunks.push({ data: `"text_data":${JSON.stringify(part.join(''))}`, records: part.length });
    }
  }
  return chunks;
}

export function frame(seq: number, chunk?: EncodedChunk): string {
  return chunk ? `{"sequence_number":${seq},${chunk.data}}\r\n` : `{"sequence_number":${seq}}\r\n`;
}

/** Snapshot body: one object holding everything (an empty snapshot still has its data field). */
export function snapshotBody(rows: WeightedRow[], format: OutputFormat, columns: ColumnSchema[]): string {
  if (format === 'json') return `{"sequence_number":0,"json_data":[${encodeJsonItems(rows).join(',')}]}`;
  return `{"sequence_number":0,"text_data":${JSON.stringify(encodeCsvLines(rows, columns).join(''))}}`;
}
