/** A bound (typed, compiled) scalar expression: a closure over an input row. */
import type { SqlType } from '../types/types.js';
import type { Row, Value } from '../types/values.js';

export interface BExpr {
  type: SqlType;
  fn: (row: Row) => Value;
  /** Set when the expression does not depend on the row. */
  constant?: boolean;
  /** Set when the expression is a plain input column reference. */
  colIdx?: number;
}

export function constant(type: SqlType, v: Value): BExpr {
  return { type, fn: () => v, constant: true };
}

/** Apply f to non-null arguments; NULL if any is NULL (strict SQL function). */
export function strict1(a: BExpr, type: SqlType, f: (x: Value) => Value): BExpr {
  const af = a.fn;
  return {
    type,
    fn: (row) => {
      const x = af(row);
      return x === null ? null : f(x);
    },
    constant: a.constant,
  };
}

export function strict2(a: BExpr, b: BExpr, type: SqlType, f: (x: Value, y: Value) => Value): BExpr {
  const af = a.fn;
  const bf = b.fn;
  return {
    type,
    fn: (row) => {
      const x = af(row);
      if (x === null) return null;
      const y = bf(row);
      if (y === null) return null;
      return f(x, y);
    },
    constant: a.constant && b.constant,
  };
}

export function strictN(args: BExpr[], type: SqlType, f: (xs: Value[]) => Value): BExpr {
  const fns = args.map((a) => a.fn);
  return {
    type,
    fn: (row) => {
      const xs: Value[] = new Array(fns.length);
      for (let i = 0; i < fns.length; i++) {
        const x = fns[i]!(row);
        if (x === null) return null;
        xs[i] = x;
      }
      return f(xs);
    },
    constant: args.every((a) => a.constant),
  };
}
