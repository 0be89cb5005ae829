/**
 * Group windows (Calcite's, as Feldera takes them): `GROUP BY ..., TUMBLE(ts, size [, offset])` or
 * `HOP(ts, slide, size [, offset])`, with `TUMBLE_START/TUMBLE_END(ts, ...)` (`HOP_START/HOP_END`) of the same
 * arguments in the SELECT list and HAVING. Contract: `applyGroupWindow` gives the select and relation to
 * group instead: the rows carry their windows' bounds as two hidden columns (time-windows.ts, the same
 * assignment as `TABLE(TUMBLE(...))`), GROUP BY names those two columns in place of the window, and every
 * *_START/*_END call reads them. One group window per SELECT; a *_START/_END call without its window, or with
 * other arguments, is an error.
 */
import { SqlError, type Expr, type Ident, type Select } from '../parse/ast.js';
import { mk } from '../types/types.js';
import { Scope } from './scope.js';
import { walkExpr, type Env, type Rel } from './env.js';
import { bindExpr } from './expr.js';
import { windowShape, windowsNode } from './time-windows.js';

const WINDOWS = new Set(['TUMBLE', 'HOP']);
const BOUND_FNS: Record<string, { window: string; end: boolean }> = {
  TUMBLE_START: { window: 'TUMBLE', end: false },
  TUMBLE_END: { window: 'TUMBLE', end: true },
  HOP_START: { window: 'HOP', end: false },
  HOP_END: { window: 'HOP', end: true },
};
const START_COL = '$WINDOW_START';
const END_COL = '$WINDOW_END';

type Call = Expr & { k: 'func' };

const isWindow = (e: Expr): e is Call => e.k === 'func' && !e.over && WINDOWS.has(e.name.toUpperCase());

/** Does the SELECT group by a window? */
export function hasGroupWindow(s: Select): boolean {
  return s.groupBy.some(isWindow);
}

export function applyGroupWindow(s: Select, rel: Rel, env: Env): { select: Select; rel: Rel } {
  const windows = s.groupBy.filter(isWindow);
  if (windows.length > 1) throw new SqlError('Only one group window (TUMBLE or HOP) is allowed in a GROUP BY', windows[1]!.pos, 'unsupported');
  const w = windows[0]!;
  const kind = w.name.toUpperCase() as 'TUMBLE' | 'HOP';
  const [tsArg, ...intervals] = w.args;
  if (!tsArg) throw new SqlError(`${kind} needs a time column`, w.pos, 'syntax');
  const ts = bindExpr(tsArg, { scope: rel.scope, session: env.session, clause: 'GROUP BY' });
  if (ts.type.kind !== 'TIMESTAMP' || ts.colIdx === undefined) throw new SqlError(`${kind} in GROUP BY needs a TIMESTAMP column, not ${ts.type.kind}`, tsArg.pos, 'type');
  const shape = windowShape(kind, intervals, { scope: rel.scope, session: env.session, clause: 'GROUP BY' }, w.pos);
  const type = mk('TIMESTAMP', false);
  const width = rel.scope.width;
  const n = windowsNode(env.session, rel.node, ts.colIdx, shape, [
    { name: START_COL, type },
    { name: END_COL, type },
  ]);
  const scope = new Scope([...rel.scope.cols, { name: START_COL, type, idx: width, hidden: true }, { name: END_COL, type, idx: width + 1, hidden: true }], env.casing);
  const ctx = { scope: rel.scope, session: env.session, clause: 'GROUP BY' };
  /** The same window: the same time column (however named) and the same intervals. */
  const sameWindow = (e: Call): boolean => {
    if (!e.args[0] || bindExpr(e.args[0], ctx).colIdx !== ts.colIdx) return false;
    const other = windowShape(kind, e.args.slice(1), ctx, e.pos);
    return other.size === shape.size && other.slide === shape.slide && other.offset === shape.offset;
  };
  const ref = (name: string, at: Expr): Expr => ({ k: 'col', parts: [{ value: name, quoted: true, pos: at.pos } satisfies Ident], pos: at.pos });
  const bound = (e: Expr): Expr | undefined => {
    if (e.k !== 'func' || e.over) return undefined;
    const b = BOUND_FNS[e.name.toUpperCase()];
    if (!b) return undefined;
    if (b.window !== kind || e.args.length !== w.args.length || !sameWindow(e))
      throw new SqlError(`${e.name.toUpperCase()} must have the arguments of the GROUP BY ${kind}(...)`, e.pos, 'unsupported');
    return ref(b.end ? END_COL : START_COL, e);
  };
  const groupBy = s.groupBy.flatMap((g) => (g === w ? [ref(START_COL, g), ref(END_COL, g)] : [g]));
  const select: Select = {
    ...s,
    groupBy,
    items: s.items.map((it) => (it.k === 'expr' ? { ...it, expr: replaceIn(it.expr, bound) } : it)),
    having: s.having && replaceIn(s.having, bound),
  };
  return { select, rel: { node: n, scope } };
}

/** A window bound function outside a query grouped by its window. */
export function refuseStrayBounds(s: Select): void {
  for (const e of [...s.items.flatMap((i) => (i.k === 'expr' ? [i.expr] : [])), ...(s.where ? [s.where] : []), ...(s.having ? [s.having] : [])])
    walkExpr(e, (x) => {
      if (x.k === 'func' && BOUND_FNS[x.name.toUpperCase()]) {
        const b = BOUND_FNS[x.name.toUpperCase()]!;
        throw new SqlError(`${x.name.toUpperCase()} can only be used in a query with GROUP BY ${b.window}(...)`, x.pos, 'unsupported');
      }
    });
}

/** `e` with each sub-expression that `f` replaces replaced (subqueries are left alone: they group on their own). */
function replaceIn(e: Expr, f: (e: Expr) => Expr | undefined): Expr {
  const r = f(e);
  if (r) return r;
  if (e.k === 'subquery' || e.k === 'exists' || e.k === 'insub') return e;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) out[k] = k === 'pos' ? v : replaceValue(v, f);
  return out as unknown as Expr;
}

function replaceValue(v: unknown, f: (e: Expr) => Expr | undefined): unknown {
  if (Array.isArray(v)) return v.map((x) => replaceValue(x, f));
  if (v && typeof v === 'object' && typeof (v as { k?: unknown }).k === 'string' && 'pos' in v) return replaceIn(v as Expr, f);
  if (v && typeof v === 'object' && !('quoted' in v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = replaceValue(x, f);
    return out;
  }
  return v;
}
