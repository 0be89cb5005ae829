/**
 * FROM clause: tables, views, CTEs, derived tables, joins (inner chains planned by join-order.ts), TUMBLE/HOP;
 * ASOF joins in asof-join.ts;
 * lateral items (UNNEST, LATERAL) in lateral.ts, PIVOT in pivot.ts, SESSION in session.ts.
 */
import { SqlError, type Expr, type FromItem, type Ident } from '../parse/ast.js';
import { mk } from '../types/types.js';
import { ConstantOp } from '../ops/linear.js';
import { windowShape, windowsNode } from './time-windows.js';
import { canon, Scope, type Casing, type ScopeColumn } from './scope.js';
import { type Env, type QueryBinder, type Rel, lookupRelation, relFromNamed, conjuncts, refsResolve, walkExpr } from './env.js';
import { AGG_NAMES } from './expr.js';
import { filterRel, joinedColumns, joinRels } from './join.js';
import { boundLeaf, leavesScope, planJoinGroup, type GroupCond, type Leaf } from './join-order.js';
import { bindLateralList, isLateral, joinLateral, applyLateral } from './lateral.js';
import { bindPivot } from './pivot.js';
import { bindSession } from './session.js';
import { asofJoin } from './asof-join.js';
import { isNowCall } from './now-call.js';

export { joinRels };

export function emptyRowRel(env: Env): Rel {
  const n = env.session.node({ kind: 'values', inputs: [], columns: [], make: () => new ConstantOp([[]]) });
  return { node: n, scope: new Scope([], env.casing) };
}

/**
 * Bind a FROM list. `pending` are WHERE conjuncts. The comma-separated items and the explicit INNER/CROSS
 * JOIN chains among them are one group of inner-joined leaves (an outer join, a USING/NATURAL join, a
 * derived table or table function is one leaf; the inner chains inside an outer join are groups of their
 * own), planned by bind/join-order.ts with their ON conjuncts and the WHERE conjuncts they can evaluate:
 * single-leaf conditions pushed down, joined along equalities, the row in written order. Used conjuncts are
 * removed from `pending`.
 */
export function bindFrom(items: FromItem[], env: Env, bindQuery: QueryBinder, pending: Expr[] = []): Rel {
  if (items.length === 0) return emptyRowRel(env);
  // a lateral item reads the items before it: bound in order (lateral.ts), then planned as one group of leaves
  if (items.some(isLateral)) return bindLateralList(items, env, bindQuery, (rels) => planWithWhere({ leaves: rels.map((r) => boundLeaf(env.session, r)), conds: [] }, pending, env));
  const group: JoinGroup = { leaves: [], conds: [] };
  for (const it of items) addGroup(group, gatherInnerJoins(it, env, bindQuery));
  return planWithWhere(group, pending, env);
}

/** Plan a group with the WHERE conjuncts (`pending`) it can evaluate; those are removed from `pending`. */
function planWithWhere(group: JoinGroup, pending: Expr[], env: Env): Rel {
  const only = group.leaves.length === 1 && group.conds.length === 0 ? group.leaves[0]!.bound : undefined;
  if (only) return only; // one relation: WHERE filters it (in bind/query.ts)
  const all: [number, number] = [0, group.leaves.length];
  const taken = new Set<Expr>();
  for (const c of pending) {
    const reads = leavesRead(c, group.leaves, all, env.casing);
    if (!reads?.size) continue; // unresolved here (a subquery, an outer column, ambiguous) or constant: WHERE
    group.conds.push({ c, reads, origin: all });
    taken.add(c);
  }
  for (let j = pending.length - 1; j >= 0; j--) if (taken.has(pending[j]!)) pending.splice(j, 1);
  return planGroup(group, env);
}

function planGroup(g: JoinGroup, env: Env): Rel {
  return g.leaves.length === 1 && g.conds.length === 0 ? g.leaves[0]!.build([]) : planJoinGroup(g.leaves, g.conds, env);
}

interface JoinGroup {
  leaves: Leaf[];
  conds: GroupCond[];
}

