/** What an expression is bound in (bind/expr.ts bindExpr and the function binders): its scope, its compile, its clause. */
import type { Expr } from '../parse/ast.js';
import type { BExpr } from './bexpr.js';
import type { CompileSession } from './compile-session.js';
import type { Scope } from './scope.js';

export interface BindCtx {
  scope: Scope;
  /** The compile this expression belongs to (its user types and functions). */
  session: CompileSession;
  /** Replacement for special sub-expressions (group keys, aggregate calls, window calls). */
  special?: (e: Expr) => BExpr | undefined;
  /** Where we are, for "not allowed here" messages. */
  clause: string;
}

/** Binds an expression (bind/expr.ts bindExpr), passed to the binders of each kind for their operands. */
export type ExprBinder = (e: Expr, ctx: BindCtx) => BExpr;
