/**
 * Feldera's `snowflake` JSON flavor for egress rows (feldera-types serde_config.rs, JsonFlavor::Snowflake):
 * TIMESTAMP as `%Y-%m-%dT%H:%M:%S%.f%:z` (`2024-01-02T03:04:05.120+00:00`), TIME as `%H:%M:%S%.f`, VARIANT
 * as a string holding its JSON text; DATE, DECIMAL (a string), binary (an array of bytes) and the rest as
 * the default flavor writes them. `%.f` writes the fraction in groups of 3 digits, nothing when it is zero.
 * Rules: only a column's own value is rewritten (values nested in ARRAY, MAP or ROW columns are written as
 * the default flavor has them); the row passed in is not changed.
 */
import { jsonText, type ColumnSchema, type JsonRow, type JsonValue } from '../../../../engine/index.js';

/** A fraction's digits in chrono's `%.f` form: padded to 3, 6 or 9 digits; none when zero. */
function chronoFraction(digits: string): string {
  const d = digits.replace(/0+$/, '');
  if (d === '') return '';
  return '.' + d.padEnd(Math.ceil(d.length / 3) * 3, '0');
}

function snowflakeTimestamp(v: string): string {
  // our output text: 'YYYY-MM-DD HH:MM:SS[.f]'
  const m = /^(-?\d+-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(v);
  return m ? `${m[1]}T${m[2]}${chronoFraction(m[3] ?? '')}+00:00` : v;
}

function snowflakeTime(v: string): string {
  const m = /^(\d{2}:\d{2}:\d{2})(?:\.(\d+))?$/.exec(v);
  return m ? `${m[1]}${chronoFraction(m[2] ?? '')}` : v;
}

function snowflakeValue(v: JsonValue, type: string): JsonValue {
  if (v === null || v === undefined) return v;
  if (type === 'TIMESTAMP' && typeof v === 'string') return snowflakeTimestamp(v);
  if (type === 'TIME' && typeof v === 'string') return snowflakeTime(v);
  if (type === 'VARIANT') return jsonText(v);
  return v;
}

/** The row with its values in the given flavor (a new object; `default` gives the row itself). */
export function flavoredRow(row: JsonRow, columns: ColumnSchema[], flavor: 'default' | 'snowflake'): JsonRow {
  if (flavor === 'default') return row;
  const out: JsonRow = { ...row };
  for (const c of columns) {
    const t = c.type.trim().toUpperCase();
    if ((t === 'TIMESTAMP' || t === 'TIME' || t === 'VARIANT') && c.name in out) out[c.name] = snowflakeValue(out[c.name] as JsonValue, t);
  }
  return out;
}
