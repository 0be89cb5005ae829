/** FROM clause: tables, views, CTEs, derived tables, joins, TUMBLE/HOP; lateral items (UNNEST, LATERAL) in lateral.ts. */
import { SqlError, type Expr, type FromItem, type Ident } from '../parse/ast.js';
import { node } from '../plan/nodes.js';
import { mk, withNull } from '../types/types.js';
import type { Row } from '../types/values.js';
import { JoinOp, type JoinGc } from '../ops/join.js';
import { FlatMapOp, ConstantOp } from '../ops/linear.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { type Env, type Rel, lookupRelation, relFromNamed, conjuncts, keyFn, refsResolve, walkExpr, filterNode, mapNode } from './env.js';
import { AGG_NAMES, bindCondition, bindExpr, unify, type BindCtx } from './expr.js';
import type { BExpr } from './bexpr.js';
import type { Query } from '../parse/ast.js';
import { upperBounds } from './bounds.js';
import { bindLateralList, isLateral, joinLateral, applyLateral } from './lateral.js';
import { bindPivot } from './pivot.js';
import { bindSession } from './session.js';

export type QueryBinder = (q: Query, env: Env) => { node: import('../plan/nodes.js').PlanNode; columns: import('../plan/nodes.js').PlanColumn[] };

export function emptyRowRel(env: Env): Rel {
  const n = node('values', [], [], () => new ConstantOp([[]]));
  return { node: n, scope: new Scope([], env.casing) };
}

/**
 * Bind a FROM list. `pending` are WHERE conjuncts; for comma-separated items the list is planned:
 * - a conjunct that reads one item only filters that item before any join (pushed down);
 * - the items are joined greedily along equality conditions: after the first item, the next one joined is
 *   the first (in FROM order) that an equality connects to the items joined so far, and only when none is
 *   connected does a cross product happen; each join takes every conjunct that its two sides can evaluate;
 * - the joined row is put back in FROM order, so `*` and column positions are as written.
 * Used conjuncts are removed from `pending`.
 */
export function bindFrom(items: FromItem[], env: Env, bindQuery: QueryBinder, pending: Expr[] = []): Rel {
  if (items.length === 0) return emptyRowRel(env);
  if (items.some(isLateral)) return bindLateralList(items, env, bindQuery, (rels, positions) => planFromList(rels, positions, env, pending));
  return planFromList(
    items.map((it) => bindFromItem(it, env, bindQuery)),
    items.map((it) => it.pos),
    env,
    pending,
  );
}

