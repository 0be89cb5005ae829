/**
 * JSON text of engine values, exact for 64-bit integers: jsonText prints a bigint as a JSON number with all
 * its digits (JSON.stringify throws on one); parseJsonText keeps an integer literal beyond 2^53 as a bigint
 * (JSON.parse would round it). Rules: the common case costs what JSON.stringify / JSON.parse cost (the exact
 * path runs only for a value holding a bigint, or a text holding a run of 16 or more digits); output is the
 * same as JSON.stringify's for everything else.
 */
import type { JsonValue } from './api.js';

/** JSON.stringify that prints bigints as JSON numbers, digit-exact. */
export function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError) || !hasBigint(v, 0)) throw e;
    return exactText(v, 0);
  }
}

function hasBigint(v: unknown, depth: number): boolean {
  if (typeof v === 'bigint') return true;
  if (v === null || typeof v !== 'object' || depth > 512) return false;
  if (Array.isArray(v)) return v.some((x) => hasBigint(x, depth + 1));
  for (const k in v) if (hasBigint((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

function exactText(v: unknown, depth: number): string {
  if (typeof v === 'bigint') return v.toString();
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

const LONG_DIGITS = /\d{16}/;
/** The start of the strings made here from big number literals (a NUL and a per-process nonce: not input text). */
const MARK = `\u0000bigint${Math.random().toString(36).slice(2)}:`;
const MARK_TEXT = MARK.replace('\u0000', '\\u0000');

/** JSON.parse that keeps integer literals beyond ±(2^53 - 1) exact, as bigints. Throws SyntaxError as JSON.parse. */
export function parseJsonText(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const marked = markBigIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? toInt(v.slice(MARK.length)) : v));
}

function toInt(digits: string): JsonValue {
  const b = BigInt(digits);
  return b >= -BigInt(Number.MAX_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
}

/**
 * The text with every integer literal (outside strings) too long for a safe integer turned into a marked
 * string; a literal with a fraction or exponent stays a number. Malformed text is left for JSON.parse to refuse.
 */
function markBigIntegers(text: string): string {
  let out = '';
  let last = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
      continue;
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      let j = c === 45 ? i + 1 : i;
      const digitsStart = j;
      while (j < n && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const next = j < n ? text.charCodeAt(j) : 0;
      const isInteger = next !== 46 /* . */ && next !== 101 && next !== 69; /* e E */
      if (isInteger && j - digitsStart >= 16 && text.charCodeAt(digitsStart) !== 48) {
        const lit = text.slice(i, j);
        if (!Number.isSafeInteger(Number(lit))) {
          out += text.slice(last, i) + '"' + MARK_TEXT + lit + '"';
          last = j;
        }
      }
      i = j - 1;
      // skip the rest of a float literal
      if (!isInteger) while (i + 1 < n && /[0-9.eE+-]/.test(text[i + 1]!)) i++;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
