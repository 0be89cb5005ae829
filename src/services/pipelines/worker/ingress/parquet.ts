/**
 * Parquet ingress (`format=parquet`, as Feldera's ParquetInputFormat): the body is one whole Parquet file; each
 * of its records is an insert (an upsert on a table with a primary key). Pure: no I/O, no engine state.
 *
 * Rules:
 * - The file's columns are matched to the table's by name as JSON keys are (binding.column: case-insensitive
 *   for unquoted names); a file column the table lacks is ignored, a table column the file lacks takes its
 *   DEFAULT or NULL (a NOT NULL column without one refuses every record: "missing field").
 * - Each value is given to the column's codec in the JSON form Feldera's Parquet converter gives it
 *   (arrow-cells.ts). A value the codec refuses makes its record a bad event (the request then applies
 *   nothing, as any ingress).
 * - A body that is not a Parquet file, or that the reader cannot decode, is one error for the whole body.
 * - Bounds: the footer (read by hyparquet, before anything is decoded) may announce at most MAX_PARQUET_ROWS
 *   rows; row groups are decoded one at a time (parquet-wasm, the Rust `parquet` crate's reader), and the
 *   Arrow data they decode to, and the rows written from it (checked every SIZE_CHECK_ROWS rows), may each
 *   total at most MAX_PARQUET_DECODED_BYTES. One row group is decoded whole in WebAssembly memory (at most
 *   4 GiB, WebAssembly's own limit; past it the decode fails and the body is refused); a module whose memory
 *   grew past WASM_KEPT_BYTES is let go after the request, so that memory goes back. The body itself is
 *   held whole (a Parquet file is read from its footer), within the ingress body limit.
 */
import type * as Arrow from 'apache-arrow';
import { jsonText } from '../../../../engine/index.js';
import { arrowFfi, hyparquetLib, parquetWasm, releaseParquetWasm } from '../arrow-libs.js';
import { cellWriter, missingWriter, type CellWriter } from './arrow-cells.js';
import { RowError, type TableBinding } from './binding.js';
import { ParsedSink, type IngressParser, type ParsedInput } from './parser.js';

/** Most rows one request's file may announce. */
export const MAX_PARQUET_ROWS = 50_000_000;
/**
 * Most bytes the file may decode to: its row groups' Arrow data, all together, and the rows written from them (a
 * few kilobytes of Parquet can hold gigabytes: one long string in a dictionary, repeated on every row).
 */
export const MAX_PARQUET_DECODED_BYTES = 1024 * 1024 * 1024;
/** Rows written between two looks at the request's size. */
const SIZE_CHECK_ROWS = 1024;
/** WebAssembly memory past which the Parquet module is let go after a request (its memory never shrinks). */
const WASM_KEPT_BYTES = 256 * 1024 * 1024;

/** Most rows of one decoded record batch (a row group of more is decoded in batches of this many). */
const BATCH_ROWS = 65536;

export class ParquetParser implements IngressParser {
  private readonly sink: ParsedSink;
  private readonly rowOp: 'insert' | 'upsert';
  private chunks: Uint8Array[] = [];
  private size = 0;
  private ended = false;

