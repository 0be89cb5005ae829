/**
 * CSV ingress: one record per line, fields in column order, no header; `\r\n` and a missing final
 * newline accepted; an empty unquoted field is NULL. Every record is an insert. Pure. Parsed in
 * chunks (CsvParser), so memory follows the records kept, not the body.
 */
import type { JsonValue } from '../../../engine/index.js';
import { RowError, type TableBinding } from './binding.js';
import { ParsedSink, Pieces, type IngressParser, type ParsedInput } from './parser.js';
import { ValueError } from './values.js';

export interface CsvRecord {
  fields: string[];
  quoted: boolean[];
  line: number;
  text: string;
}

/** Splits CSV text into records (RFC 4180 quoting; quoted fields may span lines). */
export function splitCsv(body: string): { records: CsvRecord[]; error?: { message: string; line: number }; lines: number } {
  const records: CsvRecord[] = [];
  const n = body.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const recStart = i;
    const recLine = line;
    const fields: string[] = [];
    const quoted: boolean[] = [];
    let endOfRecord = false;
    while (!endOfRecord) {
      if (body.charCodeAt(i) === 34 /* " */) {
        let value = '';
        i++;
        for (;;) {
          if (i >= n) return { records, error: { message: 'unterminated quoted field', line: recLine }, lines: line - 1 };
          const c = body.charCodeAt(i);
          if (c === 34) {
            if (body.charCodeAt(i + 1) === 34) {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === 10) line++;
          value += body[i];
          i++;
        }
        fields.push(value);
        quoted.push(true);
        // skip anything up to the separator
        while (i < n && body[i] !== ',' && body[i] !== '\n' && body[i] !== '\r') i++;
      } else {
        let j = i;
        while (j < n) {
          const c = body.charCodeAt(j);
          if (c === 44 || c === 10 || c === 13) break;
          j++;
        }
        fields.push(body.slice(i, j));
        quoted.push(false);
        i = j;
      }
      if (i >= n) endOfRecord = true;
      else if (body[i] === ',') i++;
      else {
        if (body[i] === '\r') i++;
        if (body[i] === '\n') {
          i++;
          line++;
        }
        endOfRecord = true;
      }
    }
    const text = body.slice(recStart, i);
    if (fields.length === 1 && fields[0] === '' && !quoted[0]) continue; // blank line
    records.push({ fields, quoted, line: recLine, text });
  }
  return { records, lines: line - 1 };
}

/** A CSV field as CSV writes it (quoted when it holds a separator, a quote or a line break). */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const t = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(t) || (typeof v === 'string' && t === '') ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * The incremental CSV parser: complete records are parsed as soon as a chunk ends them (a line break
 * outside quotes); the unfinished record waits, as text pieces, for the next chunk.
 */
export class CsvParser implements IngressParser {
  private readonly decoder = new TextDecoder();
  private readonly sink = new ParsedSink();
  private readonly pending = new Pieces();
  private inQuote = false;
  /** Line of the first record in `pending`. */
  private line = 1;
  private ended = false;
  private readonly vals: JsonValue[] = [];

  constructor(private readonly binding: TableBinding) {}

  push(chunk: Uint8Array): void {
    this.pushText(this.decoder.decode(chunk, { stream: true }));
  }

  pushText(text: string): void {
    // the last line break outside quotes ends the complete records of this piece
    let boundary = -1;
    let inQuote = this.inQuote;
    for (let i = 0, n = text.length; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) inQuote = !inQuote;
      else if (c === 10 && !inQuote) boundary = i;
    }
    this.inQuote = inQuote;
    if (boundary < 0) {
      this.pending.add(text);
      return;
    }
    this.records(this.pending.take(text.slice(0, boundary + 1)));
    this.pending.add(text.slice(boundary + 1));
  }

  end(): ParsedInput {
    if (!this.ended) {
      this.ended = true;
      const rest = this.decoder.decode();
      this.records(this.pending.take(rest));
    }
    const names = this.binding.names;
    return this.sink.result((c) => ('row' in c ? names.map((n) => csvField(c.row[n])).join(',') + '\n' : null) ?? '');
  }

  private records(text: string): void {
    if (text === '') return;
    const { records, error, lines } = splitCsv(text);
    const first = this.line;
    for (const rec of records) this.record(rec, first + rec.line - 1);
    this.line += lines;
    if (error) {
      const ev = this.sink.event(first + error.line - 1);
      this.sink.error({
        description: `failed to parse CSV: ${error.message}`,
        event_number: ev + 1,
        line: first + error.line - 1,
        field: null,
        invalid_bytes: null,
        invalid_text: null,
        suggestion: null,
      });
    }
  }

  private record(rec: CsvRecord, line: number): void {
    const binding = this.binding;
    const ncols = binding.names.length;
    const ev = this.sink.event(line);
    try {
      if (rec.fields.length !== ncols)
        throw new RowError(`expected ${ncols} field${ncols === 1 ? '' : 's'}, found ${rec.fields.length}`);
      const vals = this.vals;
      for (let f = 0; f < ncols; f++) {
        try {
          vals[f] = binding.csv[f]!(rec.fields[f]!, rec.quoted[f]!);
        } catch (err) {
          if (err instanceof ValueError)
            throw new RowError(`error parsing field '${binding.names[f]}': field ${f}: ${err.message}`, binding.names[f]!);
          throw err;
        }
      }
      this.sink.change(binding.change('insert', binding.makeRow(vals)), ev);
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
