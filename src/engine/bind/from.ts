/** FROM clause: tables, views, CTEs, derived tables, joins, TUMBLE/HOP. */
import { SqlError, type Expr, type FromItem, type Ident } from '../parse/ast.js';
import { node } from '../plan/nodes.js';
import { mk, withNull } from '../types/types.js';
import type { Row } from '../types/values.js';
import { JoinOp, type JoinGc } from '../ops/join.js';
import { FlatMapOp, ConstantOp } from '../ops/linear.js';
import { canon, Scope, type ScopeColumn } from './scope.js';
import { type Env, type Rel, lookupRelation, relFromNamed, conjuncts, keyFn, refsResolve, walkExpr } from './env.js';
import { AGG_NAMES, bindCondition, bindExpr, unify, type BindCtx } from './expr.js';
import type { BExpr } from './bexpr.js';
import type { Query } from '../parse/ast.js';

export type QueryBinder = (q: Query, env: Env) => { node: import('../plan/nodes.js').PlanNode; columns: import('../plan/nodes.js').PlanColumn[] };

export function emptyRowRel(env: Env): Rel {
  const n = node('values', [], [], () => new ConstantOp([[]]));
  return { node: n, scope: new Scope([], env.casing) };
}

/**
 * Bind a FROM list. `pending` are WHERE conjuncts: for comma-separated items, each conjunct that can be
 * evaluated on the items joined so far and touches the new item is used as that join's condition (so
 * `FROM a, b WHERE a.x = b.y` is an equi-join, not a cross product); used conjuncts are removed from `pending`.
 */
export function bindFrom(items: FromItem[], env: Env, bindQuery: QueryBinder, pending: Expr[] = []): Rel {
  if (items.length === 0) return emptyRowRel(env);
  let rel = bindFromItem(items[0]!, env, bindQuery);
  for (let i = 1; i < items.length; i++) {
    const right = bindFromItem(items[i]!, env, bindQuery);
    const lw = rel.scope.width;
    const combined = new Scope([...rel.scope.cols, ...right.scope.cols.map((c) => ({ ...c, idx: c.idx + lw }))], env.casing);
    const use: Expr[] = [];
    for (let j = 0; j < pending.length; j++) {
      const side = sides(pending[j]!, combined, lw);
      if (side === 'B' && resolvesAll(pending[j]!, combined)) {
        use.push(pending[j]!);
        pending.splice(j--, 1);
      }
    }
    const on = use.reduce<Expr | undefined>((acc, c) => (acc ? { k: 'bin', op: 'And', left: acc, right: c, pos: c.pos } : c), undefined);
    rel = joinRels(rel, right, on ? 'INNER' : 'CROSS', on, env, items[i]!.pos);
  }
  return rel;
}

/** Every column of e resolves in scope, and e holds no subquery, window or aggregate call. */
function resolvesAll(e: Expr, scope: Scope): boolean {
  return refsResolve(e, scope, (x) => x.k === 'func' && (Boolean(x.over) || AGG_NAMES.has(x.name)));
}

function bindFromItem(f: FromItem, env: Env, bindQuery: QueryBinder): Rel {
  switch (f.k) {
    case 'table': {
      const r = lookupRelation(env, f.name, f.pos);
      const relName = f.alias ? canon(f.alias, env.casing) : r.name;
      return relFromNamed(r, relName, env.casing);
    }
    case 'derived': {
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
