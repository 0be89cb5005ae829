/**
 * Value codecs per relation (CompiledProgram.inputCodec / valueCodec): each column's JSON and CSV input
 * checked against its SQL type with the engine's own rules (types/values.ts), so no other code copies them.
 * The result is the value's JSON output form (DECIMAL as a string with its scale, dates as text, MAP as an
 * object with sorted keys, VARIANT as its JSON value, ...), which the engine accepts back as input unchanged.
 * Rules: messages are serde's, as Feldera's JSON and CSV readers word them; NULL (a JSON null, an empty CSV
 * field) in a NOT NULL column is refused here. The common cases (an integer in range, a string for VARCHAR,
 * a number for DOUBLE, a boolean) are the output form already and come back as they are, without the
 * internal form in between: this is on the ingress path of every value. A long JSON literal for a DOUBLE or
 * REAL is read as serde_json reads it (wire/serde-float.ts); CSV and casts keep the nearest double.
 */
import { EngineValueError, type ColumnCodec, type InputCodec, type JsonValue } from './api.js';
import { typeToString, type SqlType } from './types/types.js';
import { plainTimestampText } from './types/datetime.js';
import { type Value } from './types/values.js';
import { expectedText, floatInput, fromJson, jsonKept, toJson } from './codec-json.js';
import { fromCsv } from './codec-csv.js';

type Reader = (v: JsonValue) => JsonValue;

/** JSON input (not null) to the output form: fromJson then toJson, with shortcuts for the common types. */
function jsonReader(t: SqlType): Reader {
  const full: Reader = (v) => toJson(fromJson(v, t), t);
  const kept = jsonKept(t);
  switch (kept?.kind) {
    case 'int': {
      const { lo, hi } = kept;
      return (v) => (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : full(v));
    }
    case 'string':
      return (v) => (typeof v === 'string' ? v : full(v));
    case 'number':
      // a long literal as Feldera's serde_json reads it into a double (not always the nearest: serde-float.ts)
      return (v) => (typeof v === 'number' ? v : full(floatInput(v)!));
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : full(v));
    case undefined:
      break; // no shortcut for this type: by its kind below
  }
  switch (t.kind) {
    case 'REAL':
      return (v) => full(floatInput(v)!);
    case 'TIMESTAMP': {
      // also milliseconds since the epoch, as a number (Feldera's millis_since_epoch form)
      // the plain shape clients send ('YYYY-MM-DD HH:MM:SS.fff') read by hand: no parse, no format, on every row
      const text = checkedText(t, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{0,5}[1-9])?$/, full);
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? toJson(Math.trunc(v), t) : ((typeof v === 'string' ? plainTimestampText(v) : undefined) ?? text(v)));
    }
    case 'DATE':
      return checkedText(t, /^\d{4}-\d{2}-\d{2}$/, full);
    case 'TIME':
      return checkedText(t, /^\d{2}:\d{2}:\d{2}(?:\.\d{0,8}[1-9])?$/, full);
    case 'DECIMAL': {
      const scale = t.scale ?? 0;
      const canonical = new RegExp(`^-?(?:0|[1-9]\\d*)${scale > 0 ? `\\.\\d{${scale}}` : ''}$`);
      // '-0.00' is written '0.00'
      return (v) => (typeof v === 'string' && canonical.test(v) && fromJson(v, t) !== 0n ? v : full(v));
    }
    default:
      return full;
  }
}

/**
 * A reader that gives back a string already in the output form (`canonical`: what toJson would write) once
 * the engine's rules accept it, without writing it again; other values take the full way.
 */
function checkedText(t: SqlType, canonical: RegExp, full: Reader): Reader {
  return (v) => {
    if (typeof v !== 'string' || !canonical.test(v)) return full(v);
    fromJson(v, t);
    return v;
  };
}

/** Types whose CSV field is read as the JSON string of the same text (fromCsv's rule): the JSON reader serves. */
const CSV_AS_JSON_TEXT: ReadonlySet<SqlType['kind']> = new Set(['DATE', 'TIME', 'TIMESTAMP', 'DECIMAL']);

export function columnCodec(name: string, t: SqlType, dflt: Value = null): ColumnCodec {
  const expected = expectedText(t);
  const read = jsonReader(t);
  const nullable = t.nullable;
  const jsonNull = (): null => {
    if (!nullable) throw new EngineValueError(`invalid type: null, expected ${expected}`);
    return null;
  };
  const csvNull = (): null => {
    if (!nullable) throw new EngineValueError(`empty field for a NOT NULL column, expected ${expected}`);
    return null;
  };
  const csvFull = (text: string, quoted: boolean): JsonValue => {
    const v: Value = fromCsv(text, t, quoted);
    return v === null ? csvNull() : toJson(v, t);
  };
  return {
    name,
    type: typeToString(t),
    nullable,
    fromJson: (v) => (v === null || v === undefined ? jsonNull() : read(v)),
    keeps: jsonKept(t),
    fromCsv:
      t.kind === 'VARCHAR'
        ? (text, quoted = false) => (text !== '' || quoted ? text : csvNull())
        : CSV_AS_JSON_TEXT.has(t.kind)
          ? (text) => (text === '' ? csvNull() : read(text))
          : (text, quoted = false) => csvFull(text, quoted),
    missing: dflt === null ? null : { value: toJson(dflt, t) },
  };
}

/** The codecs of a relation's columns; a table's columns bring their DEFAULT values (`dflt`). */
export function inputCodec(columns: Array<{ name: string; type: SqlType; dflt?: Value }>): InputCodec {
  return { columns: columns.map(({ name, type, dflt }) => columnCodec(name, type, dflt ?? null)) };
}
