/**
 * A join of two relations: equality conjuncts with one side in each relation become the join keys, every
 * other conjunct a residual condition (SQL's three-valued AND over the pair); outer joins make the other
 * side's columns nullable. Names in a conjunct resolve in the scopes it comes with, so a join planner can
 * bind each condition where it was written (bind/join-order.ts); `joinRels` is a join as written.
 */
import { SqlError, type Expr, type Pos } from '../parse/ast.js';
import { type JoinKind } from '../plan/nodes.js';
import { mk, withNull } from '../types/types.js';
import type { Row, Value } from '../types/values.js';
import { JoinOp, type JoinGc } from '../ops/join.js';
import { Scope, type ScopeColumn } from './scope.js';
import { type Env, type Rel, conjuncts, keyFn, walkExpr, filterNode } from './env.js';
import { bindCondition, bindExpr, unify, type BindCtx } from './expr.js';
import type { BExpr } from './bexpr.js';
import type { CompileSession } from './compile-session.js';
import { upperBounds } from './bounds.js';
import { joinBands, type JoinBand } from './join-bands.js';

/** Where a conjunct's names resolve: over the joined row, and over each side's row alone (for keys). */
export interface CondScopes {
  both: Scope;
  left: Scope;
  right: Scope;
}

export interface JoinCond {
  c: Expr;
  scopes: CondScopes;
}

/** `left <kind> JOIN right ON on` as written (at `pos`); USING/NATURAL conditions name the sides `$L` and `$R`. */
export function joinRels(left: Rel, right: Rel, kind: JoinKind, on: Expr | undefined, env: Env, pos: Pos, hideRight = new Set<number>()): Rel {
  void pos;
  const cols = joinedColumns(left.scope, right.scope, kind, hideRight);
  const lw = left.scope.width;
  const ctxCols: ScopeColumn[] = [...cols, ...left.scope.cols.map((c) => ({ ...c, rel: '$L', hidden: true })), ...right.scope.cols.map((c) => ({ ...c, rel: '$R', idx: c.idx + lw, hidden: true }))];
  const scopes: CondScopes = { both: new Scope(ctxCols, env.casing), left: withAliases(left.scope, '$L'), right: withAliases(right.scope, '$R') };
  return buildJoin(
    left,
    right,
    kind,
    cols,
    conjuncts(on).map((c) => ({ c, scopes })),
    env,
  );
}

/** The columns of a join's row: left then right, nullable on an outer join's optional side. */
export function joinedColumns(left: Scope, right: Scope, kind: JoinKind, hideRight = new Set<number>()): ScopeColumn[] {
  const lw = left.width;
  const leftNullable = kind === 'RIGHT' || kind === 'FULL';
  const rightNullable = kind === 'LEFT' || kind === 'FULL';
  return [
    ...left.cols.map((c) => ({ ...c, type: leftNullable ? withNull(c.type, true) : c.type })),
    ...right.cols.map((c) => ({ ...c, idx: c.idx + lw, hidden: c.hidden || hideRight.has(c.idx), type: rightNullable ? withNull(c.type, true) : c.type })),
  ];
}

