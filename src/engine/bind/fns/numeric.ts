/**
 * Numeric functions (Feldera docs/sql/float.md, integer.md, decimal.md). DECIMAL values stay exact (scaled
 * BigInt through types/decimal.ts); the transcendental functions compute in DOUBLE, and a NaN result (a domain
 * error such as SQRT(-1) or ACOS(2)) gives NULL rather than stopping the pipeline.
 */
import { SqlError, type Pos } from '../../parse/ast.js';
import { mk, isInteger, isFloat, isDecimal, isString, withNull } from '../../types/types.js';
import { pow10, rescale, rescaleRound, decimalToNumber } from '../../types/decimal.js';
import { type BExpr, strict1, strict2, strictN } from '../bexpr.js';
import { argc, coerceTo, dbl, int, nullableOf, num, typeErr } from './args.js';
import { aliases, type FnTable, type ScalarFn } from './registry.js';
import { intAbs, intBinary } from '../../types/int64.js';
import type { Value } from '../../types/values.js';
import { posSite } from '../expr-text.js';

/** A DOUBLE function of DOUBLE arguments; NaN gives NULL. */
function math(arity: number, f: (...x: number[]) => number, sig: string): ScalarFn {
  return {
    sig,
    nulls: 'strict; NULL also for a result that is not a number',
    bind: (args, pos, name) => {
      argc(name, args, arity, arity, pos);
      return strictN(
        args.map((a) => dbl(name, a, pos)),
        mk('DOUBLE', nullableOf(args)),
        (xs) => {
          const r = f(...(xs as number[]));
          return Number.isNaN(r) ? null : r;
        },
      );
    },
  };
}

/* The inverse hyperbolic functions as Rust's f64 computes them (Feldera's sqllib), to the last digit: ACOSH(14) is 3.3309265526412517, not JavaScript's 3.330926552641252. */
const rustAcosh = (x: number): number => (x < 1 ? NaN : Math.log(x + Math.sqrt(x - 1) * Math.sqrt(x + 1)));
const rustAtanh = (x: number): number => 0.5 * Math.log1p((2 * x) / (1 - x));
function rustAsinh(x: number): number {
  const ax = Math.abs(x);
  const ix = 1 / ax;
  const r = Math.log1p(ax + ax / (Math.hypot(1, ix) + ix));
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** Banker's rounding of a scaled BigInt from scale s to scale ns (ns may be negative: tens, hundreds, ...). */
function bankersRescale(v: bigint, s: number, ns: number): bigint {
  if (ns >= s) return v * pow10(ns - s);
  const d = pow10(s - ns);
  let q = v / d;
  const r = v % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice > d || (twice === d && q % 2n !== 0n)) q += v < 0n ? -1n : 1n;
  return q;
}

function roundLike(mode: 'round' | 'trunc' | 'bround'): ScalarFn {
  return {
    sig: mode === 'bround' ? 'BROUND(decimal, digits): round half to even' : `${mode === 'round' ? 'ROUND' : 'TRUNCATE'}(value [, digits]): same type as value`,
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, mode === 'bround' ? 2 : 1, 2, pos);
      if (mode === 'bround' && isString(args[0]!.type)) throw typeErr(name, args, pos); // Calcite does not read a string as a number for BROUND
      const a0 = num(name, args[0]!, pos);
      // BROUND rounds a DECIMAL: an integer is read as one (BROUND(-12, 1) is -12)
      const a = mode === 'bround' && isInteger(a0.type) ? coerceTo(a0, mk('DECIMAL', a0.type.nullable, { precision: 19, scale: 0 }), pos) : a0;
      if (args[1] && !args[1].constant) throw new SqlError(`${name} needs a constant number of digits`, pos, 'unsupported');
      if (args[1]) int(name, args[1], pos);
      const k = ((args[1] ? args[1].fn([]) : 0) as number) ?? 0;
      const n = a.type.nullable;
      if (isDecimal(a.type)) {
        const s = a.type.scale ?? 0;
        if (mode === 'bround') {
          // negative digits round to tens, hundreds, ... and keep scale 0
          const ns = Math.min(k, s);
          return strict1(a, mk('DECIMAL', n, { precision: a.type.precision, scale: Math.max(0, ns) }), (v) => {
            const q = bankersRescale(v as bigint, s, ns);
            return ns < 0 ? q * pow10(-ns) : q;
          });
        }
        const ns = Math.max(0, Math.min(k, s));
        return strict1(a, mk('DECIMAL', n, { precision: a.type.precision, scale: ns }), (v) => (mode === 'round' ? rescaleRound(v as bigint, s, ns) : rescale(v as bigint, s, ns)));
      }
      if (mode === 'bround') throw typeErr(name, args, pos, ': a DECIMAL is needed');
      if (isInteger(a.type)) return a;
      const f = 10 ** k;
      return strict1(a, a.type, (v) => {
        const x = (v as number) * f;
        return (mode === 'round' ? Math.sign(x) * Math.round(Math.abs(x)) : Math.trunc(x)) / f;
      });
    },
  };
}