function addGroup(to: JoinGroup, g: JoinGroup): void {
  const shift = to.leaves.length;
  to.leaves.push(...g.leaves);
  for (const x of g.conds) to.conds.push({ c: x.c, reads: new Set([...x.reads].map((l) => l + shift)), origin: [x.origin[0] + shift, x.origin[1] + shift] });
}

/**
 * The leaves and ON conjuncts of an INNER/CROSS JOIN tree. A join whose ON has a conjunct the planner cannot
 * place (a subquery, an outer query's column) is one leaf, joined as written.
 */
function gatherInnerJoins(f: FromItem, env: Env, bindQuery: QueryBinder): JoinGroup {
  if (f.k !== 'join') return { leaves: [boundLeaf(env.session, bindFromItem(f, env, bindQuery))], conds: [] };
  if (f.asof)
    return {
      leaves: [boundLeaf(env.session, asofJoin(planGroup(gatherInnerJoins(f.left, env, bindQuery), env), planGroup(gatherInnerJoins(f.right, env, bindQuery), env), f.kind, f.asof, f.on, env, f.pos))],
      conds: [],
    };
  if (isLateral(f.right)) {
    // the lateral side reads the left side's columns: never reordered, one leaf over the planned left side
    if (f.using || f.natural) throw new SqlError('USING and NATURAL are not supported with UNNEST or LATERAL; write ON', f.pos, 'unsupported');
    const left = planGroup(gatherInnerJoins(f.left, env, bindQuery), env);
    return { leaves: [boundLeaf(env.session, joinLateral(left, f.right, f.kind, f.on, env, bindQuery, f.pos))], conds: [] };
  }
  if (!isInnerJoin(f)) return { leaves: [outerJoinLeaf(f, env, bindQuery)], conds: [] };
  const left = gatherInnerJoins(f.left, env, bindQuery);
  const right = gatherInnerJoins(f.right, env, bindQuery);
  const g: JoinGroup = { leaves: [], conds: [] };
  addGroup(g, left);
  addGroup(g, right);
  const origin: [number, number] = [0, g.leaves.length];
  const on = conjuncts(f.on).map((c) => ({ c, reads: leavesRead(c, g.leaves, origin, env.casing) }));
  if (on.some((x) => !x.reads)) return { leaves: [boundLeaf(env.session, joinRels(planGroup(left, env), planGroup(right, env), f.kind, f.on, env, f.pos))], conds: [] };
  for (const x of on) g.conds.push({ c: x.c, reads: x.reads!.size ? x.reads! : new Set([0]), origin });
  return g;
}

function isInnerJoin(f: FromItem & { k: 'join' }): boolean {
  return (f.kind === 'INNER' || f.kind === 'CROSS') && !f.using && !f.natural;
}

/**
 * Which leaves (of `leaves[origin]`, resolved among them alone) an expression reads; undefined when a name
 * does not resolve there or is ambiguous, or it holds a subquery, window or aggregate call.
 */
function leavesRead(e: Expr, leaves: Leaf[], origin: [number, number], casing: Casing): Set<number> | undefined {
  const cols: ScopeColumn[] = [];
  const leafAt: number[] = [];
  for (let l = origin[0]; l < origin[1]; l++) {
    const at = leafAt.length;
    for (const c of leaves[l]!.scope.cols) cols.push({ ...c, idx: at + c.idx });
    for (let i = 0; i < leaves[l]!.scope.width; i++) leafAt.push(l);
  }
  const scope = new Scope(cols, casing);
  // NOW() is read where the clock is joined (bind/now.ts), after the FROM: such a condition stays in WHERE
  if (!refsResolve(e, scope, (x) => x.k === 'func' && (Boolean(x.over) || AGG_NAMES.has(x.name) || isNowCall(x)))) return undefined;
  const set = new Set<number>();
  try {
    walkExpr(e, (x) => {
      if (x.k === 'col') set.add(leafAt[scope.resolve(x.parts, x.pos).idx]!);
    });
  } catch {
    return undefined;
  }
  return set;
}