/** The planner of bindFrom over bound items (`positions` for messages). */
function planFromList(rels: Rel[], positions: Array<{ line: number; column: number }>, env: Env, pending: Expr[]): Rel {
  if (rels.length === 1) return rels[0]!;
  // which items each conjunct reads (resolved in the whole FROM scope, so ambiguous names stay where they are)
  const offsets: number[] = [];
  let width = 0;
  for (const r of rels) {
    offsets.push(width);
    width += r.scope.width;
  }
  const all = new Scope(rels.flatMap((r, i) => r.scope.cols.map((c) => ({ ...c, idx: c.idx + offsets[i]! }))), env.casing);
  const itemOf = (idx: number): number => {
    let i = 0;
    while (i + 1 < offsets.length && offsets[i + 1]! <= idx) i++;
    return i;
  };
  const reads = (e: Expr): Set<number> | undefined => {
    if (!resolvesAll(e, all)) return undefined;
    const set = new Set<number>();
    try {
      walkExpr(e, (x) => {
        if (x.k === 'col') set.add(itemOf(all.resolve(x.parts, x.pos).idx));
      });
    } catch {
      return undefined;
    }
    return set;
  };
  const conds = pending.map((c) => ({ c, reads: reads(c), used: false }));
  // push single-item conditions down
  const planned = rels.map((r, i) => {
    const own = conds.filter((x) => !x.used && x.reads?.size === 1 && x.reads.has(i));
    own.forEach((x) => (x.used = true));
    return own.length ? filterRel(r, own.map((x) => x.c)) : r;
  });
  // greedy order along equalities
  const joined = new Set<number>([0]);
  const order = [0];
  const isEquiJoin = (x: (typeof conds)[number], i: number): boolean =>
    !x.used && x.c.k === 'bin' && x.c.op === 'Eq' && x.reads !== undefined && x.reads.has(i) && [...x.reads].every((j) => j === i || joined.has(j)) && x.reads.size > 1;
  let rel = planned[0]!;
  while (order.length < rels.length) {
    let next = -1;
    for (let i = 0; i < rels.length && next < 0; i++) if (!joined.has(i) && conds.some((x) => isEquiJoin(x, i))) next = i;
    if (next < 0) for (let i = 0; i < rels.length && next < 0; i++) if (!joined.has(i)) next = i;
    joined.add(next);
    order.push(next);
    const use = conds.filter((x) => !x.used && x.reads !== undefined && x.reads.has(next) && [...x.reads].every((j) => joined.has(j)));
    use.forEach((x) => (x.used = true));
    const on = use.reduce<Expr | undefined>((acc, x) => (acc ? { k: 'bin', op: 'And', left: acc, right: x.c, pos: x.c.pos } : x.c), undefined);
    rel = joinRels(rel, planned[next]!, on ? 'INNER' : 'CROSS', on, env, positions[next]!);
  }
  for (let j = pending.length - 1; j >= 0; j--) if (conds[j]!.used) pending.splice(j, 1);
  if (order.every((o, i) => o === i)) return rel;
  // back to FROM order
  const startInJoin: number[] = new Array(rels.length);
  let w = 0;
  for (const o of order) {
    startInJoin[o] = w;
    w += rels[o]!.scope.width;
  }
  const perm: number[] = [];
  rels.forEach((r, i) => r.scope.cols.forEach((c) => perm.push(startInJoin[i]! + c.idx)));
  const exprs: BExpr[] = perm.map((src) => ({ type: rel.node.columns[src]!.type, fn: (row) => row[src]!, colIdx: src }));
  const n = mapNode(rel.node, exprs, perm.map((src) => rel.node.columns[src]!));
  const cols: ScopeColumn[] = [];
  rels.forEach((r, i) => {
    const at = perm.indexOf(startInJoin[i]!);
    for (const c of r.scope.cols) cols.push({ ...c, idx: c.idx + at });
  });
  return { node: n, scope: new Scope(cols, env.casing) };
}

function filterRel(rel: Rel, conds: Expr[]): Rel {
  const ctx: BindCtx = { scope: rel.scope, clause: 'WHERE' };
  const fns = conds.map((c) => bindCondition(c, ctx).fn);
  const pred: BExpr = { type: mk('BOOLEAN'), fn: fns.length === 1 ? fns[0]! : (row) => fns.every((f) => f(row) === true) };
  return { node: filterNode(rel.node, pred, upperBounds(conds, ctx)), scope: rel.scope };
}

/** Every column of e resolves in scope, and e holds no subquery, window or aggregate call. */
function resolvesAll(e: Expr, scope: Scope): boolean {
  return refsResolve(e, scope, (x) => x.k === 'func' && (Boolean(x.over) || AGG_NAMES.has(x.name)));
}

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
      return bindJoin(f, env, bindQuery);
  }
}

function bindJoin(f: FromItem & { k: 'join' }, env: Env, bindQuery: QueryBinder): Rel {
  const left = bindFromItem(f.left, env, bindQuery);
  if (isLateral(f.right)) {
    if (f.using || f.natural) throw new SqlError('USING and NATURAL are not supported with UNNEST or LATERAL; write ON', f.pos, 'unsupported');
    return joinLateral(left, f.right, f.kind, f.on, env, bindQuery, f.pos);
  }
  const right = bindFromItem(f.right, env, bindQuery);
  let on: Expr | undefined = f.on;
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
        left: { k: 'col', parts: [{ value: '$L', quoted: true, pos: n.pos }, { value: lc.name, quoted: true, pos: n.pos }], pos: n.pos },
        right: { k: 'col', parts: [{ value: '$R', quoted: true, pos: n.pos }, { value: rc.name, quoted: true, pos: n.pos }], pos: n.pos },
        pos: n.pos,
      };
      on = on ? { k: 'bin', op: 'And', left: on, right: cond, pos: n.pos } : cond;
    }
  }
  return joinRels(left, right, f.kind, on, env, f.pos, hideRight);
}

