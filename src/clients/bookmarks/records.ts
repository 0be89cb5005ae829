/**
 * Records for bulk input and CSV export: a JSON array, NDJSON (one object per line) or CSV with a header
 * row (RFC 4180: quoted fields, doubled quotes, newlines inside quotes; read and written by src/formats/csv.ts).
 * Pure.
 */
import { CsvError, parseCsvRows, writeCsvField } from '../../formats/csv.js';

export class RecordsError extends Error {}

export type RecordValue = unknown;
export type InputRecord = Record<string, RecordValue>;

export type RecordFormat = 'json' | 'ndjson' | 'csv';

/** Guess the format from the file name, else from the first non-blank character. */
export function detectFormat(text: string, filename?: string): RecordFormat {
  const lower = filename?.toLowerCase() ?? '';
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('[')) return 'json';
  if (body.startsWith('{')) {
    // One object spread over many lines is JSON too (a single item); NDJSON has one per line.
    try {
      JSON.parse(body);
      return 'json';
    } catch {
      return 'ndjson';
    }
  }
  // Bare ids one per line (`jq -c '.[].id'`, also a single one) are NDJSON, not a CSV whose header is the first id.
  const lines = body.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length && lines.every((l) => /^"?\d+"?$/.test(l.trim()))) return 'ndjson';
  return 'csv';
}

export function parseRecords(text: string, format: RecordFormat = detectFormat(text)): InputRecord[] {
  const body = text.replace(/^\uFEFF/, '');
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (err) {
      throw new RecordsError(`the input is not valid JSON: ${(err as Error).message}`);
    }
    const items = Array.isArray(value) ? value : [value];
    return items.map((item, i) => asRecord(item, `item ${i + 1}`));
  }
  if (format === 'ndjson') {
    const out: InputRecord[] = [];
    body.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new RecordsError(`line ${i + 1} is not valid JSON: ${(err as Error).message}`);
      }
      out.push(asRecord(value, `line ${i + 1}`));
    });
    return out;
  }
  const rows = parseCsv(body);
  if (rows.length === 0) return [];
  const header = rows[0]!.map((h) => h.trim());
  if (header.some((h) => h === '')) throw new RecordsError('the CSV header has an empty column name');
  return rows
    .slice(1)
    .filter((r) => !(r.length === 1 && r[0] === ''))
    .map((r, i) => {
      if (r.length > header.length) throw new RecordsError(`CSV row ${i + 2} has ${r.length} fields but the header has ${header.length}`);
      const rec: InputRecord = {};
      header.forEach((h, j) => {
        const v = r[j];
        if (v !== undefined && v !== '') rec[h] = v;
      });
      return rec;
    });
}

/** Bare numbers (ids) are accepted as `{id}` records. */
function asRecord(value: unknown, where: string): InputRecord {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return { id: Number(value) };
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new RecordsError(`${where} is not an object`);
  return value as InputRecord;
}

/** The rows of a CSV text (blank lines kept as one empty field; the caller skips them after the header). */
export function parseCsv(text: string): string[][] {
  try {
    return parseCsvRows(text, { keepBlankLines: true });
  } catch (err) {
    if (err instanceof CsvError) throw new RecordsError('the CSV input ends inside a quoted field');
    throw err;
  }
}

/** A value as a CSV field: lists joined with commas, objects as JSON; quoted when it has edge spaces too. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return writeCsvField(text, { quoteEdgeSpace: true });
}

export function toCsv(header: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [header.map(csvField).join(',')];
  for (const r of rows) lines.push(header.map((h) => csvField(r[h])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** A list field of a record: an array, or a comma-separated string ("a, b"). Numbers stay numbers. */
export function listField(value: unknown): (string | number)[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = Array.isArray(value) ? value : String(value).split(',');
  return parts
    .map((p) => (typeof p === 'number' ? p : typeof p === 'string' ? p.trim() : p && typeof p === 'object' && 'id' in p ? Number((p as { id: unknown }).id) : String(p).trim()))
    .filter((p) => p !== '');
}
