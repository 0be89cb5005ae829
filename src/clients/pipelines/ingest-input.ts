/**
 * Reading what `ops pipe ingest` sends: NDJSON (or any JSON values back to back), a JSON array, of rows
 * (wrapped as inserts) or of changes (`{insert}`, `{delete}`, `{update}`), or CSV records (quoted fields
 * may span lines). Records are grouped into batches; JSON batches are sent with `array=true` so that the
 * server applies each batch whole or not at all. Numbers are carried digit-exact (core/json-exact.ts): a BIGINT
 * beyond 2^53 or a long DECIMAL goes to the server as it was written. A Parquet file is not read here: it goes
 * to the server whole (clients/pipelines/parquet-input.ts); only its name or first bytes tell its format.
 * Pure apart from reading the given stream.
 */
import { CsvReader, type CsvRecord } from '../../formats/csv.js';
import { JsonNumber, jsonText, parseJsonExact } from '../../core/json-exact.js';
import { JsonScanner, JsonSyntaxError, type ScannedValue } from './json-scanner.js';

export type IngestFormat = 'json' | 'csv' | 'parquet';

export class InputError extends Error {
  constructor(
    message: string,
    /** 1-based number of the record at fault, when known. */
    readonly record?: number,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

export interface Batch {
  body: string;
  records: number;
  /** 1-based number of the batch's first record in the input. */
  first: number;
}

const CHANGE_KEYS = new Set(['insert', 'delete', 'update']);

/** An object or an array (a long number read as a JsonNumber is a value, not a row). */
const isRow = (v: unknown): v is object => v !== null && typeof v === 'object' && !(v instanceof JsonNumber);

/** A change as is; anything else that is a row (object or array of values) wrapped as an insert. */
export function toEvent(value: unknown, n: number): Record<string, unknown> {
  if (Array.isArray(value)) return { insert: value };
  if (isRow(value)) {
    const keys = Object.keys(value);
    const ops = keys.filter((k) => CHANGE_KEYS.has(k));
    if (ops.length === 1 && keys.every((k) => CHANGE_KEYS.has(k) || k === 'table')) {
      const row = (value as Record<string, unknown>)[ops[0]!];
      if (!isRow(row)) throw new InputError(`record ${n}: the value of "${ops[0]}" must be a row (an object or an array)`, n);
      return value as Record<string, unknown>;
    }
    if (ops.length > 1 && keys.every((k) => CHANGE_KEYS.has(k) || k === 'table')) {
      throw new InputError(`record ${n}: a change has exactly one of "insert", "delete" or "update"`, n);
    }
    return { insert: value };
  }
  throw new InputError(`record ${n}: expected a row (an object or an array) or a change, got ${jsonText(value)}`, n);
}

/** A top-level array is a list of records when its elements are objects or arrays; otherwise one row in column order. */
function isRecordList(value: unknown[]): boolean {
  return value.length > 0 && value.every(isRow);
}

/** The change events of a JSON input, in order. */
export async function* jsonEvents(input: AsyncIterable<Buffer | string>): AsyncGenerator<Record<string, unknown>> {
  for await (const group of jsonEventGroups(input)) yield* group;
}

/** The change events of a JSON input, in order, a group per chunk read (cheaper than one await per event). */
export async function* jsonEventGroups(input: AsyncIterable<Buffer | string>): AsyncGenerator<Record<string, unknown>[]> {
  const scanner = new JsonScanner();
  let n = 0;
  const handle = function* (values: ScannedValue[]): Generator<Record<string, unknown>> {
    for (const { text, parsed, value: fast } of values) {
      let value: unknown = fast;
      if (!parsed) {
        try {
          value = parseJsonExact(text);
        } catch (err) {
          throw new InputError(`record ${n + 1}: not valid JSON (${(err as Error).message}): ${text.slice(0, 80)}`, n + 1);
        }
      }
      if (Array.isArray(value) && (isRecordList(value) || value.length === 0)) {
        for (const v of value) yield toEvent(v, ++n);
      } else yield toEvent(value, ++n);
    }
  };
  try {
    for await (const chunk of input) yield [...handle(scanner.pushValues(chunk))];
    yield [...handle(scanner.endValues())];
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new InputError(`record ${n + 1}: ${err.message}`, n + 1);
    throw err;
  }
}

/** The records (lines, or several lines when a quoted field holds newlines) of a CSV input; blank lines skipped. */
export async function* csvRecords(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  for await (const group of csvRecordGroups(input)) yield* group;
}

/** CSV records, a group per chunk read; each record's text without its line break, whitespace-only ones skipped. */
export async function* csvRecordGroups(input: AsyncIterable<Buffer | string>): AsyncGenerator<string[]> {
  const { StringDecoder } = await import('node:string_decoder');
  const decoder = new StringDecoder('utf8');
  const reader = new CsvReader();
  const texts = (records: CsvRecord[]): string[] => {
    const out: string[] = [];
    for (const r of records) {
      const text = r.text.replace(/\r?\n$|\r$/, '');
      if (text.trim() !== '') out.push(text);
    }
    return out;
  };
  for await (const chunk of input) yield texts(reader.push(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
  const last = texts(reader.push(decoder.end()));
  const { records, error } = reader.end();
  if (error) throw new InputError('the CSV input ends inside a quoted field');
  yield [...last, ...texts(records)];
}

type Rec = Record<string, unknown> | string;

/** Leaves out the first `count` records (given one by one or in groups): where a resumed ingest starts again. */
export async function* skipRecords(records: AsyncIterable<Rec | Rec[]>, count: number): AsyncGenerator<Rec | Rec[]> {
  let left = count;
  for await (const item of records) {
    if (left === 0) {
      yield item;
      continue;
    }
    const group = Array.isArray(item) ? item : [item];
    if (group.length <= left) {
      left -= group.length;
      continue;
    }
    yield group.slice(left);
    left = 0;
  }
}

/** Groups records (given one by one or in groups) into batches of at most `size`; `firstNumber` numbers the first record (1 unless records were skipped). */
export async function* batches(records: AsyncIterable<Rec | Rec[]>, size: number, firstNumber = 1): AsyncGenerator<Batch> {
  let parts: string[] = [];
  let first = firstNumber;
  let csv = false;
  let n = 0;
  const flush = (): Batch => {
    const body = csv ? parts.join('\n') + '\n' : '[' + parts.join(',') + ']';
    const batch = { body, records: parts.length, first };
    first += parts.length;
    parts = [];
    return batch;
  };
  for await (const item of records) {
    const group = Array.isArray(item) ? item : [item];
    for (const record of group) {
      n++;
      if (typeof record === 'string') {
        csv = true;
        parts.push(record);
      } else parts.push(jsonText(record));
      if (parts.length >= size) yield flush();
    }
  }
  if (parts.length > 0 || n === 0) {
    if (parts.length > 0) yield flush();
  }
}

/** The format of a file from its name, when it tells. */
export function formatFromName(path: string): IngestFormat | undefined {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.parquet')) return 'parquet';
  if (lower.endsWith('.json') || lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'json';
  return undefined;
}
