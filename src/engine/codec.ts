/**
 * Input value codecs per table (CompiledProgram.inputCodec): each column's JSON and CSV input checked against
 * its SQL type with the engine's own rules (types/values.ts), so other code need not copy them. The result is
 * the value's JSON output form (DECIMAL as a string with its scale, dates as text, MAP as an object with sorted
 * keys, VARIANT as its JSON value, ...), which the engine accepts back as input unchanged.
 */
import { EngineValueError, type ColumnCodec, type InputCodec, type JsonValue } from './api.js';
import { typeToString, type SqlType } from './types/types.js';
import { fromCsv, fromJson, toJson, ValueError, type Value } from './types/values.js';

function guard(name: string, t: SqlType, read: () => Value): JsonValue {
  let v: Value;
  try {
    v = read();
  } catch (e) {
    if (e instanceof ValueError) throw new EngineValueError(e.message);
    throw e;
  }
  if (v === null && !t.nullable) throw new EngineValueError(`invalid type: null, expected a value for the NOT NULL column ${name}`);
  return toJson(v, t);
}

export function inputCodec(columns: Array<{ name: string; type: SqlType }>): InputCodec {
  return {
    columns: columns.map(({ name, type }): ColumnCodec => ({
      name,
      type: typeToString(type),
      nullable: type.nullable,
      fromJson: (v) => guard(name, type, () => fromJson(v, type)),
      fromCsv: (text) => guard(name, type, () => fromCsv(text, type)),
    })),
  };
}
