/**
 * The aggregate registry (Feldera docs/sql/aggregates.md): name -> signature, NULL rule, result type and
 * accumulator. Every accumulator is retractable (add(v, -w) undoes add(v, w)), so GROUP BY and window
 * aggregates stay incremental; docs/engine.md says what each costs. Several arguments (ARG_MAX, COVAR_POP,
 * COUNT(a, b), ARRAY_AGG ... ORDER BY) are packed into one tuple value per row; `arg` returns NULL for a row
 * the aggregate skips (a NULL where the function ignores NULLs), so the operator needs no per-function rule.
 */
import { SqlError, type Pos } from '../../parse/ast.js';
import { type SqlType, mk, isInteger, isFloat, isDecimal, isUnsigned, withNull, commonType, isNumeric, typeToString } from '../../types/types.js';
import { toNumber, type Row, type Value } from '../../types/values.js';
import { decimalFromNumber, rescale } from '../../types/decimal.js';
import { AvgAcc, AvgDecAcc, BoolAcc, CountAcc, ExtremeAcc, SumDecAcc, SumNumAcc, type Acc } from '../../ops/aggregate.js';
import { AvgIntAcc, SumIntAcc } from '../../ops/accs/int-sum.js';
import { normInt, type IntSite } from '../../types/int64.js';
import { posSite } from '../expr-text.js';
import { ArgExtremeAcc, argExtremeEntry } from '../../ops/accs/arg-extreme.js';
import { ArrayAggAcc, type OrderKey } from '../../ops/accs/array-agg.js';
import { BitAcc } from '../../ops/accs/bits.js';
import { ModeAcc } from '../../ops/accs/mode.js';
import { PairAcc, VarianceAcc, type Moment, type NumCodec, type PairStat } from '../../ops/accs/moments.js';
import type { BExpr } from '../bexpr.js';

export interface AggCallArgs {
  /** Bound arguments (empty for COUNT(*)). */
  args: BExpr[];
  star: boolean;
  /** ARRAY_AGG(... ORDER BY ...): bound keys with their directions. */
  orderBy?: Array<{ key: BExpr } & OrderKey>;
  /** IGNORE NULLS / RESPECT NULLS when written. */
  ignoreNulls?: boolean;
  /** The call's SQL text, for an integer SUM that overflows its type. */
  site?: IntSite;
}

export interface BoundAggregate {
  make: () => Acc;
  type: SqlType;
  /** The one value fed per row; undefined for COUNT(*). */
  arg?: (row: Row) => Value;
  /** Skip rows whose fed value is NULL. */
  ignoreNulls: boolean;
}

export interface AggFn {
  sig: string;
  nulls: string;
  arity: [number, number];
  bind: (c: AggCallArgs, pos: Pos, name: string) => BoundAggregate;
}

const typeErr = (name: string, args: BExpr[], pos: Pos): SqlError => new SqlError(`Cannot apply '${name}' to arguments of type <${args.map((a) => a.type.kind).join(', ')}>`, pos, 'type');

const one = (c: AggCallArgs): BExpr => c.args[0]!;

/** Pack several arguments into one tuple; NULL when any of `required` is NULL (the row is then skipped). */
function pack(args: BExpr[], required: number[]): (row: Row) => Value {
  const fns = args.map((a) => a.fn);
  return (row) => {
    const out: Value[] = new Array(fns.length);
    for (let i = 0; i < fns.length; i++) out[i] = fns[i]!(row);
    for (const i of required) if (out[i] === null) return null;
    return out;
  };
}

/** A number computed from values of type t back into t's representation (integers and DECIMALs truncate). */
function fromNumberAs(t: SqlType): (x: number) => Value {
  if (isInteger(t)) return (x) => (Number.isFinite(x) ? Math.trunc(x) : null);
  if (isDecimal(t)) {
    const f = 10 ** (t.scale ?? 0);
    // truncated to the scale, as the exact DECIMAL variance is
    return (x) => (Number.isFinite(x) ? (decimalFromNumber(Math.trunc(x * f) / f, t.scale ?? 0) ?? null) : null);
  }
  return (x) => x;
}

