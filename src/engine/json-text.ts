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
 * number would change as JsonNumberTexts. Throws SyntaxError as JSON.parse.
 */
export function parseJsonText(text: string): unknown {
  if (!mayHoldLongNumber(text)) return JSON.parse(text);
  const marked = markLongNumbers(text);
  if (marked === text) return JSON.parse(text);
  return restore(JSON.parse(marked));
}

/** The parsed value with each marked string replaced by its number (walked without recursion; no reviver, which costs more). */
function restore(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(MARK) ? fromMark(value) : value;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'string') {
          if (child.startsWith(MARK)) v[i] = fromMark(child);
        } else if (typeof child === 'object' && child !== null) stack.push(child);
      }
    } else if (typeof v === 'object' && v !== null) {
      const obj = v as Record<string, unknown>;
      for (const k in obj) {
        const child = obj[k];
        if (typeof child === 'string') {
          if (child.startsWith(MARK)) obj[k] = fromMark(child);
        } else if (typeof child === 'object' && child !== null) stack.push(child);
      }
    }
  }
  return value;
}

function fromMark(mark: string): JsonValue {
  const literal = mark.slice(MARK.length + 1);
  return mark.startsWith(MARK_INT) ? BigInt(literal) : new JsonNumberText(literal);
}

const isDigitOrPoint = (c: number) => (c >= 48 && c <= 57) || c === 46;

/**
 * Whether the text holds a run of 16 or more digits (points allowed between them): where a number may be
 * beyond what a double holds. Looks at every 16th character only (a run that long cannot fall between two
 * looks), and around a look that lands on a digit or a point.
 */
export function mayHoldLongNumber(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    if (!isDigitOrPoint(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigitOrPoint(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && isDigitOrPoint(text.charCodeAt(end))) end++;
    if (end - start >= 16) {
      let digits = 0;
      for (let j = start; j < end; j++) if (text.charCodeAt(j) !== 46) digits++;
      if (digits >= 16) return true;
    }
    i = end - 1; // the next look: 16 past the end of this run (no run of 16 fits between)
  }
  return false;
}

/**
 * The text with every number literal (outside strings) of 16 or more digits that a JS number would change
 * turned into a marked string: an integer beyond ±(2^53 - 1), or another literal whose decimal value the
 * double nearest to it does not print. Malformed text is left for JSON.parse to refuse.
 */
function markLongNumbers(text: string): string {
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
    if (c !== 45 /* - */ && (c < 48 || c > 57)) continue;
    let end = i + 1;
    let digits = c === 45 ? 0 : 1;
    let integer = true;
    for (; end < n; end++) {
      const d = text.charCodeAt(end);
      if (d >= 48 && d <= 57) digits++;
      else if (d === 46 /* . */ || d === 101 /* e */ || d === 69 /* E */ || d === 43 /* + */ || d === 45 /* - */) integer = false;
      else break;
    }
    if (digits >= 16) {
      const literal = text.slice(i, end);
      if (NUMBER_LITERAL.test(literal) && changedByDouble(literal, integer)) {
        out += text.slice(last, i) + '"' + MARK_TEXT + (integer ? 'i' : 'n') + literal + '"';
        last = end;
      }
    }
    i = end - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A JSON number literal (what a mark may hold; JsonNumberText checks its text again). */
const NUMBER_LITERAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Whether a JS number cannot carry a number literal: an integer beyond ±(2^53 - 1), or another literal that the
 * double nearest to it prints as another decimal value (`1.50` is 1.5, the same value: not changed).
 */
function changedByDouble(literal: string, integer: boolean): boolean {
  if (integer) {
    const digits = literal.charCodeAt(0) === 45 /* - */ ? literal.slice(1) : literal;
    return digits.length > 16 || (digits.length === 16 && digits > '9007199254740991');
  }
  // 18 or more significant digits before the exponent: no double prints that value (17 digits say every one)
  let digits = 0; // digits from the first non-zero one on
  let significant = 0; // ... up to the last non-zero one
  for (let i = 0; i < literal.length; i++) {
    const c = literal.charCodeAt(i);
    if (c === 101 /* e */ || c === 69 /* E */) break;
    if (c < 48 || c > 57 || (digits === 0 && c === 48)) continue;
    digits++;
    if (c !== 48) significant = digits;
  }
  if (significant >= 18) return true;
  const printed = String(Number(literal));
  return printed !== literal && !sameDecimal(literal, printed);
}

/** Whether two number literals write the same decimal value (`1.50` and `1.5`, `1e21` and `1000000000000000000000`). */
function sameDecimal(a: string, b: string): boolean {
  const x = decimalParts(a);
  const y = decimalParts(b);
  return x.digits === y.digits && (x.digits === '' || (x.negative === y.negative && x.exponent === y.exponent));
}

/**
 * A number literal as sign, significant digits (no leading or trailing zeros; '' for zero) and the power of ten
 * of the last one: `-0.0120e3` is {negative, '12', -1}.
 */
export function decimalParts(literal: string): { negative: boolean; digits: string; exponent: number } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return { negative: false, digits: literal, exponent: 0 };
  const fraction = m[3] ?? '';
  let digits = ((m[2] ?? '') + fraction).replace(/^0+/, '');
  let exponent = Number(m[4] ?? 0) - fraction.length;
  const trimmed = digits.replace(/0+$/, '');
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  return { negative: m[1] === '-', digits, exponent };
}