function ceilFloor(up: boolean): ScalarFn {
  return {
    sig: `${up ? 'CEIL' : 'FLOOR'}(value): DECIMAL gives scale 0`,
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      if (isDecimal(a.type)) {
        const d = pow10(a.type.scale ?? 0);
        return strict1(a, mk('DECIMAL', nullableOf(args), { precision: a.type.precision, scale: 0 }), (v) => {
          const x = v as bigint;
          let q = x / d;
          const r = x % d;
          if (r !== 0n && up && x > 0n) q += 1n;
          if (r !== 0n && !up && x < 0n) q -= 1n;
          return q;
        });
      }
      if (isInteger(a.type)) return a;
      return strict1(a, a.type, (v) => (up ? Math.ceil(v as number) : Math.floor(v as number)));
    },
  };
}

/** MOD of exact numbers with a DECIMAL among them: an exact DECIMAL remainder with the sign of the dividend (MOD(-1111.52, 3) is -1.52); NULL when b is 0. */
function decimalMod(a: BExpr, b: BExpr, pos: Pos): BExpr {
  const scaleOf = (e: BExpr): number => (isDecimal(e.type) ? (e.type.scale ?? 0) : 0);
  const digitsOf = (e: BExpr): number => (isDecimal(e.type) ? (e.type.precision ?? 38) - scaleOf(e) : 19);
  const s = Math.max(scaleOf(a), scaleOf(b));
  const t = mk('DECIMAL', true, { precision: Math.min(38, Math.min(digitsOf(a), digitsOf(b)) + s), scale: s });
  const [x, y] = [coerceTo(a, mk('DECIMAL', a.type.nullable, { precision: 38, scale: s }), pos), coerceTo(b, mk('DECIMAL', b.type.nullable, { precision: 38, scale: s }), pos)];
  return strict2(x, y, t, (p, q) => ((q as bigint) === 0n ? null : (p as bigint) % (q as bigint)));
}

const floatTest = (f: (x: number) => boolean, sig: string): ScalarFn => ({
  sig,
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    const a = num(name, args[0]!, pos);
    if (!isFloat(a.type)) return strict1(a, mk('BOOLEAN', nullableOf(args)), () => f(0));
    return strict1(a, mk('BOOLEAN', nullableOf(args)), (v) => f(v as number));
  },
});