function numericArg(name: string, c: AggCallArgs, pos: Pos): BExpr {
  const a = one(c);
  if (!isNumeric(a.type) || a.type.kind === 'NULL') throw typeErr(name, c.args, pos);
  return a;
}

const simple = (a: BExpr): Pick<BoundAggregate, 'arg' | 'ignoreNulls'> => ({ arg: a.fn, ignoreNulls: true });

function moment(kind: Moment): AggFn {
  return {
    sig: `${kind}([DISTINCT] numeric): the argument's type`,
    nulls: 'NULL values are ignored; NULL for no rows (SAMP: fewer than two)',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = numericArg(name, c, pos);
      const t = a.type;
      const scale = isDecimal(t) ? (t.scale ?? 0) : 0;
      const codec: NumCodec = {
        exact: !isFloat(t),
        integer: isInteger(t),
        scale,
        fromNumber: fromNumberAs(t),
        fromScaled2: (x) => (isDecimal(t) ? rescale(x, 2 * scale, scale) : Number(x)),
      };
      return { make: () => new VarianceAcc(kind, codec), type: withNull(t, true), ...simple(a) };
    },
  };
}

function pairStat(kind: PairStat): AggFn {
  return {
    sig: `${kind}(y, x)`,
    nulls: 'pairs with a NULL are ignored; ' + (kind === 'REGR_COUNT' ? '0 for no pairs' : 'NULL for no pairs'),
    arity: [2, 2],
    bind: (c, pos, name) => {
      for (const a of c.args) if (!isNumeric(a.type) || a.type.kind === 'NULL') throw typeErr(name, c.args, pos);
      const [y, x] = c.args as [BExpr, BExpr];
      const t = kind.startsWith('COVAR') ? y.type : (commonType(y.type, x.type) ?? mk('DOUBLE'));
      const [yf, xf] = [y.fn, x.fn];
      const arg = (row: Row): Value => {
        const yv = yf(row);
        const xv = yf === xf ? yv : xf(row);
        return yv === null || xv === null ? null : [toNumber(yv, y.type), toNumber(xv, x.type)];
      };
      const type = kind === 'REGR_COUNT' ? mk('BIGINT', false) : withNull(t, true);
      return { make: () => new PairAcc(kind, fromNumberAs(t)), type, arg, ignoreNulls: true };
    },
  };
}

function bits(op: 'AND' | 'OR' | 'XOR'): AggFn {
  return {
    sig: `BIT_${op}([DISTINCT] integer)`,
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = one(c);
      if (!isInteger(a.type)) throw typeErr(name, c.args, pos);
      // the 64-bit result in the integer form: a number when safe, else a bigint (int64.ts); unsigned types read it unsigned
      const out = isUnsigned(a.type) ? (b: bigint) => normInt(BigInt.asUintN(64, b)) : normInt;
      return { make: () => new BitAcc(op, out), type: withNull(a.type, true), ...simple(a) };
    },
  };
}

function boolAgg(every: boolean): AggFn {
  return {
    sig: `${every ? 'EVERY / BOOL_AND / LOGICAL_AND' : 'SOME / BOOL_OR / LOGICAL_OR'}(boolean)`,
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = one(c);
      if (a.type.kind !== 'BOOLEAN' && a.type.kind !== 'NULL')
        throw new SqlError(`Cannot apply '${name}' to arguments of type '${name}(<${typeToString(a.type)}>)'. Supported form(s): '${name}(<BOOLEAN>)'`, pos, 'type');
      return { make: () => new BoolAcc(every), type: mk('BOOLEAN', true), ...simple(a) };
    },
  };
}

function extreme(sign: 1 | -1): AggFn {
  return {
    sig: `${sign > 0 ? 'MIN' : 'MAX'}([DISTINCT] value)`,
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c) => {
      const a = one(c);
      // ARRAY values too: ordered lexicographically (compareValues), as Feldera orders them
      return { make: () => new ExtremeAcc(sign), type: withNull(a.type, true), ...simple(a) };
    },
  };
}