export function joinRels(left: Rel, right: Rel, kind: string, on: Expr | undefined, env: Env, pos: { line: number; column: number }, hideRight = new Set<number>()): Rel {
  const lw = left.scope.width;
  const rw = right.scope.width;
  const leftNullable = kind === 'RIGHT' || kind === 'FULL';
  const rightNullable = kind === 'LEFT' || kind === 'FULL';
  const cols: ScopeColumn[] = [
    ...left.scope.cols.map((c) => ({ ...c, type: leftNullable ? withNull(c.type, true) : c.type })),
    ...right.scope.cols.map((c) => ({ ...c, idx: c.idx + lw, hidden: c.hidden || hideRight.has(c.idx), type: rightNullable ? withNull(c.type, true) : c.type })),
  ];
  const scope = new Scope(cols, env.casing);
  // internal aliases for USING/NATURAL conditions
  const ctxCols: ScopeColumn[] = [...cols, ...left.scope.cols.map((c) => ({ ...c, rel: '$L', hidden: true })), ...right.scope.cols.map((c) => ({ ...c, rel: '$R', idx: c.idx + lw, hidden: true }))];
  const condScope = new Scope(ctxCols, env.casing);
  const leftKeys: BExpr[] = [];
  const rightKeys: BExpr[] = [];
  const gc: JoinGc[] = [];
  const residual: Expr[] = [];
  for (const c of conjuncts(on)) {
    if (c.k === 'bin' && c.op === 'Eq') {
      const ls = sides(c.left, condScope, lw);
      const rs = sides(c.right, condScope, lw);
      let lExpr: Expr | undefined;
      let rExpr: Expr | undefined;
      if (ls === 'L' && rs === 'R') [lExpr, rExpr] = [c.left, c.right];
      else if (ls === 'R' && rs === 'L') [lExpr, rExpr] = [c.right, c.left];
      if (lExpr && rExpr) {
        const lb = bindExpr(lExpr, { scope: withAliases(left.scope, '$L'), clause: 'ON' });
        const rb = bindExpr(rExpr, { scope: withAliases(right.scope, '$R'), clause: 'ON' });
        const [a, b] = unify(lb, rb, c.pos, '=');
        leftKeys.push(a);
        rightKeys.push(b);
        const lw0 = lb.colIdx !== undefined ? left.node.columns[lb.colIdx]?.wm : undefined;
        const rw0 = rb.colIdx !== undefined ? right.node.columns[rb.colIdx]?.wm : undefined;
        if (lw0 && rw0) gc.push({ leftCol: lb.colIdx!, rightCol: rb.colIdx!, left: lw0, right: rw0 });
        continue;
      }
    }
    residual.push(c);
  }
  let resFn: ((row: Row) => import('../types/values.js').Value) | undefined;
  if (residual.length) {
    const ctx: BindCtx = { scope: condScope, clause: 'ON' };
    const bound = residual.map((r) => bindCondition(r, ctx));
    const fns = bound.map((b) => b.fn);
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
  };
  const lineage = [...left.node.columns, ...right.node.columns];
  const n = node('join', [left.node, right.node], cols.map((c, i) => ({ name: c.name, type: c.type, wm: lineage[i]?.wm })), () => new JoinOp(spec));
  n.detail = `${kind}${leftKeys.length ? ` on ${leftKeys.length} key${leftKeys.length > 1 ? 's' : ''}` : ''}${residual.length ? ' + condition' : ''}`;
  void pos;
  return { node: n, scope };
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

/** TUMBLE(t, DESCRIPTOR(ts), size [, offset]) and HOP(t, DESCRIPTOR(ts), slide, size [, offset]). */
function bindTvf(f: FromItem & { k: 'tvf' }, env: Env): Rel {
  const name = f.name.toUpperCase();
  if (name === 'SESSION') return bindSession(f, env);
  if (name !== 'TUMBLE' && name !== 'HOP') throw new SqlError(`Table function ${f.name} is not supported`, f.pos, 'unsupported');
  const [tArg, dArg, ...rest] = f.args;
  if (!tArg || tArg.k !== 'col') throw new SqlError(`${name} needs a table as its first argument`, f.pos, 'syntax');
  if (!dArg || dArg.k !== 'descriptor' || dArg.cols.length !== 1) throw new SqlError(`${name} needs DESCRIPTOR(column) as its second argument`, f.pos, 'syntax');
  const base = relFromNamed(lookupRelation(env, tArg.parts, tArg.pos), canon(tArg.parts[tArg.parts.length - 1]!, env.casing), env.casing);
  const tsCol = base.scope.resolve(dArg.cols, dArg.pos);
  if (tsCol.type.kind !== 'TIMESTAMP') throw new SqlError(`${name} needs a TIMESTAMP column, ${tsCol.name} is ${tsCol.type.kind}`, dArg.pos, 'type');
  const ctx: BindCtx = { scope: base.scope, clause: name };
  const ival = (e: Expr | undefined, what: string): number => {
    if (!e) throw new SqlError(`${name} needs ${what}`, f.pos, 'syntax');
    const b = bindExpr(e, ctx);
    if (!b.constant || b.type.kind !== 'INTERVAL_DT') throw new SqlError(`${name} ${what} must be a constant day-time INTERVAL`, e.pos, 'type');
    return b.fn([]) as number;
  };
  const idx = tsCol.idx;
  let fn: (row: Row) => Row[];
  if (name === 'TUMBLE') {
    const size = ival(rest[0], 'a window size');
    const offset = rest[1] ? ival(rest[1], 'an offset') : 0;
    if (size <= 0) throw new SqlError('TUMBLE size must be positive', f.pos, 'type');
    fn = (row) => {
      const ts = row[idx] as number | null;
      if (ts === null) return [];
      const start = Math.floor((ts - offset) / size) * size + offset;
      return [row.concat([start, start + size])];
    };
  } else {
    const slide = ival(rest[0], 'a slide');
    const size = ival(rest[1], 'a window size');
    const offset = rest[2] ? ival(rest[2], 'an offset') : 0;
    if (slide <= 0 || size <= 0) throw new SqlError('HOP slide and size must be positive', f.pos, 'type');
    fn = (row) => {
      const ts = row[idx] as number | null;
      if (ts === null) return [];
      const out: Row[] = [];
      let start = Math.floor((ts - offset) / slide) * slide + offset;
      const starts: number[] = [];
      while (start + size > ts) {
        starts.push(start);
        start -= slide;
      }
      for (let i = starts.length - 1; i >= 0; i--) out.push(row.concat([starts[i]!, starts[i]! + size]));
      return out;
    };
  }
  const relName = f.alias ? canon(f.alias, env.casing) : undefined;
  const wsName = env.casing === 'upper' ? 'WINDOW_START' : 'window_start';
  const weName = env.casing === 'upper' ? 'WINDOW_END' : 'window_end';
  const tsType = mk('TIMESTAMP', false);
  const cols: ScopeColumn[] = [
    ...base.scope.cols.map((c) => ({ ...c, rel: relName })),
    { rel: relName, name: wsName, type: tsType, idx: base.scope.width },
    { rel: relName, name: weName, type: tsType, idx: base.scope.width + 1 },
  ];
  const srcWm = base.node.columns[idx]?.wm;
  const sizeMs = name === 'TUMBLE' ? ival(rest[0], 'a window size') : ival(rest[1], 'a window size');
  const lineage = [...base.node.columns.map((c) => c.wm), srcWm && { ...srcWm, slack: srcWm.slack - 1 + sizeMs }, srcWm && { ...srcWm, slack: srcWm.slack - 1 }];
  const n = node(name.toLowerCase(), [base.node], cols.map((c, i) => ({ name: c.name, type: c.type, wm: lineage[i] })), () => new FlatMapOp(fn));
  return { node: n, scope: new Scope(cols, env.casing) };
}
