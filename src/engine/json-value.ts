/**
 * The JSON form of engine values (engine/api.ts re-exports it): what rows are made of when they cross the
 * engine's boundary, and the exact-number literal that json-text.ts reads and writes. A leaf: imports nothing.
 */

export type JsonValue = null | boolean | number | bigint | JsonNumberText | string | JsonValue[] | { [k: string]: JsonValue };

/**
 * The JSON input values a column's type keeps exactly as they are (codec-json.ts jsonKept): 'int' an integer
 * number within [lo, hi] (safe integers), 'number' any number, 'string' any string, 'boolean' true or false.
 */
export type ColumnKeeps = { kind: 'int'; lo: number; hi: number } | { kind: 'number' } | { kind: 'string' } | { kind: 'boolean' };

/** A JSON number literal (what a JsonNumberText holds: it is printed into JSON as it is). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A JSON number literal that is not an integer and whose decimal value a JS number would change (16 or more
 * significant digits: `1234567890123456789012345678.1234567890`), as parseJsonText reads it: its text, so that
 * a DECIMAL gets every digit, a DOUBLE the correctly rounded value of the literal (Number(text)) and a VARIANT
 * the same digits back. parseJsonText makes them; the constructor refuses a text that is not a JSON number
 * literal (TypeError). It is carried, never computed with. JSON.stringify throws on it, as on a bigint: write it with jsonText. Not an
 * object of JSON (not a map or a row): test `instanceof JsonNumberText` before treating an object as one. A
 * structured clone (postMessage) turns it into a plain object: send JSON text across threads instead.
 */
export class JsonNumberText {
  constructor(readonly text: string) {
    if (!JSON_NUMBER.test(text)) throw new TypeError(`not a JSON number: ${text.slice(0, 40)}`);
  }

  toString(): string {
    return this.text;
  }

  toJSON(): never {
    throw new TypeError(`a JsonNumberText (${this.text.slice(0, 40)}) is written by jsonText, not JSON.stringify`);
  }
}

export type JsonRow = Record<string, JsonValue>;