function argExtreme(sign: 1 | -1): AggFn {
  return {
    sig: `${sign < 0 ? 'ARG_MAX' : 'ARG_MIN'}(value, compared): value of a row with the ${sign < 0 ? 'largest' : 'smallest'} compared`,
    nulls: 'a row whose compared is NULL loses to any other, but counts where every compared is NULL (value may be NULL); NULL for no rows',
    arity: [2, 2],
    bind: (c, _pos) => {
      const [v, k] = c.args as [BExpr, BExpr];
      const [vf, kf] = [v.fn, k.fn];
      const arg = (row: Row): Value => argExtremeEntry(sign, kf(row), vf(row));
      return { make: () => new ArgExtremeAcc(sign), type: withNull(v.type, true), arg, ignoreNulls: true };
    },
  };
}

const count: AggFn = {
  sig: 'COUNT(*), COUNT([DISTINCT] value, ...) -> BIGINT',
  nulls: 'counts rows whose arguments are all non-NULL; 0 for no rows',
  arity: [0, 100],
  bind: (c) => {
    if (c.star) return { make: () => new CountAcc(), type: mk('BIGINT', false), ignoreNulls: false };
    const arg =
      c.args.length === 1
        ? c.args[0]!.fn
        : pack(
            c.args,
            c.args.map((_a, i) => i),
          );
    return { make: () => new CountAcc(), type: mk('BIGINT', false), arg, ignoreNulls: true };
  },
};