/** One FROM item; an INNER/CROSS JOIN chain is planned on its own. */
export function bindFromItem(f: FromItem, env: Env, bindQuery: QueryBinder): Rel {
  switch (f.k) {
    case 'unnest':
      return applyLateral(undefined, f, env, bindQuery);
    case 'pivot':
      return bindPivot(f, env, bindQuery);
    case 'table': {
      const r = lookupRelation(env, f.name, f.pos);
      const relName = f.alias ? canon(f.alias, env.casing) : r.name;
      return relFromNamed(r, relName, env.casing);
    }
    case 'derived': {
      if (f.lateral) return applyLateral(undefined, f, env, bindQuery);
      const q = bindQuery(f.query, env);
      let columns = q.columns;
      if (f.columnAliases.length) {
        if (f.columnAliases.length !== columns.length) throw new SqlError(`List of column aliases must have same degree as table`, f.pos, 'type');
        columns = columns.map((c, i) => ({ ...c, name: canon(f.columnAliases[i]!, env.casing) }));
      }
      const relName = f.alias ? canon(f.alias, env.casing) : undefined;
      const cols: ScopeColumn[] = columns.map((c, i) => ({ rel: relName, name: c.name, type: c.type, idx: i }));
      return { node: q.node, scope: new Scope(cols, env.casing) };
    }
    case 'tvf':
      return bindTvf(f, env);
    case 'join':
      return planGroup(gatherInnerJoins(f, env, bindQuery), env);
  }
}

/**
 * An outer or USING/NATURAL join, as written: a leaf of the group around it. The inner chains on either side
 * are planned on their own, and a condition moves below the join only where it keeps the join's rows:
 * - an ON conjunct of a LEFT (RIGHT) join that reads only the right (left) side filters that side: the rows
 *   it refuses would match no row anyway, and the other side's rows are kept either way;
 * - a WHERE (or enclosing ON) condition that reads only this join's columns, and of those only the kept
 *   side's of a LEFT (RIGHT) join, filters that side: a refused row's output rows (matched or padded with
 *   NULLs) would all be refused above; any other such condition filters the join's rows.
 */
function outerJoinLeaf(f: FromItem & { k: 'join' }, env: Env, bindQuery: QueryBinder): Leaf {
  const lg = gatherInnerJoins(f.left, env, bindQuery);
  const rg = gatherInnerJoins(f.right, env, bindQuery);
  const plain = !f.using && !f.natural && (f.kind === 'LEFT' || f.kind === 'RIGHT');
  if (!plain) return boundLeaf(env.session, joinAsWritten(f, planGroup(lg, env), planGroup(rg, env), f.on, env));
  const both = [...lg.leaves, ...rg.leaves];
  const side = (g: JoinGroup): [number, number] => (g === lg ? [0, lg.leaves.length] : [lg.leaves.length, both.length]);
  /** Moves the conditions that read only `g`'s leaves into `g`; returns the others. */
  const pushInto = (g: JoinGroup, conds: Expr[]): Expr[] => {
    const [first, end] = side(g);
    return conds.filter((c) => {
      const reads = leavesRead(c, both, [0, both.length], env.casing);
      if (!reads?.size || ![...reads].every((l) => l >= first && l < end)) return true;
      g.conds.push({ c, reads: new Set([...reads].map((l) => l - first)), origin: [0, g.leaves.length] });
      return false;
    });
  };
  const [kept, optional] = f.kind === 'LEFT' ? [lg, rg] : [rg, lg];
  const on = andOf(pushInto(optional, conjuncts(f.on)));
  const scope = new Scope(joinedColumns(leavesScope(lg.leaves, env), leavesScope(rg.leaves, env), f.kind), env.casing);
  return {
    scope,
    build: (conds) => {
      const above = pushInto(kept, conds);
      const rel = joinAsWritten(f, planGroup(lg, env), planGroup(rg, env), on, env);
      return above.length ? filterRel(env.session, rel, above) : rel;
    },
  };
}

