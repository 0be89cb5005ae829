/**
 * The user functions callable while a program's statements are bound (bind/udf.ts declares them). Contract:
 * `withUserFunctions` sets them for the time of a callback; `userFunctionCall` binds a call of one, or gives
 * undefined when the name is not a user function (the expression binder then looks in the built-in registry).
 * Kept apart from udf.ts, which binds bodies with the expression binder, so that the two do not import each other.
 */
import type { Pos } from '../parse/ast.js';
import type { BExpr } from './bexpr.js';

export interface CallableFunctions {
  call(name: string, args: BExpr[], pos: Pos): BExpr | undefined;
}

let current: CallableFunctions | undefined;

export function withUserFunctions<T>(functions: CallableFunctions, fn: () => T): T {
  const saved = current;
  current = functions;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

export function userFunctionCall(name: string, args: BExpr[], pos: Pos): BExpr | undefined {
  return current?.call(name, args, pos);
}
