/**
 * VARIANT, MAP and VARBINARY values (representations in types.ts). A VARIANT is its JSON text with object keys
 * sorted, so equal values have equal text (and compare, group and join as equal); a MAP is its [key, value]
 * pairs sorted by key; a VARBINARY is the lower-case hex of its bytes.
 */
import { JsonNumberText, type JsonValue } from '../json-value.js';
import type { Value } from './values.js';
import { parseJsonText } from '../json-text.js';

/**
 * JSON text with object keys sorted, recursively (the VARIANT representation). A number a JS number would change
 * (a bigint, a JsonNumberText) keeps its digits; trailing zeros of a fraction are dropped (one value, one text).
 */
export function canonicalJson(v: JsonValue): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof JsonNumberText) return /^[^eE]*\.\d*0$/.test(v.text) ? v.text.replace(/\.?0+$/, '') : v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const keys = Object.keys(v).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson((v as Record<string, JsonValue>)[k]!)).join(',') + '}';
}

/** A JSON object (a map): not null, an array or a number kept as its text (JsonNumberText). */
export const isJsonObject = (j: JsonValue): j is { [k: string]: JsonValue } => j !== null && typeof j === 'object' && !Array.isArray(j) && !(j instanceof JsonNumberText);

/** Parse JSON text into a VARIANT value; undefined when the text is not JSON. */
export function parseVariant(text: string): string | undefined {
  try {
    return canonicalJson(parseJsonText(text) as JsonValue);
  } catch {
    return undefined;
  }
}

export const variantValue = (v: Value): JsonValue => parseJsonText(v as string) as JsonValue;

export const bytesToHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const hexToBytes = (h: string): Buffer => Buffer.from(h, 'hex');