/** The join node of `left` and `right` with row `cols` (from joinedColumns) under the AND of `conds`. */
export function buildJoin(left: Rel, right: Rel, kind: JoinKind, cols: ScopeColumn[], conds: JoinCond[], env: Env): Rel {
  const lw = left.scope.width;
  const rw = right.scope.width;
  const leftKeys: BExpr[] = [];
  const rightKeys: BExpr[] = [];
  const gc: JoinGc[] = [];
  const residual: BExpr[] = [];
  const bands: JoinBand[] = [];
  for (const { c, scopes } of conds) {
    if (c.k === 'bin' && c.op === 'Eq') {
      const ls = sides(c.left, scopes.both, lw);
      const rs = sides(c.right, scopes.both, lw);
      let lExpr: Expr | undefined;
      let rExpr: Expr | undefined;
      if (ls === 'L' && rs === 'R') [lExpr, rExpr] = [c.left, c.right];
      else if (ls === 'R' && rs === 'L') [lExpr, rExpr] = [c.right, c.left];
      if (lExpr && rExpr) {
        const lb = bindExpr(lExpr, { scope: scopes.left, session: env.session, clause: 'ON' });
        const rb = bindExpr(rExpr, { scope: scopes.right, session: env.session, clause: 'ON' });
        const [a, b] = unify(lb, rb, c.pos, '=');
        if (a.type.kind === 'ROW') throw new SqlError("ROW values cannot be compared using '='", c.pos, 'type');
        leftKeys.push(a);
        rightKeys.push(b);
        const lw0 = lb.colIdx !== undefined ? left.node.columns[lb.colIdx]?.wm : undefined;
        const rw0 = rb.colIdx !== undefined ? right.node.columns[rb.colIdx]?.wm : undefined;
        if (lw0 && rw0) gc.push({ leftCol: lb.colIdx!, rightCol: rb.colIdx!, left: lw0, right: rw0 });
        continue;
      }
    }
    const ctx: BindCtx = { scope: scopes.both, session: env.session, clause: 'ON' };
    residual.push(bindCondition(c, ctx));
    if (kind === 'INNER') bands.push(...joinBands([c], ctx, lw, left.node, right.node));
  }
  let resFn: ((row: Row) => Value) | undefined;
  if (residual.length) {
    const fns = residual.map((b) => b.fn);
    resFn = (row) => {
      let sawNull = false;
      for (const f of fns) {
        const v = f(row);
        if (v === false) return false;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : true;
    };
  }
  const spec = {
    leftOuter: kind === 'LEFT' || kind === 'FULL',
    rightOuter: kind === 'RIGHT' || kind === 'FULL',
    leftKey: keyFn(leftKeys),
    rightKey: keyFn(rightKeys),
    residual: resFn,
    leftWidth: lw,
    rightWidth: rw,
    gc,
    bands,
  };
  const lineage = [...left.node.columns, ...right.node.columns];
  const n = env.session.node({
    kind: 'join',
    inputs: [left.node, right.node],
    columns: cols.map((c, i) => ({ name: c.name, type: c.type, wm: lineage[i]?.wm })),
    make: () => new JoinOp(spec),
    join: kind,
    keys: leftKeys.length,
    residual: residual.length > 0,
    releases: gc.map((g) => ({ left: g.left, right: g.right })),
    bands: bands.length ? bands : undefined,
  });
  return { node: n, scope: new Scope(cols, env.casing) };
}

/** Rows of `rel` for which every condition is TRUE; names resolve in `scope` (default: the relation's). */
export function filterRel(session: CompileSession, rel: Rel, conds: Expr[], scope: Scope = rel.scope): Rel {
  const ctx: BindCtx = { scope, session, clause: 'WHERE' };
  const fns = conds.map((c) => bindCondition(c, ctx).fn);
  const pred: BExpr = { type: mk('BOOLEAN'), fn: fns.length === 1 ? fns[0]! : (row) => fns.every((f) => f(row) === true) };
  return { node: filterNode(session, rel.node, pred, upperBounds(conds, ctx)), scope: rel.scope };
}

function withAliases(s: Scope, alias: string): Scope {
  return new Scope([...s.cols, ...s.cols.map((c) => ({ ...c, rel: alias, hidden: true }))], s.casing);
}

/** Which join side an expression's columns come from: 'L', 'R', 'B' (both), 'N' (none). */
function sides(e: Expr, scope: Scope, lw: number): 'L' | 'R' | 'B' | 'N' {
  let l = false;
  let r = false;
  let bad = false;
  walkExpr(e, (x) => {
    if (x.k === 'col') {
      let c;
      try {
        c = scope.tryResolve(x.parts, x.pos);
      } catch {
        c = undefined;
      }
      if (!c) bad = true;
      else if (c.idx < lw) l = true;
      else r = true;
    }
    if (x.k === 'insub' || x.k === 'exists' || x.k === 'subquery') bad = true;
    if (x.k === 'func' && x.over) bad = true;
  });
  if (bad) return 'B';
  return l && r ? 'B' : l ? 'L' : r ? 'R' : 'N';
}
