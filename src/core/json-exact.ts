/**
 * JSON that carries a server's numbers through the CLI with every digit: parseJsonExact reads a number that a
 * JavaScript number would print with other digits (a BIGINT beyond 2^53, a DECIMAL(38, 10) sent as a JSON
 * number) as a JsonNumber holding the server's text; jsonText prints a JsonNumber as that text again, a JSON
 * number (JSON.stringify would print `{"text":...}`).
 * Rules: a number is kept as text only when it has 16 or more digits and is an integer beyond ±(2^53 - 1) or
 * a number JS would print as another decimal value (`1.50` still reads as 1.5, as JSON.parse reads it);
 * JsonNumbers are carried, never computed with. The common case costs about what JSON.parse / JSON.stringify
 * cost: the exact path runs only for a text holding a run of 16 or more digits (points allowed between them;
 * looking for one costs about a fifteenth of JSON.parse), and jsonText searches its output only when it
 * printed a JsonNumber.
 * Which literals those are is found by wire/json-numbers.ts, which engine/json-text.ts uses too; the jobs differ
 * after that (the engine reads big integers as bigints to compute with them; the CLI only passes any number's
 * digits on, decimals included).
 */
import { changedByDouble, longDigitRuns, markLongNumbers, NUMBER_LITERAL, restoreMarks } from '../wire/json-numbers.js';

export { mayHoldLongNumber } from '../wire/json-numbers.js';

/** Passed by parseJsonExact, which has checked the literal already. */
const CHECKED: unique symbol = Symbol('checked');

/** A number as the server wrote it, kept because a JS number would change its digits. */
export class JsonNumber {
  constructor(
    readonly text: string,
    checked?: typeof CHECKED,
  ) {
    if (checked !== CHECKED && !NUMBER_LITERAL.test(text)) throw new TypeError(`not a JSON number: ${text.slice(0, 40)}`);
  }

  toString(): string {
    return this.text;
  }

  /** What JSON.stringify meets: a marked string that jsonText turns back into the bare number. */
  toJSON(): string {
    printed++;
    return MARK + this.text;
  }
}

/** JsonNumbers JSON.stringify has met (jsonText looks for marks only when this moved). */
let printed = 0;
/** A per-process mark (a NUL and a nonce) that no text of the input can hold by chance. */
const NONCE = Math.random().toString(36).slice(2, 10);
const MARK = `\u0000num${NONCE}:`;
/** The JSON text of a mark, the opening quote included (a kept number's index and `"` follow). */
const MARK_JSON = JSON.stringify(MARK).slice(0, -1);
const MARKED = new RegExp(`"\\\\u0000num${NONCE}:([-+.eE0-9]+)"`, 'g');

/** JSON.stringify (same arguments, same text) that prints a JsonNumber as its digits. */
export function jsonText(value: unknown, indent?: number): string {
  const before = printed;
  const text = JSON.stringify(value, null, indent);
  return printed === before || text === undefined ? text : text.replace(MARKED, '$1');
}

/** JSON.parse that reads a number JS would print with other digits as a JsonNumber. Throws SyntaxError as JSON.parse. */
export function parseJsonExact(text: string): unknown {
  const runs = longDigitRuns(text);
  if (!runs) return JSON.parse(text);
  const kept: string[] = [];
  const marked = markRuns(text, runs, kept);
  if (kept.length === 0) return JSON.parse(text);
  try {
    return restore(JSON.parse(marked), kept);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  // a run inside a string looked like a number (marking it broke the text), or the text is not JSON: scan it all
  kept.length = 0;
  const scanned = markLongNumbers(text, (literal) => MARK_JSON + (kept.push(literal) - 1) + '"');
  return kept.length === 0 ? JSON.parse(text) : restore(JSON.parse(scanned), kept);
}

/** Characters a number can follow and be followed by in JSON (besides the start and end of the text). */
const beforeNumber = (c: number) => c === 58 /* : */ || c === 44 /* , */ || c === 91 /* [ */ || c === 32 || c === 10 || c === 13 || c === 9;
const afterNumber = (c: number) => c === 44 /* , */ || c === 125 /* } */ || c === 93 /* ] */ || c === 32 || c === 10 || c === 13 || c === 9;

/**
 * The quick marking: each long run that stands where a number can (with its sign and exponent) and that JS
 * would change becomes `"<MARK><index into kept>"`, without finding the strings. A run inside a string that
 * looks so is marked too, and that breaks the text for sure (the mark's quote ends the string, and the
 * backslash after it cannot stand outside one): JSON.parse throws, and parseJsonExact scans the text instead.
 */
function markRuns(text: string, runs: number[], kept: string[]): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  for (let r = 0; r < runs.length; r += 2) {
    let start = runs[r]!;
    let end = runs[r + 1]!;
    if (start > 0 && text.charCodeAt(start - 1) === 45 /* - */) start--;
    const e = text.charCodeAt(end);
    let integer = true;
    for (let j = start; j < end && integer; j++) if (text.charCodeAt(j) === 46 /* . */) integer = false;
    if (e === 101 /* e */ || e === 69 /* E */) {
      integer = false;
      end++;
      if (text.charCodeAt(end) === 43 /* + */ || text.charCodeAt(end) === 45 /* - */) end++;
      while (end < n && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
    }
    if ((start > 0 && !beforeNumber(text.charCodeAt(start - 1))) || (end < n && !afterNumber(text.charCodeAt(end)))) continue;
    const literal = text.slice(start, end);
    if (!NUMBER_LITERAL.test(literal) || !changedByDouble(literal, integer)) continue;
    out += text.slice(copied, start) + MARK_JSON + kept.length + '"';
    kept.push(literal);
    copied = end;
  }
  return out + text.slice(copied);
}

/** The parsed value with each marked string replaced by its JsonNumber. */
function restore(value: unknown, kept: string[]): unknown {
  return restoreMarks(value, MARK, (marked) => new JsonNumber(kept[Number(marked.slice(MARK.length))]!, CHECKED));
}
