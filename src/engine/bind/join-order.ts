/**
 * The order of a group of inner-joined relations: the items of a comma FROM list and of explicit INNER and
 * CROSS JOIN chains, flattened by bind/from.ts into leaves in written order (an outer join, a USING/NATURAL
 * join, a derived table is one leaf), with their conditions: ON conjuncts and the WHERE conjuncts that the
 * leaves can evaluate. Inner joins commute and associate, so any order gives the same rows; the plan:
 * - a condition that reads one leaf goes to that leaf before any join (pushed down; an outer join leaf may
 *   take it further down, see from.ts); an ON condition that reads no column filters the first leaf of its join;
 * - leaves connected by equalities form components; each is joined greedily along them: from its first leaf,
 *   the next one joined is the first (in written order) that an equality connects to the leaves joined so
 *   far, so no cross product happens while a join key exists; each join takes every condition its two sides
 *   can evaluate; components are then crossed, last;
 * - the joined row is put back in written order, so `*` and column positions are as written.
 * Names resolve as written: a condition binds in a scope of the leaves of its own origin (the ON's join, or
 * the whole FROM for WHERE), placed where those leaves are in the row being built.
 */
import type { Expr } from '../parse/ast.js';
import type { BExpr } from './bexpr.js';
import type { CompileSession } from './compile-session.js';
import { Scope, type ScopeColumn } from './scope.js';
import { type Env, type Rel, mapNode } from './env.js';
import { buildJoin, filterRel, joinedColumns, type JoinCond } from './join.js';

/**
 * A leaf: its scope, and its relation under the conditions that read it alone (`build` is called once; an
 * outer join applies some of them below itself, plan them as it may).
 */
export interface Leaf {
  scope: Scope;
  build: (conds: Expr[]) => Rel;
  /** The relation of a leaf already bound (no condition can go below it). */
  bound?: Rel;
}

/** A leaf already bound: the conditions filter it. */
export function boundLeaf(session: CompileSession, rel: Rel): Leaf {
  return { scope: rel.scope, build: (conds) => (conds.length ? filterRel(session, rel, conds) : rel), bound: rel };
}

/** The scope of the leaves' rows side by side, in written order (the scope of a planned group). */
export function leavesScope(leaves: Leaf[], env: Env): Scope {
  const cols: ScopeColumn[] = [];
  let at = 0;
  for (const leaf of leaves) {
    for (const c of leaf.scope.cols) cols.push({ ...c, idx: at + c.idx });
    at += leaf.scope.width;
  }
  return new Scope(cols, env.casing);
}

export interface GroupCond {
  c: Expr;
  /** Leaves (indexes in written order) whose columns the condition reads; never empty. */
  reads: Set<number>;
  /** The leaves its names resolve among: [first, end) in written order. */
  origin: [number, number];
}

/** A relation built from some leaves: where each leaf's columns start in its row. */
interface Built {
  rel: Rel;
  leaves: number[];
  start: Map<number, number>;
}

export function planJoinGroup(leaves: Leaf[], conds: GroupCond[], env: Env): Rel {
  const used = new Set<GroupCond>();
  const scopeOf = (cond: GroupCond, b: Omit<Built, 'rel'>): Scope => {
    const cols: ScopeColumn[] = [];
    for (const l of b.leaves) {
      if (l < cond.origin[0] || l >= cond.origin[1]) continue;
      const at = b.start.get(l)!;
      for (const c of leaves[l]!.scope.cols) cols.push({ ...c, idx: c.idx + at });
    }
    return new Scope(cols, env.casing);
  };
  // single-leaf conditions filter their leaf
  const built: Built[] = leaves.map((leaf, i) => {
    const own = conds.filter((x) => x.reads.size === 1 && x.reads.has(i));
    own.forEach((x) => used.add(x));
    return { rel: leaf.build(own.map((x) => x.c)), leaves: [i], start: new Map([[i, 0]]) };
  });
  const join = (a: Built, b: Built): Built => {
    const inA = new Set(a.leaves);
    const inB = new Set(b.leaves);
    const take = conds.filter((x) => !used.has(x) && [...x.reads].every((l) => inA.has(l) || inB.has(l)));
    take.forEach((x) => used.add(x));
    const lw = a.rel.scope.width;
    const start = new Map(a.start);
    for (const [l, s] of b.start) start.set(l, s + lw);
    const both = { leaves: [...a.leaves, ...b.leaves], start };
    const kind = take.length ? 'INNER' : 'CROSS';
    const jc: JoinCond[] = take.map((x) => ({ c: x.c, scopes: { both: scopeOf(x, both), left: scopeOf(x, a), right: scopeOf(x, b) } }));
    return { ...both, rel: buildJoin(a.rel, b.rel, kind, joinedColumns(a.rel.scope, b.rel.scope, kind), jc, env) };
  };
  const isEquality = (x: GroupCond): boolean => x.c.k === 'bin' && x.c.op === 'Eq' && x.reads.size > 1;
  // components along equalities
  const comp = leaves.map((_, i) => i);
  const find = (i: number): number => (comp[i] === i ? i : (comp[i] = find(comp[i]!)));
  for (const x of conds) {
    if (!isEquality(x)) continue;
    const [first, ...rest] = [...x.reads];
    for (const r of rest) {
      const a = find(first!);
      const b = find(r);
      comp[Math.max(a, b)] = Math.min(a, b); // the root is the component's first leaf
    }
  }
  const parts: Built[] = [];
  for (let root = 0; root < leaves.length; root++) {
    if (find(root) !== root) continue;
    const members = leaves.map((_, i) => i).filter((i) => find(i) === root);
    let acc = built[root]!;
    const joined = new Set([root]);
    while (joined.size < members.length) {
      const connects = (i: number): boolean => conds.some((x) => !used.has(x) && isEquality(x) && x.reads.has(i) && [...x.reads].every((l) => l === i || joined.has(l)));
      const next = members.find((i) => !joined.has(i) && connects(i)) ?? members.find((i) => !joined.has(i))!;
      joined.add(next);
      acc = join(acc, built[next]!);
    }
    parts.push(acc);
  }
  const whole = parts.reduce((a, b) => join(a, b));
  return inWrittenOrder(whole, leaves, env);
}

/** The row of `b` with its leaves' columns back in written order. */
function inWrittenOrder(b: Built, leaves: Leaf[], env: Env): Rel {
  const cols: ScopeColumn[] = [];
  const perm: number[] = [];
  leaves.forEach((leaf, l) => {
    const at = perm.length;
    for (const c of leaf.scope.cols) cols.push({ ...c, idx: at + c.idx });
    for (let i = 0; i < leaf.scope.width; i++) perm.push(b.start.get(l)! + i);
  });
  if (perm.every((src, i) => src === i)) return b.rel;
  const rel = b.rel;
  const exprs: BExpr[] = perm.map((src) => ({ type: rel.node.columns[src]!.type, fn: (row) => row[src]!, colIdx: src }));
  return {
    node: mapNode(
      env.session,
      rel.node,
      exprs,
      perm.map((src) => rel.node.columns[src]!),
    ),
    scope: new Scope(cols, env.casing),
  };
}