function andOf(conds: Expr[]): Expr | undefined {
  return conds.reduce<Expr | undefined>((acc, c) => (acc ? { k: 'bin', op: 'And', left: acc, right: c, pos: c.pos } : c), undefined);
}

/** The join node of `f` over its planned sides under `on` (plus its USING/NATURAL equalities). */
function joinAsWritten(f: FromItem & { k: 'join' }, left: Rel, right: Rel, on: Expr | undefined, env: Env): Rel {
  const hideRight = new Set<number>();
  if (f.using || f.natural) {
    let names: Ident[] = f.using ?? [];
    if (f.natural) {
      const rn = new Set(right.scope.cols.map((c) => c.name));
      names = left.scope.cols.filter((c) => rn.has(c.name)).map((c) => ({ value: c.name, quoted: true, pos: f.pos }));
    }
    for (const n of names) {
      const lc = left.scope.resolve([n], n.pos);
      const rc = right.scope.resolve([n], n.pos);
      hideRight.add(rc.idx);
      const cond: Expr = {
        k: 'bin',
        op: 'Eq',
        left: {
          k: 'col',
          parts: [
            { value: '$L', quoted: true, pos: n.pos },
            { value: lc.name, quoted: true, pos: n.pos },
          ],
          pos: n.pos,
        },
        right: {
          k: 'col',
          parts: [
            { value: '$R', quoted: true, pos: n.pos },
            { value: rc.name, quoted: true, pos: n.pos },
          ],
          pos: n.pos,
        },
        pos: n.pos,
      };
      on = on ? { k: 'bin', op: 'And', left: on, right: cond, pos: n.pos } : cond;
    }
  }
  return joinRels(left, right, f.kind, on, env, f.pos, hideRight);
}

/** TUMBLE(t, DESCRIPTOR(ts), size [, offset]) and HOP(t, DESCRIPTOR(ts), slide, size [, offset]) (time-windows.ts). */
function bindTvf(f: FromItem & { k: 'tvf' }, env: Env): Rel {
  const name = f.name.toUpperCase();
  if (name === 'SESSION') return bindSession(f, env);
  if (name !== 'TUMBLE' && name !== 'HOP') throw new SqlError(`Table function ${f.name} is not supported`, f.pos, 'unsupported');
  const [tArg, dArg, ...rest] = f.args;
  if (!tArg || tArg.k !== 'col') throw new SqlError(`${name} needs a table as its first argument`, f.pos, 'syntax');
  if (!dArg || dArg.k !== 'descriptor' || dArg.cols.length !== 1) throw new SqlError(`${name} needs DESCRIPTOR(column) as its second argument`, f.pos, 'syntax');
  const base = relFromNamed(lookupRelation(env, tArg.parts, tArg.pos), canon(tArg.parts[tArg.parts.length - 1]!, env.casing), env.casing);
  const tsCol = base.scope.resolve(dArg.cols, dArg.pos);
  if (tsCol.type.kind !== 'TIMESTAMP')
    throw new SqlError(`Cannot apply '${name}' to arguments of type <${tsCol.type.kind}>: ${name} needs a TIMESTAMP column, ${tsCol.name} is ${tsCol.type.kind}`, dArg.pos, 'type');
  const shape = windowShape(name, rest, { scope: base.scope, session: env.session, clause: name }, f.pos);
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const wsName = env.casing === 'upper' ? 'WINDOW_START' : 'window_start';
  const weName = env.casing === 'upper' ? 'WINDOW_END' : 'window_end';
  const tsType = mk('TIMESTAMP', false);
  const cols: ScopeColumn[] = [
    ...base.scope.cols.map((c) => ({ ...c, rel: relName })),
    { rel: relName, name: wsName, type: tsType, idx: base.scope.width },
    { rel: relName, name: weName, type: tsType, idx: base.scope.width + 1 },
  ];
  const n = windowsNode(env.session, base.node, tsCol.idx, shape, [
    { name: wsName, type: tsType },
    { name: weName, type: tsType },
  ]);
  return { node: n, scope: new Scope(cols, env.casing) };
}
