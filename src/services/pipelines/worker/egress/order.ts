/**
 * The order Feldera emits rows in: by the row, its columns compared in order, NULL before any value
 * (Rust's Option order), numbers and DECIMAL strings by value, text by code unit. Snapshots read the
 * contents in this order; each step's changes are sorted by it before they are encoded (a row's delete
 * before its insert when both appear, which a consolidated step never has).
 */
import { JsonNumberText, jsonText, type ColumnSchema, type JsonRow, type JsonValue, type WeightedRow } from '../../../../engine/index.js';

const NUMERIC = /^(DECIMAL|NUMERIC|DEC|NUMBER)\b/i;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

function rank(v: JsonValue): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonNumberText) return 2; // an integer beyond 2^53 is a bigint, a long number in a VARIANT a JsonNumberText
  if (typeof v === 'string') return 3;
  return 4;
}

function compareValue(a: JsonValue, b: JsonValue, numeric: boolean): number {
  // the common cases first (sorting a big step is mostly these)
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return a < b ? -1 : a > b ? 1 : 0;
  if (!numeric && typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  if (numeric && typeof a === 'string' && typeof b === 'string') {
    const d = Number(a) - Number(b);
    if (d !== 0 && !Number.isNaN(d)) return d < 0 ? -1 : 1;
    // equal as doubles: a long DECIMAL differs beyond them; at one scale (the column's), their digits compare as integers
    if (d === 0 && DECIMAL_TEXT.test(a) && DECIMAL_TEXT.test(b) && a.length - a.indexOf('.') === b.length - b.indexOf('.')) {
      const x = BigInt(a.replace('.', ''));
      const y = BigInt(b.replace('.', ''));
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (ra === 2) {
    // a long number (JsonNumberText) beside another number: by value as far as doubles tell, then by text
    const d = Number(String(a)) - Number(String(b));
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const sa = jsonText(a);
  const sb = jsonText(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

export function rowComparator(columns: ColumnSchema[]): (a: JsonRow, b: JsonRow) => number {
  const numeric = columns.map((c) => NUMERIC.test(c.type.trim()));
  const names = columns.map((c) => c.name);
  return (a, b) => {
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const d = compareValue(a[name] ?? null, b[name] ?? null, numeric[i]!);
      if (d !== 0) return d;
    }
    return 0;
  };
}

/** A step's changes in Feldera's order: by row, then deletes first. Already sorted input is left as it is. */
export function stepOrder(rows: WeightedRow[], columns: ColumnSchema[]): WeightedRow[] {
  if (rows.length < 2 || columns.length === 0) return rows;
  const cmp = rowComparator(columns);
  const byRow = (a: WeightedRow, b: WeightedRow): number => cmp(a.row, b.row) || a.weight - b.weight;
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) if (byRow(rows[i - 1]!, rows[i]!) > 0) sorted = false;
  if (sorted) return rows;
  // a first column of plain numbers (ids, keys: the usual case) is compared from a typed copy
  const first = columns[0]!.name;
  const keys = new Float64Array(rows.length);
  let numbers = true;
  for (let i = 0; i < rows.length && numbers; i++) {
    const v = rows[i]!.row[first];
    if (typeof v === 'number' && !Number.isNaN(v)) keys[i] = v;
    else numbers = false;
  }
  if (!numbers) return rows.slice().sort(byRow);
  const order = Array.from({ length: rows.length }, (_, i) => i);
  order.sort((i, j) => keys[i]! - keys[j]! || byRow(rows[i]!, rows[j]!));
  return order.map((i) => rows[i]!);
}