  /** `maxDecodedBytes`: MAX_PARQUET_DECODED_BYTES (tests set it low). */
  constructor(
    private readonly binding: TableBinding,
    private readonly maxDecodedBytes = MAX_PARQUET_DECODED_BYTES,
  ) {
    this.sink = new ParsedSink(binding.makeRow);
    this.rowOp = binding.hasKey ? 'upsert' : 'insert';
  }

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    this.chunks.push(Buffer.from(chunk)); // a copy: the caller reuses its buffer (a file is read from its end)
    this.size += chunk.byteLength;
  }

  pushText(text: string): void {
    this.push(Buffer.from(text, 'utf8'));
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      const file = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      if (file.byteLength > 0) {
        try {
          this.read(file);
        } catch (err) {
          // something of the file none of the readers expected (a type or layout): the body's error, never the server's
          this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
        }
      }
    }
    return this.sink.result((c) => ('row' in c ? jsonText(c.row) : ''));
  }

  /** The whole file: its footer checked, then each row group decoded and its records written. */
  private read(file: Uint8Array): void {
    let groups: number[];
    try {
      const meta = hyparquetLib().parquetMetadata(file);
      const rows = Number(meta.num_rows);
      if (rows > MAX_PARQUET_ROWS) return this.fileError(`the file has ${rows} rows, more than the ${MAX_PARQUET_ROWS} one request may carry`, 'Send the rows in several requests.');
      groups = meta.row_groups.map((g) => Math.max(1, Math.min(BATCH_ROWS, Number(g.num_rows))));
    } catch (err) {
      return this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
    }
    const pq = parquetWasm();
    try {
      this.decode(pq, file, groups);
    } finally {
      // a module whose memory grew big (or that failed, perhaps out of memory) is let go: the next body loads it anew
      if (this.wasmFailed || pq.wasmMemory().buffer.byteLength > WASM_KEPT_BYTES) releaseParquetWasm();
    }
  }

  private wasmFailed = false;
  private tooBig = false;

  private decode(pq: ReturnType<typeof parquetWasm>, file: Uint8Array, groups: number[]): void {
    const { parseRecordBatch } = arrowFfi();
    let decoded = 0;
    for (let g = 0; g < groups.length && !this.tooBig; g++) {
      let stream: ReturnType<ReturnType<typeof pq.readParquet>['intoFFI']>;
      try {
        const table = pq.readParquet(file, { rowGroups: [g], batchSize: groups[g]! });
        decoded += table.getArrayMemorySize();
        stream = table.intoFFI();
      } catch (err) {
        this.wasmFailed = true;
        return this.fileError(`Unable to read parquet file: ${messageOf(err)}.`, 'Make sure the provided file is a valid parquet file.');
      }
      try {
        if (decoded > this.maxDecodedBytes) return this.decodesTooBig();
        // views of the decoded data in WebAssembly memory (no copy): read before the stream is freed, with no
        // call into the module meanwhile (its memory could grow and move)
        const memory = pq.wasmMemory().buffer;
        for (let i = 0; i < stream.numArrays() && !this.tooBig; i++) this.records(parseRecordBatch(memory, stream.arrayAddr(i), stream.schemaAddr(), false));
      } finally {
        stream.free();
      }
    }
  }

  /** The records of one Arrow record batch, each an event. */
  private records(rb: Arrow.RecordBatch): void {
    const b = this.binding;
    const n = b.names.length;
    const writers: (CellWriter | null)[] = new Array<CellWriter | null>(n).fill(null);
    rb.schema.fields.forEach((field, i) => {
      const c = b.column(field.name);
      if (c >= 0 && writers[c] === null) writers[c] = cellWriter(b, c, rb.getChildAt(i)!);
    });
    for (let c = 0; c < n; c++) writers[c] ??= missingWriter(b, c);
    const sink = this.sink;
    for (let r = 0; r < rb.numRows; r++) {
      const ev = sink.event(sink.events + 1);
      const batch = sink.batch(b.engineTable, this.rowOp, n);
      if (r % SIZE_CHECK_ROWS === 0 && batch.byteLength > this.maxDecodedBytes) return this.decodesTooBig();
      let c = 0;
      try {
        for (c = 0; c < n; c++) writers[c]!(r, batch);
        batch.endRow();
        sink.batchRow(ev);
      } catch (err) {
        batch.dropRow();
        // a value none of the readers above expected: the record's error, never the server's
        const bad = err instanceof RowError ? err : new RowError(`error parsing field '${b.names[c]}': ${messageOf(err)}`, b.names[c]!);
        sink.error({
          description: `Error parsing record from parquet file: ${bad.message}`,
          event_number: ev + 1,
          line: ev + 1,
          field: bad.field,
          invalid_bytes: null,
          invalid_text: null,
          suggestion: null,
        });
      }
    }
  }

  private decodesTooBig(): void {
    this.tooBig = true;
    this.fileError(`the file decodes to more than ${this.maxDecodedBytes} bytes of data, the limit of one request`, 'Send the rows in several requests.');
  }

  private fileError(description: string, suggestion: string): void {
    const ev = this.sink.event(1);
    this.sink.error({ description, event_number: ev + 1, line: 1, field: null, invalid_bytes: null, invalid_text: null, suggestion });
  }
}

function messageOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\.$/, '');
}
