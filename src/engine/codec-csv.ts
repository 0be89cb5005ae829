/** The CSV form of values: one field's text read into the internal form (types/values.ts), as Feldera's CSV reader reads it. */
import type { JsonValue } from './json-value.js';
import { isInteger, type SqlType } from './types/types.js';
import { INT_BOUNDS, normInt, parseIntText } from './types/int64.js';
import { parseJsonText } from './json-text.js';
import type { Value } from './types/values.js';
import { expectedText, fromJson, ValueError } from './codec-json.js';

/**
 * Convert one CSV field (text) to the internal form. An empty field is NULL, except a quoted one (`""`)
 * for a string type, which is the empty string.
 */
export function fromCsv(text: string, t: SqlType, quoted = false): Value {
  if (text === '') return quoted && (t.kind === 'VARCHAR' || t.kind === 'CHAR') ? fromJson(text, t) : null;
  if (isInteger(t)) {
    const b = parseIntText(text);
    if (b === undefined) throw new ValueError('invalid digit found in string');
    const { blo, bhi } = INT_BOUNDS[t.kind]!;
    if (b < blo || b > bhi) throw new ValueError('number too large to fit in target type');
    return normInt(b); // exact over the whole type: a bigint beyond 2^53
  }
  switch (t.kind) {
    case 'BOOLEAN': {
      const s = text.trim().toLowerCase();
      if (s === 'true') return true;
      if (s === 'false') return false;
      throw new ValueError(`provided string was not \`true\` or \`false\``);
    }
    case 'REAL':
    case 'DOUBLE': {
      const n = Number(text.trim());
      if (text.trim() === '' || Number.isNaN(n)) throw new ValueError('invalid float literal');
      return fromJson(n, t);
    }
    case 'ARRAY':
    case 'MAP':
    case 'ROW':
    case 'VARIANT': {
      let parsed: JsonValue;
      try {
        parsed = parseJsonText(text) as JsonValue; // BIGINT elements keep their digits
      } catch {
        throw new ValueError(`expected ${expectedText(t)} written as JSON`);
      }
      return fromJson(parsed, t);
    }
    default:
      return fromJson(text, t);
  }
}
