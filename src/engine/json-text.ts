/**
 * JSON text of engine values, exact for every number: jsonText prints a bigint as a JSON number with all its
 * digits (JSON.stringify throws on one) and a JsonNumberText as its text; parseJsonText keeps an integer
 * literal beyond 2^53 as a bigint and another literal that a JS number would change (16 or more significant
 * digits: `1234567890123456789012345678.1234567890`) as a JsonNumberText (JSON.parse would round both).
 * Rules: the common case costs what JSON.stringify / JSON.parse cost (the exact path runs only for a value
 * holding a bigint or a JsonNumberText, or a text holding a run of 16 or more digits, points allowed between
 * them); output is the same as JSON.stringify's for everything else.
 */
import { JsonNumberText, type JsonValue } from './json-value.js';
import { markLongNumbers, mayHoldLongNumber, restoreMarks } from '../wire/json-numbers.js';

export { decimalParts, mayHoldLongNumber } from '../wire/json-numbers.js';

/** JSON.stringify that prints bigints and JsonNumberTexts as JSON numbers, digit-exact. */
export function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError) || !hasBigint(v, 0)) throw e;
    return exactText(v, 0);
  }
}

function hasBigint(v: unknown, depth: number): boolean {
  if (typeof v === 'bigint' || v instanceof JsonNumberText) return true;
  if (v === null || typeof v !== 'object' || depth > 512) return false;
  if (Array.isArray(v)) return v.some((x) => hasBigint(x, depth + 1));
  for (const k in v) if (hasBigint((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

function exactText(v: unknown, depth: number): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof JsonNumberText) return v.text;
  if (v === null || typeof v !== 'object' || depth > 512 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map((x) => (x === undefined || typeof x === 'function' ? 'null' : exactText(x, depth + 1))).join(',') + ']';
  let s = '{';
  let first = true;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || typeof x === 'function') continue;
    s += (first ? '' : ',') + JSON.stringify(k) + ':' + exactText(x, depth + 1);
    first = false;
  }
  return s + '}';
}

/** The start of the strings made here from big number literals (a NUL and a per-process nonce: not input text). */
const MARK = `\u0000num${Math.random().toString(36).slice(2)}:`;
const MARK_TEXT = MARK.replace('\u0000', '\\u0000');
/** After MARK: 'i' an integer (a bigint), 'n' another number (a JsonNumberText). */
const MARK_INT = MARK + 'i';

/**
 * JSON.parse that keeps integer literals beyond ±(2^53 - 1) exact, as bigints, and other number literals a JS
 * number would change, or that Feldera's serde_json reads as another double than the nearest (so that a DOUBLE
 * column reads them as Feldera does: wire/serde-float.ts), as JsonNumberTexts. Throws SyntaxError as JSON.parse.
 */
export function parseJsonText(text: string): unknown {
  if (!mayHoldLongNumber(text)) return JSON.parse(text);
  const marked = markLongNumbers(text, (literal, integer) => '"' + MARK_TEXT + (integer ? 'i' : 'n') + literal + '"', true);
  if (marked === text) return JSON.parse(text);
  return restoreMarks(JSON.parse(marked), MARK, fromMark);
}

function fromMark(mark: string): JsonValue {
  const literal = mark.slice(MARK.length + 1);
  return mark.startsWith(MARK_INT) ? BigInt(literal) : new JsonNumberText(literal);
}
