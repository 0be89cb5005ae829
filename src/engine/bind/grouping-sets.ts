/**
 * GROUP BY ROLLUP / CUBE / GROUPING SETS as a UNION ALL of one GROUP BY per grouping set (each an incremental
 * aggregate of its own). In the branch of a set, a grouping expression that is not in the set reads as NULL of
 * its type (written MIN(CASE WHEN FALSE THEN e END), an aggregate that is always NULL), and GROUPING(e, ...) /
 * GROUPING_ID(e, ...) become the constant bit mask of the expressions left out (first argument = highest bit).
 * The first branch is the set with the most expressions, so output column names come from unreplaced columns;
 * a replaced column keeps its name through an alias.
 */
import { SqlError, type Expr, type Select, type SetBody } from '../parse/ast.js';
import { AGG_NAMES } from './fns/aggregate.js';

const keyOf = (e: Expr): string => JSON.stringify(e, (k, v) => (k === 'pos' ? undefined : v));

function nullOf(e: Expr): Expr {
  const pos = e.pos;
  return {
    k: 'func',
    name: 'MIN',
    args: [{ k: 'case', whens: [{ cond: { k: 'bool', value: false, pos }, result: e }], pos }],
    star: false,
    distinct: false,
    pos,
  };
}

/** Rewrite an expression for one grouping set (outside aggregate calls). */
function rewrite(e: Expr, missing: Set<string>, all: Map<string, Expr>): Expr {
  const k = keyOf(e);
  if (missing.has(k)) return nullOf(e);
  if (e.k === 'func' && (e.name === 'GROUPING' || e.name === 'GROUPING_ID') && !e.over) {
    let mask = 0;
    for (const a of e.args) {
      const ak = keyOf(a);
      if (!all.has(ak)) throw new SqlError(`Argument to ${e.name} operator must be a grouped expression`, a.pos, 'type');
      mask = mask * 2 + (missing.has(ak) ? 1 : 0);
    }
    return { k: 'num', text: String(mask), pos: e.pos };
  }
  if (e.k === 'func' && (AGG_NAMES.has(e.name) || e.over)) return e;
  if (e.k === 'insub' || e.k === 'exists' || e.k === 'subquery') return e;
  const out: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(e)) {
    if (field === 'pos') out[field] = v;
    else if (Array.isArray(v)) out[field] = v.map((x) => (isExpr(x) ? rewrite(x, missing, all) : isWhen(x) ? { cond: rewrite(x.cond, missing, all), result: rewrite(x.result, missing, all) } : x));
    else out[field] = isExpr(v) ? rewrite(v, missing, all) : v;
  }
  return out as unknown as Expr;
}

const isExpr = (x: unknown): x is Expr => typeof x === 'object' && x !== null && 'k' in x && 'pos' in x;
const isWhen = (x: unknown): x is { cond: Expr; result: Expr } => typeof x === 'object' && x !== null && 'cond' in x && 'result' in x;

/**
 * The HAVING of the empty grouping set `()`: COUNT(*) >= 0 (always true) joined to its own, so the branch is an
 * aggregate of one group even when it selects no aggregate (SELECT GROUPING(a) ... GROUPING SETS ((a), ())).
 */
function grandTotal(having: Expr | undefined, pos: Expr['pos']): Expr {
  const always: Expr = { k: 'bin', op: 'GtEq', left: { k: 'func', name: 'COUNT', args: [], star: true, distinct: false, pos }, right: { k: 'num', text: '0', pos }, pos };
  return having ? { k: 'bin', op: 'And', left: having, right: always, pos } : always;
}

export function expandGroupingSets(s: Select): SetBody {
  const all = new Map<string, Expr>();
  for (const e of s.groupBy) all.set(keyOf(e), e);
  const sets = [...s.groupingSets!]
    .map((set, i) => ({ set, i }))
    .sort((a, b) => b.set.length - a.set.length || a.i - b.i)
    .map((x) => x.set);
  const branches: Select[] = sets.map((set) => {
    const inSet = new Set(set.map(keyOf));
    const missing = new Set([...all.keys()].filter((k) => !inSet.has(k)));
    return {
      ...s,
      groupingSets: undefined,
      groupBy: [...new Map(set.map((e) => [keyOf(e), e])).values()],
      items: s.items.map((it) => {
        if (it.k !== 'expr') return it;
        const expr = rewrite(it.expr, missing, all);
        const alias = it.alias ?? (it.expr.k === 'col' && expr !== it.expr ? it.expr.parts[it.expr.parts.length - 1] : undefined);
        return { ...it, expr, ...(alias ? { alias } : {}) };
      }),
      having: set.length === 0 ? grandTotal(s.having ? rewrite(s.having, missing, all) : undefined, s.pos) : s.having ? rewrite(s.having, missing, all) : undefined,
    };
  });
  return branches.slice(1).reduce<SetBody>((left, right) => ({ k: 'setop', op: 'UNION', all: true, left, right, pos: s.pos }), branches[0]!);
}
