/**
 * `left LEFT ASOF JOIN right MATCH_CONDITION (l.ts >= r.ts) ON l.k = r.k AND ...` (Feldera docs/sql/grammar.md,
 * its compiler's visitAsofJoin): contract and refusals as Feldera's, with its texts and in its order: first its
 * validator's (the match condition's own errors, then "MATCH_CONDITION must be a comparison between columns from
 * the two inputs" (<, <=, >, >=, an expression of each side, written either way round), then ON "must be a
 * conjunction of equality comparisons"), then its compiler's: only the LEFT form ("Currently only LEFT ASOF joins
 * are supported."), the match condition must come to `left >= right`, each equality of ON between an expression
 * of one side and one of the other. The row is the left columns then
 * the right columns (nullable), maintained by ops/asof-join.ts.
 */
import { SqlError, type Expr, type Pos } from '../parse/ast.js';
import { AsofJoinOp } from '../ops/asof-join.js';
import { Scope } from './scope.js';
import { conjuncts, keyFn, refsResolve, walkExpr, type Env, type Rel } from './env.js';
import { bindExpr, unify } from './expr.js';
import type { BExpr } from './bexpr.js';
import { joinedColumns } from './join.js';

const FLIP: Record<string, string> = { Gt: 'Lt', GtEq: 'LtEq', Lt: 'Gt', LtEq: 'GtEq' };

export function asofJoin(left: Rel, right: Rel, kind: string, match: Expr, on: Expr | undefined, env: Env, pos: Pos): Rel {
  /** The two operands of a comparison of one side's expression with the other's, left side's first; undefined when it is not so. */
  const split = (a: Expr, b: Expr): [BExpr, BExpr, boolean] | undefined => {
    const side = (e: Expr): 'L' | 'R' | undefined => (refsResolve(e, left.scope) ? 'L' : refsResolve(e, right.scope) ? 'R' : undefined);
    const [sa, sb] = [side(a), side(b)];
    if (sa === 'L' && sb === 'R')
      return [bindExpr(a, { scope: left.scope, session: env.session, clause: 'ASOF JOIN' }), bindExpr(b, { scope: right.scope, session: env.session, clause: 'ASOF JOIN' }), false];
    if (sa === 'R' && sb === 'L')
      return [bindExpr(b, { scope: left.scope, session: env.session, clause: 'ASOF JOIN' }), bindExpr(a, { scope: right.scope, session: env.session, clause: 'ASOF JOIN' }), true];
    return undefined;
  };
  // As Feldera's validator (Calcite) does first: the match condition's own errors (an unknown table in a
  // subquery...), then its shape, then ON's shape; Feldera's own checks (LEFT only, `>=` only) come after.
  const both = joinedColumns(left.scope, right.scope, 'LEFT');
  const cmp = match.k === 'bin' && FLIP[match.op] ? match : undefined;
  const ts = cmp && split(cmp.left, cmp.right);
  if (!cmp || !ts) {
    const joined = new Scope(both, env.casing);
    resolveFromlessSubqueries(match, joined);
    bindExpr(match, { scope: joined, session: env.session, clause: 'MATCH_CONDITION' });
    throw new SqlError('ASOF JOIN MATCH_CONDITION must be a comparison between columns from the two inputs', match.pos, 'type');
  }
  const conds = conjuncts(on);
  if (conds.length === 0) throw new SqlError('An ASOF JOIN needs ON with equalities between its two sides', pos, 'unsupported');
  const notEquality = conds.find((c) => c.k !== 'bin' || c.op !== 'Eq');
  if (notEquality) throw new SqlError('ASOF JOIN condition must be a conjunction of equality comparisons', notEquality.pos, 'type');
  if (kind !== 'LEFT') throw new SqlError('Currently only LEFT ASOF joins are supported.', pos, 'unsupported');
  const op = ts[2] ? FLIP[cmp.op]! : cmp.op;
  if (op !== 'GtEq') throw new SqlError("Currently the only MATCH_CONDITION comparison supported by ASOF joins is 'leftCol >= rightCol'", match.pos, 'unsupported');
  const [lts, rts] = unify(ts[0], ts[1], match.pos, '>=');
  const leftKeys: BExpr[] = [];
  const rightKeys: BExpr[] = [];
  for (const c of conds) {
    const pair = c.k === 'bin' && c.op === 'Eq' ? split(c.left, c.right) : undefined;
    if (!pair) throw new SqlError('ASOF JOIN condition must be a conjunction of equality comparisons of columns from both sides', c.pos, 'unsupported');
    const [a, b] = unify(pair[0], pair[1], c.pos, '=');
    leftKeys.push(a);
    rightKeys.push(b);
  }
  const cols = both;
  const spec = { leftKey: keyFn(leftKeys), rightKey: keyFn(rightKeys), leftTs: lts.fn, rightTs: rts.fn, rightWidth: right.scope.width };
  const lineage = left.node.columns;
  const n = env.session.node({
    kind: 'asof',
    inputs: [left.node, right.node],
    columns: cols.map((c, i) => ({ name: c.name, type: c.type, wm: lineage[i]?.wm })),
    make: () => new AsofJoinOp(spec),
    keys: leftKeys.length,
  });
  return { node: n, scope: new Scope(cols, env.casing) };
}

/**
 * The column references of each FROM-less scalar subquery in `e` (`(SELECT t.x)`: they can only name the
 * join's columns), resolved in `scope`: an unknown table there is the validator's first error, as Calcite's.
 */
function resolveFromlessSubqueries(e: Expr, scope: Scope): void {
  walkExpr(e, (x) => {
    if (x.k !== 'subquery' || x.query.body.k !== 'select' || x.query.body.from.length > 0) return;
    for (const item of x.query.body.items)
      if (item.k === 'expr')
        walkExpr(item.expr, (y) => {
          if (y.k === 'col') scope.resolve(y.parts, y.pos);
        });
  });
}
