/**
 * The internal form of values (Value, Row): their total order, the keys that identify a value or a row
 * exactly, row equality, and MAP values (sorted pairs). Their JSON and CSV forms are read and written by the
 * codecs beside engine/codec.ts (codec-json.ts, codec-csv.ts).
 */
import { isInteger, type SqlType } from './types.js';
import { decimalToNumber } from './decimal.js';

export type Value = null | boolean | number | bigint | string | Value[];
export type Row = Value[];

export function toNumber(v: Value, t: SqlType): number {
  if (typeof v === 'bigint') return decimalToNumber(v, t.scale ?? 0);
  return v as number;
}

/** Total order on non-null values of the same type (numbers, bigints, strings, booleans, arrays); an integer
 *  column mixes numbers and bigints (int64.ts), which JS's < and > compare exactly. */
export function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (Array.isArray(a)) {
    const bb = b as Value[];
    const n = Math.min(a.length, bb.length);
    for (let i = 0; i < n; i++) {
      const c = compareValues(a[i]!, bb[i]!);
      if (c !== 0) return c;
    }
    return a.length - bb.length;
  }
  if (typeof a === 'boolean') return a ? 1 : -1;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

const arrayKeys = new WeakMap<Value[], string>();

/** A string that identifies a value exactly (used for hashing rows and keys). */
export function valueKey(v: Value): string {
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? '0' : String(v);
    case 'string':
      return '"' + v;
    case 'bigint':
      return v.toString() + 'n';
    case 'boolean':
      return v ? 'T' : 'F';
    default: {
      if (v === null) return 'N';
      // values are never mutated once in a row, so an array's key is computed once (an ARRAY_AGG result of n
      // elements is keyed for every delta it appears in)
      let k = arrayKeys.get(v as Value[]);
      if (k === undefined) {
        k = '[' + (v as Value[]).map(valueKey).join('\u0001') + ']';
        arrayKeys.set(v as Value[], k);
      }
      return k;
    }
  }
}

/** Key of a whole row. Strings are length-prefixed so that separators inside them cannot collide. */
export function rowKey(row: Row): string {
  let s = '';
  for (let i = 0; i < row.length; i++) {
    const v = row[i]!;
    if (typeof v === 'number') s += (Object.is(v, -0) ? '0' : v) + '|';
    else if (typeof v === 'string') s += v.length + ':' + v + '|';
    else s += valueKey(v) + '|';
  }
  return s;
}

export function isIntegralType(t: SqlType): boolean {
  return isInteger(t);
}

/** Value equality of two rows (cheaper than comparing row keys). */
export function sameRow(a: Row, b: Row): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'object' && typeof y === 'object' && x !== null && y !== null) {
      if (rowKey([x]) !== rowKey([y])) return false;
      continue;
    }
    if (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y)) continue;
    return false;
  }
  return true;
}

/** The shortest decimal that reads back as the same 32-bit float (how REAL values print). */
export function shortestF32(v: number): number {
  if (!Number.isFinite(v) || (Number.isInteger(v) && Math.abs(v) <= 2 ** 24)) return v; // larger whole numbers have shorter f32 digits: 1592749500000
  for (let p = 1; p <= 9; p++) {
    const c = Number(v.toPrecision(p));
    if (Math.fround(c) === v) return c;
  }
  return v;
}

/** A MAP from pairs: sorted by key, the last pair of a repeated key wins. */
export function makeMap(pairs: Array<[Value, Value]>): Value[] {
  const sorted = pairs.map((p, i) => ({ p, i })).sort((a, b) => compareValues(a.p[0], b.p[0]) || a.i - b.i);
  const out: Value[] = [];
  for (const { p } of sorted) {
    const last = out[out.length - 1] as Value[] | undefined;
    if (last && compareValues(last[0]!, p[0]) === 0) last[1] = p[1];
    else out.push([p[0], p[1]]);
  }
  return out;
}

/** The value of a key in a MAP value, or null. */
export function mapGet(m: Value, k: Value): Value {
  const pairs = m as Value[][];
  let lo = 0;
  let hi = pairs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareValues(pairs[mid]![0]!, k);
    if (c === 0) return pairs[mid]![1]!;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}
