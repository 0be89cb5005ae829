/** NULL handling and choice among arguments: COALESCE/IFNULL/NVL, NULLIF, IF, GREATEST/LEAST (and *_IGNORE_NULLS). */
import { SqlError } from '../../parse/ast.js';
import { commonType, isString, typeToString, withNull, type SqlType } from '../../types/types.js';
import { compareValues, type Value } from '../../types/values.js';
import { strictN } from '../bexpr.js';
import { argc, coerceTo, common, nullableOf } from './args.js';
import { aliases, type FnTable, type ScalarFn } from './registry.js';

const coalesce: ScalarFn = {
  sig: 'COALESCE(value, ...): the first non-NULL argument; IFNULL(a, b), NVL(a, b)',
  nulls: 'NULL only when every argument is NULL',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1000, pos);
    const t = common(name, args, pos, true); // COALESCE(NULL, str, -1) is a VARCHAR (Calcite's coercion)
    const fns = args.map((a) => coerceTo(a, t, pos).fn);
    return {
      type: withNull(
        t,
        args.every((a) => a.type.nullable),
      ),
      fn: (r) => {
        for (const f of fns) {
          const v = f(r);
          if (v !== null) return v;
        }
        return null;
      },
    };
  },
};

function extreme(sign: 1 | -1, ignoreNulls: boolean): ScalarFn {
  return {
    sig: `${sign > 0 ? 'GREATEST' : 'LEAST'}${ignoreNulls ? '_IGNORE_NULLS' : ''}(value, ...)`,
    nulls: ignoreNulls ? 'NULL only when every argument is NULL' : 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1000, pos);
      // a string among types it cannot meet: Calcite's coercion gives up with its own text
      const cannotInfer = (): SqlError => new SqlError(`Cannot infer return type for ${name}; operand types: [${args.map((a) => typeToString(a.type)).join(', ')}]`, pos, 'type');
      let t: SqlType;
      try {
        t = common(name, args, pos);
      } catch (err) {
        if (args.some((a) => isString(a.type))) throw cannotInfer();
        throw err;
      }
      const coerced = args.map((a) => coerceTo(a, t, pos));
      if (!ignoreNulls) return strictN(coerced, withNull(t, nullableOf(args)), (xs) => xs.reduce((m, x) => (sign * compareValues(x, m) > 0 ? x : m)));
      const fns = coerced.map((a) => a.fn);
      return {
        type: withNull(
          t,
          args.every((a) => a.type.nullable),
        ),
        fn: (r) => {
          let best: Value = null;
          for (const f of fns) {
            const v = f(r);
            if (v !== null && (best === null || sign * compareValues(v, best) > 0)) best = v;
          }
          return best;
        },
      };
    },
  };
}

export const CONDITIONAL_FNS: FnTable = {
  ...aliases(['COALESCE', 'IFNULL', 'NVL'], coalesce),
  NULLIF: {
    sig: 'NULLIF(a, b): NULL when a = b, else a',
    nulls: 'NULL when a is NULL',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const t = commonType(args[0]!.type, args[1]!.type);
      if (!t) throw new SqlError(`Cannot apply 'NULLIF' to arguments of type <${typeToString(args[0]!.type)}>, <${typeToString(args[1]!.type)}>`, pos, 'type');
      if (t.kind === 'ROW') throw new SqlError("'NULLIF' compares ROW values for equality, which Feldera refuses: ROW values cannot be compared using '='", pos, 'type');
      const a = coerceTo(args[0]!, t, pos).fn;
      const b = coerceTo(args[1]!, t, pos).fn;
      return {
        type: withNull(args[0]!.type, true),
        fn: (r) => {
          const x = a(r);
          if (x === null) return null;
          const y = b(r);
          return y !== null && compareValues(x, y) === 0 ? null : x;
        },
      };
    },
  },
  IF: {
    sig: 'IF(condition, then, else): else when condition is FALSE or NULL',
    nulls: 'as the chosen branch',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      if (args[0]!.type.kind !== 'BOOLEAN' && args[0]!.type.kind !== 'NULL') throw new SqlError(`${name} needs a BOOLEAN condition`, pos, 'type');
      const t = common(name, args.slice(1), pos);
      const [c, a, b] = [args[0]!.fn, coerceTo(args[1]!, t, pos).fn, coerceTo(args[2]!, t, pos).fn];
      return { type: withNull(t, args[1]!.type.nullable || args[2]!.type.nullable), fn: (r) => (c(r) === true ? a(r) : b(r)) };
    },
  },
  GREATEST: extreme(1, false),
  LEAST: extreme(-1, false),
  GREATEST_IGNORE_NULLS: extreme(1, true),
  LEAST_IGNORE_NULLS: extreme(-1, true),
};
