/**
 * One compile's state, made by bind/program.ts for each program and passed down to every binder (on Env and on
 * BindCtx); nothing about a compile lives in a module variable, so two compiles never share state. Contract:
 * - `node` gives plan nodes their ids, counting from 1 in creation order (an input's id is below its
 *   consumers'); the same program always gets the same ids (checkpoints name operator state by them);
 * - `decorrelatedName` names each decorrelated subquery's outer-values relation `$D1`, `$D2`, ...;
 * - `posAt` gives the line and column of an offset in the program's text;
 * - `userTypes` and `functions` are the types and functions declared before the statement being bound
 *   (`inStatement` sets them for the time of its callback).
 */
import type { Pos } from '../parse/ast.js';
import type { NewNode } from '../plan/nodes.js';
import type { TypeResolver } from '../types/parse-type.js';
import type { BExpr } from './bexpr.js';

/** The user functions callable in a statement (bind/udf.ts declares them). */
export interface CallableFunctions {
  /** Binds a call of a user function, or gives undefined when `name` is not one. */
  call(name: string, args: BExpr[], pos: Pos): BExpr | undefined;
}

export class CompileSession {
  private lastNodeId = 0;
  private decorrelated = 0;
  private lineStarts: number[] | undefined;
  private statementTypes: TypeResolver | undefined;
  private statementFunctions: CallableFunctions | undefined;

  constructor(
    readonly source: string,
    /** Where NULLs sort in an ORDER BY that does not say (CompileOptions.nulls). */
    readonly nulls: 'low' | 'high' = 'low',
  ) {}

  /** Whether NULLs come first in an ORDER BY item: as it says, else by the session's null order. */
  nullsFirst(item: { asc: boolean; nullsFirst?: boolean }): boolean {
    return item.nullsFirst ?? (this.nulls === 'low' ? item.asc : !item.asc);
  }

  /** A new plan node with the next id; the kind's own fields are checked by the type of `fields`. */
  node<F extends NewNode>(fields: F): F & { id: number } {
    return { id: ++this.lastNodeId, ...fields };
  }

  /** The name of the next decorrelated subquery's relation of outer values. */
  decorrelatedName(): string {
    return `$D${++this.decorrelated}`;
  }

  /** Line and column (1-based) of an offset in the source (an offset past the end: the end). */
  posAt(offset: number): Pos {
    this.lineStarts ??= lineStarts(this.source);
    const starts = this.lineStarts;
    const o = Math.max(0, Math.min(offset, this.source.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - starts[lo]! + 1 };
  }

  get userTypes(): TypeResolver | undefined {
    return this.statementTypes;
  }

  /** Binds a call of a user function declared so far, or undefined when `name` is not one. */
  userFunctionCall(name: string, args: BExpr[], pos: Pos): BExpr | undefined {
    return this.statementFunctions?.call(name, args, pos);
  }

  /** Runs `fn` with the user types and functions of one statement in scope. */
  inStatement<T>(types: TypeResolver, functions: CallableFunctions, fn: () => T): T {
    const saved = [this.statementTypes, this.statementFunctions] as const;
    this.statementTypes = types;
    this.statementFunctions = functions;
    try {
      return fn();
    } finally {
      [this.statementTypes, this.statementFunctions] = saved;
    }
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
