/**
 * CSV ingress: one record per line, fields in column order, no header; `\r\n` and a missing final
 * newline accepted; an empty unquoted field is NULL. Every record is an insert. Pure.
 */
import type { InputChange, JsonRow } from '../../../engine/index.js';
import { RowError, type TableBinding } from './binding.js';
import type { ParsedInput } from './json.js';
import type { ParseErrorEntry } from './parse-error.js';
import { ValueError } from './values.js';

export interface CsvRecord {
  fields: string[];
  quoted: boolean[];
  line: number;
  text: string;
}

/** Splits CSV text into records (RFC 4180 quoting; quoted fields may span lines). */
export function splitCsv(body: string): { records: CsvRecord[]; error?: { message: string; line: number } } {
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
          if (i >= n) return { records, error: { message: 'unterminated quoted field', line: recLine } };
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
  return { records };
}

export function parseCsvInput(body: string, binding: TableBinding): ParsedInput {
  const { records, error } = splitCsv(body);
  const errors: ParseErrorEntry[] = [];
  const changes: InputChange[] = [];
  const eventOf: number[] = [];
  const ncols = binding.names.length;
  records.forEach((rec, ev) => {
    try {
      if (rec.fields.length !== ncols)
        throw new RowError(`expected ${ncols} field${ncols === 1 ? '' : 's'}, found ${rec.fields.length}`);
      const row: JsonRow = {};
      for (let f = 0; f < ncols; f++) {
        try {
          row[binding.names[f]!] = binding.csv[f]!(rec.fields[f]!, rec.quoted[f]!);
        } catch (err) {
          if (err instanceof ValueError)
            throw new RowError(`error parsing field '${binding.names[f]}': field ${f}: ${err.message}`, binding.names[f]!);
          throw err;
        }
      }
      changes.push(binding.change('insert', row));
      eventOf.push(ev);
    } catch (err) {
      if (!(err instanceof RowError)) throw err;
      errors.push({
        description: `failed to deserialize CSV record: ${err.message}`,
        event_number: ev + 1,
        line: rec.line,
        field: err.field,
        invalid_bytes: null,
        invalid_text: rec.text,
        suggestion: null,
      });
    }
  });
  if (error)
    errors.push({
      description: `failed to parse CSV: ${error.message}`,
      event_number: records.length + 1,
      line: error.line,
      field: null,
      invalid_bytes: null,
      invalid_text: null,
      suggestion: null,
    });
  return {
    changes,
    records: records.length + (error ? 1 : 0),
    eventOf,
    lineOf: (ev) => records[ev]?.line ?? 1,
    textOf: (ev) => records[ev]?.text ?? null,
    errors,
  };
}