export const NUMERIC_FNS: FnTable = {
  ABS: {
    sig: 'ABS(value): same type',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      if (isDecimal(a.type)) return strict1(a, a.type, (v) => ((v as bigint) < 0n ? -(v as bigint) : v));
      if (isInteger(a.type)) return strict1(a, a.type, intAbs(a.type.kind, posSite('ABS(…)', pos)) as (v: Value) => Value); // ABS(minimum) overflows
      return strict1(a, a.type, (v) => Math.abs(v as number));
    },
  },
  SIGN: {
    sig: 'SIGN(value)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      if (isDecimal(a.type)) return strict1(a, mk('INTEGER', nullableOf(args)), (v) => ((v as bigint) > 0n ? 1 : (v as bigint) < 0n ? -1 : 0));
      if (isInteger(a.type)) return strict1(a, a.type, (v) => ((v as number) > 0 ? 1 : (v as number) < 0 ? -1 : 0)); // a bigint compares as well
      return strict1(a, a.type, (v) => Math.sign(v as number));
    },
  },
  ...aliases(['CEIL', 'CEILING'], ceilFloor(true)),
  FLOOR: ceilFloor(false),
  ROUND: roundLike('round'),
  ...aliases(['TRUNCATE', 'TRUNC'], roundLike('trunc')),
  BROUND: roundLike('bround'),
  MOD: {
    sig: 'MOD(a, b): as a % b (integers: an error when b is 0); DOUBLE: NULL when b is 0',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [a, b] = [num(name, args[0]!, pos), num(name, args[1]!, pos)];
      if (isInteger(a.type) && isInteger(b.type))
        return strict2(a, b, withNull(b.type, a.type.nullable || b.type.nullable), intBinary('Modulo', b.type.kind, posSite('MOD(…)', pos)) as (x: Value, y: Value) => Value);
      if (!isFloat(a.type) && !isFloat(b.type)) return decimalMod(a, b, pos);
      const toD = (e: BExpr): BExpr => (isDecimal(e.type) ? strict1(e, mk('DOUBLE', e.type.nullable), (v) => decimalToNumber(v as bigint, e.type.scale ?? 0)) : e);
      return strict2(toD(a), toD(b), mk('DOUBLE', true), (x, y) => ((y as number) === 0 ? null : (x as number) % (y as number)));
    },
  },
  ...aliases(['POWER', 'POW'], math(2, Math.pow, 'POWER(base, exponent) -> DOUBLE')),
  SQRT: math(1, Math.sqrt, 'SQRT(x) -> DOUBLE'),
  CBRT: math(1, Math.cbrt, 'CBRT(x) -> DOUBLE'),
  EXP: math(1, Math.exp, 'EXP(x) -> DOUBLE'),
  LN: math(1, Math.log, 'LN(x) -> DOUBLE'),
  LOG10: math(1, Math.log10, 'LOG10(x) -> DOUBLE'),
  LOG: {
    sig: 'LOG(x [, base]) -> DOUBLE: natural logarithm without a base; 0 when base is 0',
    nulls: 'strict; NULL for negative arguments',
    bind: (args, pos, name) => {
      argc(name, args, 1, 2, pos);
      return strictN(
        args.map((a) => dbl(name, a, pos)),
        mk('DOUBLE', nullableOf(args)),
        ([x, b]) => {
          const r = b === undefined ? Math.log(x as number) : (b as number) === 0 ? 0 : Math.log(x as number) / Math.log(b as number);
          return Number.isNaN(r) ? null : r;
        },
      );
    },
  },
  SIN: math(1, Math.sin, 'SIN(radians) -> DOUBLE'),
  COS: math(1, Math.cos, 'COS(radians) -> DOUBLE'),
  TAN: math(1, Math.tan, 'TAN(radians) -> DOUBLE'),
  COT: math(1, (x) => 1 / Math.tan(x), 'COT(radians) -> DOUBLE'),
  SEC: math(1, (x) => 1 / Math.cos(x), 'SEC(radians) -> DOUBLE'),
  CSC: math(1, (x) => 1 / Math.sin(x), 'CSC(radians) -> DOUBLE'),
  ASIN: math(1, Math.asin, 'ASIN(x) -> DOUBLE radians'),
  ACOS: math(1, Math.acos, 'ACOS(x) -> DOUBLE radians'),
  ATAN: math(1, Math.atan, 'ATAN(x) -> DOUBLE radians'),
  ATAN2: math(2, Math.atan2, 'ATAN2(y, x) -> DOUBLE radians'),
  SINH: math(1, Math.sinh, 'SINH(x) -> DOUBLE'),
  COSH: math(1, Math.cosh, 'COSH(x) -> DOUBLE'),
  TANH: math(1, Math.tanh, 'TANH(x) -> DOUBLE'),
  COTH: math(1, (x) => 1 / Math.tanh(x), 'COTH(x) -> DOUBLE'),
  SECH: math(1, (x) => 1 / Math.cosh(x), 'SECH(x) -> DOUBLE'),
  CSCH: math(1, (x) => 1 / Math.sinh(x), 'CSCH(x) -> DOUBLE'),
  ASINH: math(1, rustAsinh, 'ASINH(x) -> DOUBLE'),
  ACOSH: math(1, rustAcosh, 'ACOSH(x) -> DOUBLE'),
  ATANH: math(1, rustAtanh, 'ATANH(x) -> DOUBLE'),
  DEGREES: math(1, (x) => (x * 180) / Math.PI, 'DEGREES(radians) -> DOUBLE'),
  RADIANS: math(1, (x) => (x * Math.PI) / 180, 'RADIANS(degrees) -> DOUBLE'),
  PI: math(0, () => Math.PI, 'PI() -> DOUBLE'),
  IS_INF: floatTest((x) => x === Infinity || x === -Infinity, 'IS_INF(value) -> BOOLEAN'),
  IS_NAN: floatTest((x) => Number.isNaN(x), 'IS_NAN(value) -> BOOLEAN'),
  FINITE_OR_NULL: {
    sig: 'FINITE_OR_NULL(value): NULL for NaN and infinities',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const a = num(name, args[0]!, pos);
      return strict1(a, withNull(a.type, true), (v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
    },
  },
  DIV_NULL: {
    sig: 'DIV_NULL(a, b) -> DOUBLE: NULL when the quotient is infinite or NaN',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      return strictN(
        args.map((a) => dbl(name, a, pos)),
        mk('DOUBLE', true),
        ([x, y]) => {
          const r = (x as number) / (y as number);
          return Number.isFinite(r) ? r : null;
        },
      );
    },
  },
};
