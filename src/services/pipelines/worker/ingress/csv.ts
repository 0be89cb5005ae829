/**
 * CSV ingress: one record per line, fields in column order, no header; `\r\n` and a missing final
 * newline accepted; an empty unquoted field is NULL. Every record is an insert. Pure. Parsed in
 * chunks (CsvParser) by the shared reader in src/formats/csv.ts, so memory follows the records kept and
 * the one unfinished record, not the body. This module binds the reader's records to a table.
 *
 * Field counts, as Feldera's CSV parser (its csv reader is `flexible`; its table deserializer reads a
 * record as a sequence): fields beyond the table's columns are ignored; a record with fewer fields than
 * columns is refused ("invalid length K, expected N columns"), whatever DEFAULTs the columns have: a
 * column's DEFAULT is for input that names its columns (JSON objects), and a CSV record names none.
 */
import { EngineValueError, jsonText } from '../../../../engine/index.js';
import { RowError, type TableBinding } from './binding.js';
import { ParsedSink, type IngressParser, type ParsedInput } from './parser.js';
import { CsvReader, writeCsvField, type CsvRecord, type CsvSyntaxError } from '../../../../formats/csv.js';

export { splitCsv, type CsvRecord } from '../../../../formats/csv.js';

/** A CSV field as egress writes it: an empty string is quoted so that it reads back as a string, not NULL. */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const t = typeof v === 'string' ? v : typeof v === 'object' ? jsonText(v) : String(v);
  return writeCsvField(t, { quoteEmpty: typeof v === 'string' });
}

/**
 * The incremental CSV parser: complete records are parsed as soon as a chunk ends them (a line break
 * outside quotes); the unfinished record waits, as text pieces, for the next chunk.
 */
export class CsvParser implements IngressParser {
  private readonly decoder = new TextDecoder();
  private readonly sink: ParsedSink;
  private readonly reader = new CsvReader();
  private ended = false;
  /** Every record is a full row: inserts (upserts on a table with a primary key). */
  private readonly rowOp: 'insert' | 'upsert';

  constructor(private readonly binding: TableBinding) {
    this.sink = new ParsedSink(binding.makeRow);
    this.rowOp = binding.hasKey ? 'upsert' : 'insert';
  }

  push(chunk: Uint8Array): void {
    this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  pushText(text: string): void {
    for (const rec of this.reader.push(text)) this.record(rec, rec.line);
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      this.pushText(this.decoder.decode());
      const { records, error } = this.reader.end();
      for (const rec of records) this.record(rec, rec.line);
      if (error) this.syntaxError(error);
    }
    const names = this.binding.names;
    return this.sink.result((c) => ('row' in c ? names.map((n) => csvField(c.row[n])).join(',') + '\n' : null) ?? '');
  }

  private syntaxError(error: CsvSyntaxError): void {
    const ev = this.sink.event(error.line);
    this.sink.error({
      description: `failed to parse CSV: ${error.message}`,
      event_number: ev + 1,
      line: error.line,
      field: null,
      invalid_bytes: null,
      invalid_text: null,
      suggestion: null,
    });
  }

  private record(rec: CsvRecord, line: number): void {
    const binding = this.binding;
    const ncols = binding.names.length;
    const ev = this.sink.event(line);
    try {
      // Feldera's wording (serde's invalid_length, its "{N} columns" and all); extra fields are not read
      if (rec.fields.length < ncols) throw new RowError(`invalid length ${rec.fields.length}, expected ${ncols} columns`);
      const batch = this.sink.batch(binding.engineTable, this.rowOp, ncols);
      const codecs = binding.codecs;
      for (let f = 0; f < ncols; f++) {
        try {
          batch.push(codecs[f]!.fromCsv(rec.fields[f]!, rec.quoted[f]!));
        } catch (err) {
          batch.dropRow();
          if (err instanceof EngineValueError) throw new RowError(`error parsing field '${binding.names[f]}': field ${f}: ${err.message}`, binding.names[f]!);
          throw err;
        }
      }
      batch.endRow();
      this.sink.batchRow(ev);
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      this.sink.error({
        description: `failed to deserialize CSV record: ${err.message}`,
        event_number: ev + 1,
        line,
        field: err.field,
        invalid_bytes: null,
        invalid_text: rec.text,
        suggestion: null,
      });
    }
  }
}

/** A whole CSV body at once (input connectors; tests). */
export function parseCsvInput(body: string, binding: TableBinding): ParsedInput {
  const parser = new CsvParser(binding);
  parser.pushText(body);
  return parser.end();
}
