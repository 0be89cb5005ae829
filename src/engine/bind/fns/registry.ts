/**
 * The scalar function registry: one table per family (string, numeric, datetime, array, map, json), merged here.
 * Each entry says its documented signature and its NULL rule and binds a call to typed arguments. Aliases share
 * one entry. Rules: an entry checks its argument types and throws a 'type' SqlError naming the function; the
 * bound closure never throws on data (bad data gives NULL, as a failed CAST does) except to refuse the step:
 * an integer overflow, or a value past the size limit (types/value-limits.ts).
 */
import { SqlError, type Pos } from '../../parse/ast.js';
import type { BExpr } from '../bexpr.js';

export interface ScalarFn {
  /** Signature(s) as Feldera documents them, e.g. 'UPPER(string) -> VARCHAR'. */
  sig: string;
  /** 'strict': NULL when any argument is NULL; otherwise the rule in words. */
  nulls: string;
  bind: (args: BExpr[], pos: Pos, name: string) => BExpr;
}

export type FnTable = Record<string, ScalarFn>;

/** Give several names one entry. */
export function aliases(names: string[], fn: ScalarFn): FnTable {
  const t: FnTable = {};
  for (const n of names) t[n] = fn;
  return t;
}

export function lookup(tables: FnTable[], name: string, args: BExpr[], pos: Pos): ScalarFn {
  for (const t of tables) {
    const f = Object.prototype.hasOwnProperty.call(t, name) ? t[name] : undefined;
    if (f) return f;
  }
  // ROLLUP inside a GROUP BY item is a syntax error to Calcite (its parser takes it only at the top)
  if (name === 'ROLLUP') throw new SqlError("Incorrect syntax near the keyword 'ROLLUP'", pos, 'syntax');
  throw new SqlError(`No match found for function signature ${name}(${args.map((a) => `<${typeFamily(a.type.kind)}>`).join(', ')})`, pos, 'unsupported');
}

/** Calcite's family name of a type kind, as its "No match found" text writes the arguments: FOO(<CHARACTER>, <NUMERIC>). */
function typeFamily(kind: string): string {
  if (kind === 'VARCHAR' || kind === 'CHAR') return 'CHARACTER';
  if (['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'DECIMAL', 'REAL', 'DOUBLE'].includes(kind)) return 'NUMERIC';
  if (kind === 'VARBINARY') return 'BINARY';
  if (kind === 'INTERVAL_DT') return 'INTERVAL_DAY_TIME';
  if (kind === 'INTERVAL_YM') return 'INTERVAL_YEAR_MONTH';
  return kind;
}
