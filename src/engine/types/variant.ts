/**
 * VARIANT, MAP and VARBINARY values (representations in types.ts). A VARIANT is its JSON text with object keys
 * sorted, so equal values have equal text (and compare, group and join as equal); a MAP is its [key, value]
 * pairs sorted by key; a VARBINARY is the lower-case hex of its bytes.
 */
import type { JsonValue } from '../api.js';
import { compareValues, type Value } from './values.js';

/** JSON text with object keys sorted, recursively (the VARIANT representation). */
export function canonicalJson(v: JsonValue): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const keys = Object.keys(v).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson((v as Record<string, JsonValue>)[k]!)).join(',') + '}';
}

/** Parse JSON text into a VARIANT value; undefined when the text is not JSON. */
export function parseVariant(text: string): string | undefined {
  try {
    return canonicalJson(JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

export const variantValue = (v: Value): JsonValue => JSON.parse(v as string) as JsonValue;

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

export const bytesToHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const hexToBytes = (h: string): Buffer => Buffer.from(h, 'hex');
