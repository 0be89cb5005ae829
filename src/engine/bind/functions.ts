/**
 * Scalar function calls: looked up by name in the per-family registries of bind/fns/ (string, numeric,
 * datetime, array, conditional, map, json, binary, period, hash, system). Aggregates are in bind/fns/aggregate.ts.
 */
import type { Pos } from '../parse/ast.js';
import type { BExpr } from './bexpr.js';
import { lookup, type FnTable } from './fns/registry.js';
import { STRING_FNS } from './fns/string.js';
import { NUMERIC_FNS } from './fns/numeric.js';
import { DATETIME_FNS } from './fns/datetime.js';
import { ARRAY_FNS } from './fns/array.js';
import { CONDITIONAL_FNS } from './fns/conditional.js';
import { MAP_FNS } from './fns/map.js';
import { JSON_FNS } from './fns/json.js';
import { BINARY_FNS } from './fns/binary.js';
import { PERIOD_FNS } from './fns/period.js';
import { HASH_FNS } from './fns/hash.js';
import { SYSTEM_FNS } from './fns/system.js';
import { FLOOR_CEIL_TO_FNS } from './fns/floor-ceil-to.js';

export const SCALAR_FAMILIES: Record<string, FnTable> = {
  string: STRING_FNS,
  numeric: NUMERIC_FNS,
  datetime: DATETIME_FNS,
  array: ARRAY_FNS,
  conditional: CONDITIONAL_FNS,
  map: MAP_FNS,
  json: JSON_FNS,
  binary: BINARY_FNS,
  period: PERIOD_FNS,
  hash: HASH_FNS,
  system: SYSTEM_FNS,
  datetimeRounding: FLOOR_CEIL_TO_FNS,
};
const TABLES = Object.values(SCALAR_FAMILIES);

export function bindFunction(name: string, args: BExpr[], pos: Pos): BExpr {
  return lookup(TABLES, name, args, pos).bind(args, pos, name);
}

/** Every scalar function name the engine binds. */
export function scalarFunctionNames(): string[] {
  return TABLES.flatMap((t) => Object.keys(t));
}

export { UNIT_ARG } from './fns/datetime.js';