export const AGGREGATES: Record<string, AggFn> = {
  COUNT: count,
  COUNTIF: {
    sig: 'COUNTIF(boolean) -> BIGINT',
    nulls: 'counts the rows where the condition is TRUE; 0 for no rows',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = one(c);
      if (a.type.kind !== 'BOOLEAN' && a.type.kind !== 'NULL')
        throw new SqlError(`Cannot apply '${name}' to arguments of type '${name}(<${typeToString(a.type)}>)'. Supported form(s): '${name}(<BOOLEAN>)'`, pos, 'type');
      const f = a.fn;
      return { make: () => new CountAcc(), type: mk('BIGINT', false), arg: (r) => (f(r) === true ? true : null), ignoreNulls: true };
    },
  },
  SUM: {
    sig: 'SUM([DISTINCT] numeric): the argument type (DECIMAL(38, s))',
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = numericArg(name, c, pos);
      const t = a.type;
      if (isDecimal(t)) return { make: () => new SumDecAcc(), type: mk('DECIMAL', true, { precision: 38, scale: t.scale ?? 0 }), ...simple(a) };
      if (isInteger(t)) {
        // exact; the sum (not each partial sum) is checked against the argument type, as Feldera's SUM result type
        const kind = t.kind;
        const site = c.site ?? posSite(name, pos);
        return { make: () => new SumIntAcc(kind, site), type: withNull(t, true), ...simple(a) };
      }
      return { make: () => new SumNumAcc(), type: withNull(t, true), ...simple(a) };
    },
  },
  AVG: {
    sig: 'AVG([DISTINCT] numeric): the argument type (integer AVG truncates)',
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c, pos, name) => {
      const a = numericArg(name, c, pos);
      const t = a.type;
      if (isDecimal(t)) return { make: () => new AvgDecAcc(), type: withNull(t, true), ...simple(a) };
      if (isInteger(t)) {
        const kind = t.kind;
        const site = c.site ?? posSite(name, pos);
        return { make: () => new AvgIntAcc(kind, site), type: withNull(t, true), ...simple(a) };
      }
      return { make: () => new AvgAcc(false), type: withNull(t, true), ...simple(a) };
    },
  },
  MIN: extreme(1),
  MAX: extreme(-1),
  ARG_MIN: argExtreme(1),
  ARG_MAX: argExtreme(-1),
  EVERY: boolAgg(true),
  BOOL_AND: boolAgg(true),
  LOGICAL_AND: boolAgg(true),
  SOME: boolAgg(false),
  BOOL_OR: boolAgg(false),
  LOGICAL_OR: boolAgg(false),
  BIT_AND: bits('AND'),
  BIT_OR: bits('OR'),
  BIT_XOR: bits('XOR'),
  VAR_POP: moment('VAR_POP'),
  VAR_SAMP: moment('VAR_SAMP'),
  VARIANCE: moment('VAR_SAMP'),
  STDDEV_POP: moment('STDDEV_POP'),
  STDDEV_SAMP: moment('STDDEV_SAMP'),
  STDDEV: moment('STDDEV_SAMP'),
  COVAR_POP: pairStat('COVAR_POP'),
  COVAR_SAMP: pairStat('COVAR_SAMP'),
  REGR_COUNT: pairStat('REGR_COUNT'),
  REGR_SXX: pairStat('REGR_SXX'),
  REGR_SYY: pairStat('REGR_SYY'),
  MODE: {
    sig: 'MODE(value): the most frequent value; ties go to the smallest',
    nulls: 'NULL values are ignored; NULL for no rows',
    arity: [1, 1],
    bind: (c) => {
      const a = one(c);
      return { make: () => new ModeAcc(), type: withNull(a.type, true), ...simple(a) };
    },
  },
  ARRAY_AGG: {
    sig: 'ARRAY_AGG([DISTINCT] value [RESPECT|IGNORE NULLS] [ORDER BY key, ...]) -> ARRAY',
    nulls: 'NULL values are kept unless IGNORE NULLS; an empty array for no rows (as Feldera)',
    arity: [1, 1],
    bind: (c) => {
      const a = one(c);
      const type = mk('ARRAY', true, { elem: withNull(a.type.kind === 'NULL' ? mk('NULL') : a.type, true) });
      const ignoreNulls = c.ignoreNulls === true;
      if (!c.orderBy?.length) return { make: () => new ArrayAggAcc(undefined), type, arg: a.fn, ignoreNulls };
      const order = c.orderBy.map(({ asc, nullsFirst }) => ({ asc, nullsFirst }));
      const keys = c.orderBy.map((o) => o.key.fn);
      const vf = a.fn;
      const arg = (row: Row): Value => {
        const v = vf(row);
        if (v === null && ignoreNulls) return null;
        const out: Value[] = keys.map((k) => k(row));
        out.push(v);
        return out;
      };
      return { make: () => new ArrayAggAcc(order), type, arg, ignoreNulls: true };
    },
  },
};

/** Names of the aggregate functions. */
export const AGG_NAMES: ReadonlySet<string> = new Set(Object.keys(AGGREGATES));

/** Bind one aggregate call (GROUP BY or OVER) from its bound arguments. */
export function bindAggregate(name: string, c: AggCallArgs, pos: Pos): BoundAggregate {
  const f = AGGREGATES[name];
  if (!f) throw new SqlError(`Unsupported aggregate ${name}`, pos, 'unsupported');
  if (c.star && name !== 'COUNT') throw new SqlError(`${name}(*) is not valid`, pos, 'syntax');
  const n = c.args.length;
  if (!c.star && (n < Math.max(1, f.arity[0]) || n > f.arity[1])) {
    throw new SqlError(
      `Invalid number of arguments to function '${name}'. Was expecting ${f.arity[0] === f.arity[1] ? f.arity[0] : `${Math.max(1, f.arity[0])} to ${f.arity[1]}`} arguments`,
      pos,
      'type',
    );
  }
  if (c.orderBy && name !== 'ARRAY_AGG') throw new SqlError(`ORDER BY inside ${name}(...) is not supported`, pos, 'unsupported');
  if (c.ignoreNulls !== undefined && name !== 'ARRAY_AGG') throw new SqlError(`Cannot specify IGNORE NULLS or RESPECT NULLS following '${name}'`, pos, 'unsupported');
  return f.bind(c, pos, name);
}
