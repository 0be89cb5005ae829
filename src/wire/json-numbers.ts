/**
 * The number literals of JSON text that a JavaScript number would change, found once for every layer:
 * engine/json-text.ts reads them as bigints and JsonNumberTexts (to compute with), core/json-exact.ts as
 * JsonNumbers (to pass a server's digits on). A leaf: imports only wire/serde-float.ts. Contract:
 * - `longDigitRuns` finds the runs of 16 or more digits (points allowed between them), the only places such a
 *   literal can be, looking at every 16th character only: the common text costs a fraction of JSON.parse;
 * - `markLongNumbers` replaces each such literal outside strings (an integer beyond ±(2^53 - 1), or another
 *   literal whose decimal value the nearest double does not print, or with `serdeDoubles` one that Feldera's
 *   serde_json reads as another double than the nearest: serde-float.ts) with the text `mark` gives, and returns the
 *   same string when there is none; malformed text is left for JSON.parse to refuse;
 * - `restoreMarks` puts the values back into the parsed value, in place of the marked strings;
 * - `changedByDouble` and `decimalParts` are the rules it uses.
 */

import { serdeF64 } from './serde-float.js';

/** A JSON number literal. */
export const NUMBER_LITERAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const isDigitOrPoint = (c: number) => (c >= 48 && c <= 57) || c === 46;

/** The runs of digits and points with 16 or more digits, as [start, end) pairs (undefined when none). */
export function longDigitRuns(text: string): number[] | undefined {
  let runs: number[] | undefined;
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
      if (digits >= 16) (runs ??= []).push(start, end);
    }
    i = end - 1; // the next look: 16 past the end of this run (no run of 16 fits between)
  }
  return runs;
}

/** Whether the text holds a run of 16 or more digits (points allowed between them). */
export function mayHoldLongNumber(text: string): boolean {
  return longDigitRuns(text) !== undefined;
}

/** The text with each literal a JS number would change (outside strings) replaced by `mark(literal, integer)`. */
export function markLongNumbers(text: string, mark: (literal: string, integer: boolean) => string, serdeDoubles = false): string {
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
      if (NUMBER_LITERAL.test(literal) && changedByDouble(literal, integer, serdeDoubles)) {
        out += text.slice(last, i) + mark(literal, integer);
        last = end;
      }
    }
    i = end - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Whether a JS number cannot carry a number literal: an integer beyond ±(2^53 - 1) (told by its digits), or
 * another literal that the double nearest to it prints as another decimal value (`1.50` is 1.5: not changed).
 */
export function changedByDouble(literal: string, integer: boolean, serdeDoubles = false): boolean {
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
  const nearest = Number(literal);
  // with serdeDoubles: a literal Feldera's serde_json reads as another double than the nearest (a DOUBLE column takes that one)
  if (serdeDoubles && serdeF64(literal) !== nearest) return true;
  const printed = String(nearest);
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

/** The parsed value with each string that starts with `mark` replaced by `fromMark(it)` (walked without recursion; no reviver, which costs more). */
export function restoreMarks(value: unknown, mark: string, fromMark: (marked: string) => unknown): unknown {
  if (typeof value === 'string') return value.startsWith(mark) ? fromMark(value) : value;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'string') {
          if (child.startsWith(mark)) v[i] = fromMark(child);
        } else if (typeof child === 'object' && child !== null) stack.push(child);
      }
    } else if (typeof v === 'object' && v !== null) {
      const obj = v as Record<string, unknown>;
      for (const k in obj) {
        const child = obj[k];
        if (typeof child === 'string') {
          if (child.startsWith(mark)) obj[k] = fromMark(child);
        } else if (typeof child === 'object' && child !== null) stack.push(child);
      }
    }
  }
  return value;
}
