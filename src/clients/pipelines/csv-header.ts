/**
 * A header line in CSV input for `ops pipe ingest`. The server takes Feldera's header-less CSV (fields in the
 * table's column order); a file whose first record names the table's columns (any order, ignoring case and
 * surrounding spaces, each column exactly once) is read as header + records, and every record is re-ordered
 * into the table's column order. Pure: records in, records out.
 * Rules: detected only when the first record names exactly the table's columns; `header: true` requires it
 * (a clear error names what does not match), `header: false` never reads one.
 */
import { splitCsv, writeCsvRecord } from '../../formats/csv.js';
import { InputError } from './ingest-input.js';

/** The fields of one CSV record (RFC 4180: quoted fields, "" for a quote inside them). */
export function csvFields(record: string): string[] {
  return splitCsv(record, { keepBlankLines: true }).records[0]?.fields ?? [''];
}

/** One CSV record of these fields, quoted where a field needs it. */
export function csvRecord(fields: readonly string[]): string {
  return writeCsvRecord(fields);
}

const fold = (name: string) => name.trim().toLowerCase();

/**
 * For each table column, the index of its field in the header; undefined when the record is not a header of
 * these columns (with the reason, for `header: true`).
 */
export function headerMapping(first: string, columns: readonly string[]): { mapping?: number[]; reason?: string } {
  const names = csvFields(first).map(fold);
  const index = new Map<string, number>();
  for (const [i, n] of names.entries()) {
    if (index.has(n)) return { reason: `it names "${n}" twice` };
    index.set(n, i);
  }
  const wanted = columns.map(fold);
  const unknown = names.filter((n) => !wanted.includes(n));
  const missing = columns.filter((c) => !index.has(fold(c)));
  if (unknown.length || missing.length) {
    const parts = [unknown.length ? `not columns of the table: ${unknown.join(', ')}` : '', missing.length ? `missing: ${missing.join(', ')}` : ''];
    return { reason: parts.filter(Boolean).join('; ') };
  }
  return { mapping: wanted.map((c) => index.get(c)!) };
}

export interface HeaderOptions {
  /** true: the first record is a header; false: it is data; undefined: a header when it names the columns. */
  header?: boolean;
  /** The table's columns in order; undefined when the server does not describe them. */
  columns?: readonly string[];
  /** Told once whether a header was read. */
  onHeader?: (read: boolean) => void;
}

/** CSV records with a header line taken out and the records re-ordered to the table's columns. */
export async function* applyCsvHeader(groups: AsyncIterable<string[]>, options: HeaderOptions): AsyncGenerator<string[]> {
  if (options.header === false) {
    options.onHeader?.(false);
    yield* groups;
    return;
  }
  let mapping: number[] | undefined;
  let decided = false;
  let n = 0;
  for await (const group of groups) {
    let records = group;
    if (!decided && records.length > 0) {
      decided = true;
      const first = records[0]!;
      if (!options.columns) {
        if (options.header === true) throw new InputError('--header: the pipeline does not describe the columns of this table, so the header cannot be mapped', 1);
      } else {
        const found = headerMapping(first, options.columns);
        if (found.mapping) {
          mapping = found.mapping;
          records = records.slice(1);
        } else if (options.header === true) throw new InputError(`--header: the first record is not a header of the table's columns (${found.reason})`, 1);
      }
      options.onHeader?.(mapping !== undefined);
    }
    if (!mapping) {
      yield records;
      continue;
    }
    const width = mapping.length;
    const map = mapping;
    yield records.map((rec) => {
      n++;
      const fields = csvFields(rec);
      if (fields.length !== width) throw new InputError(`record ${n} (after the header) has ${fields.length} field${fields.length === 1 ? '' : 's'}; the header has ${width}`, n);
      return csvRecord(map.map((i) => fields[i]!));
    });
  }
}
