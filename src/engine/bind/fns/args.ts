/** Argument checks and coercions shared by the function families: each throws a 'type' SqlError naming the function. */
import { SqlError, type Pos } from '../../parse/ast.js';
import { type SqlType, mk, commonType, commonTypeCoercing, isInteger, isFloat, isNumeric, isString, isDecimal, withNull } from '../../types/types.js';
import { decimalToNumber } from '../../types/decimal.js';
import { DAY_MS } from '../../types/datetime.js';
import { type BExpr, strict1 } from '../bexpr.js';
import { castFn } from '../cast.js';

export function coerceTo(e: BExpr, t: SqlType, pos: Pos): BExpr {
  if (e.type.kind === t.kind && e.type.scale === t.scale) return e;
  if (e.type.kind === 'NULL') return { ...e, type: withNull(t, true) };
  return strict1(e, withNull(t, e.type.nullable), castFn(e.type, t, pos));
}

export function argc(name: string, args: BExpr[], min: number, max: number, pos: Pos): void {
  if (args.length < min || args.length > max) {
    throw new SqlError(`Invalid number of arguments to function '${name}'. Was expecting ${min === max ? min : `${min} to ${max}`} arguments`, pos, 'type');
  }
}

/** Calcite's refusal text: Cannot apply 'F' to arguments of type 'F(<A>, <B>)'. */
export function typeErr(name: string, args: BExpr[], pos: Pos, why = ''): SqlError {
  return new SqlError(`Cannot apply '${name}' to arguments of type '${name}(${args.map((a) => `<${a.type.kind}>`).join(', ')})'${why}`, pos, 'type');
}

/** Types a string argument takes by an implicit CAST to VARCHAR, as Calcite coerces them: LOWER(TRUE) is 'true'. */
const TO_STRING_KINDS = new Set(['BOOLEAN', 'DATE', 'TIME', 'TIMESTAMP', 'UUID', 'INTERVAL_DT', 'INTERVAL_YM']);

/** A string argument: a string, or a number, BOOLEAN, date/time, UUID or interval cast to VARCHAR (not bytes, ARRAY, MAP, ROW, VARIANT). */
export function str(name: string, e: BExpr, pos: Pos): BExpr {
  if (isString(e.type)) return e;
  if (e.type.kind === 'NULL') return { ...e, type: mk('VARCHAR', true) };
  if (isNumeric(e.type) || TO_STRING_KINDS.has(e.type.kind)) return coerceTo(e, mk('VARCHAR'), pos);
  throw typeErr(name, [e], pos);
}

/** The type a string takes where a number is needed (Calcite's implicit cast; Feldera's DECIMAL(38, 19)). */
export const STRING_AS_NUMBER = mk('DECIMAL', true, { precision: 38, scale: 19 });

/** A numeric argument: a number, or a string cast to DECIMAL(38, 19). */
export function num(name: string, e: BExpr, pos: Pos): BExpr {
  if (isNumeric(e.type)) return e;
  if (isString(e.type)) return coerceTo(e, STRING_AS_NUMBER, pos);
  throw typeErr(name, [e], pos);
}

/** An integer argument: an integer, or a string cast to INTEGER. */
export function int(name: string, e: BExpr, pos: Pos): BExpr {
  if (isInteger(e.type) || e.type.kind === 'NULL') return e;
  if (isString(e.type)) return coerceTo(e, mk('INTEGER'), pos);
  throw typeErr(name, [e], pos, ': an integer is needed');
}

/** A numeric argument as a DOUBLE (DECIMAL through its exact value, integers as they are). */
export function dbl(name: string, e0: BExpr, pos: Pos): BExpr {
  const e = num(name, e0, pos);
  if (isFloat(e.type)) return e;
  if (isDecimal(e.type)) return strict1(e, mk('DOUBLE', e.type.nullable), (v) => decimalToNumber(v as bigint, e.type.scale ?? 0));
  return coerceTo(e, mk('DOUBLE'), pos);
}

export function arr(name: string, e: BExpr, pos: Pos): BExpr {
  if (e.type.kind === 'ARRAY') return e;
  if (e.type.kind === 'NULL') return { ...e, type: mk('ARRAY', true, { elem: mk('NULL') }) };
  throw typeErr(name, [e], pos, ': an ARRAY is needed');
}

export function nullableOf(args: BExpr[]): boolean {
  return args.some((a) => a.type.nullable);
}

/** The common type of all arguments, or a type error; `coercing`: a string with a scalar is VARCHAR (COALESCE). */
export function common(name: string, args: BExpr[], pos: Pos, coercing = false): SqlType {
  let t: SqlType | undefined = args[0]!.type;
  for (const a of args) {
    t = coercing ? commonTypeCoercing(t!, a.type) : commonType(t!, a.type);
    if (!t) throw new SqlError(`Parameters must be of the same type: ${name} arguments have incompatible types`, pos, 'type');
  }
  return t!;
}

/** A DATE, TIME or TIMESTAMP argument as milliseconds of a TIMESTAMP. */
export function toMs(e: BExpr, name: string, pos: Pos): BExpr {
  if (e.type.kind === 'TIMESTAMP') return e;
  if (e.type.kind === 'DATE') return strict1(e, mk('TIMESTAMP', e.type.nullable), (d) => (d as number) * DAY_MS);
  if (e.type.kind === 'TIME') return strict1(e, mk('TIMESTAMP', e.type.nullable), (t) => Math.floor((t as number) / 1e6));
  throw typeErr(name, [e], pos);
}

/** The value of a constant argument (a unit name, a format), or a clear error when it is not constant. */
export function constArg(name: string, e: BExpr, pos: Pos): unknown {
  if (!e.constant) throw new SqlError(`${name} needs a constant here`, pos, 'unsupported');
  return e.fn([]);
}
