/**
 * Temporal filters guarding aggregates (Feldera's AggregateNowFilterRule): `COUNT(*) FILTER (WHERE ts >=
 * NOW() - INTERVAL 1 DAY)`, `SUM(x) FILTER (WHERE ts BETWEEN NOW() - ... AND NOW() AND x > 0)`, and the same
 * written `COUNT(CASE WHEN ts >= NOW() - INTERVAL 1 DAY THEN 1 END)`. Such a call is
 * computed by an aggregate over the temporally filtered rows (bind/now.ts temporalFilters, ops/temporal-
 * filter.ts), its FILTER keeping only the conditions without NOW(); the calls sharing one temporal condition
 * share that aggregate. The other calls form the "anchor" aggregate over all rows, which gives the set of
 * groups; each filtered aggregate is LEFT-joined to it on the group keys (NULL keys match: IS NOT DISTINCT
 * FROM), a group without rows that pass giving COUNT 0 and NULL for the others. A clock move then costs the
 * rows crossing the window's edges and the groups they touch, not a pass over every row.
 *
 * Only COUNT, SUM, AVG, MIN and MAX are moved (their value over no rows is 0 or NULL), and only when their
 * arguments do not read NOW() and every NOW() of the FILTER is in a temporal conjunct; others read NOW()
 * through the clock joined to the rows (bind/now.ts attachNow).
 */
import type { Expr } from '../parse/ast.js';
import { type PlanColumn, type PlanNode } from '../plan/nodes.js';
import { AggregateOp, type AggSpec } from '../ops/aggregate.js';
import { JoinOp } from '../ops/join.js';
import { MapOp } from '../ops/linear.js';
import { rowKey, type Row, type Value } from '../types/values.js';
import { conjuncts, type Env, type Rel } from './env.js';
import { AGG_NAMES, exprKey } from './expr.js';
import { containsNow, temporalConjunct, temporalFilters } from './now.js';
import type { Scope } from './scope.js';
import type { CompileSession } from './compile-session.js';

const MOVABLE = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);

/** An aggregate call whose FILTER holds temporal conjuncts: those, and the call with the rest as its FILTER. */
export interface TemporalCall {
  /** exprKey of the temporal conjuncts: calls with the same share one filtered aggregate. */
  signature: string;
  temporal: Expr[];
  /** The call with a FILTER of the other conjuncts (none: no FILTER). */
  rest: Expr & { k: 'func' };
}

/**
 * `AGG(CASE WHEN c THEN x END) [FILTER (WHERE f)]` as `AGG(x) FILTER (WHERE [f AND] c)`: the same value for the
 * aggregates moved here, which skip NULLs (COUNT of an expression, SUM, AVG, MIN, MAX; CASE and FILTER both
 * take only a TRUE condition). Other calls as they are.
 */
function caseAsFilter(e: Expr & { k: 'func' }): Expr & { k: 'func' } {
  const a = e.args[0];
  if (e.star || e.args.length !== 1 || a?.k !== 'case' || a.operand || a.whens.length !== 1 || (a.else && a.else.k !== 'null')) return e;
  const { cond, result } = a.whens[0]!;
  return { ...e, args: [result], filter: e.filter ? { k: 'bin', op: 'And', left: e.filter, right: cond, pos: cond.pos } : cond };
}

/** The call as a TemporalCall, or null when it is not one. */
export function temporalCall(call: Expr, scope: Scope, session: CompileSession): TemporalCall | null {
  if (call.k !== 'func' || call.over || !AGG_NAMES.has(call.name) || !MOVABLE.has(call.name)) return null;
  const e = caseAsFilter(call);
  if (!e.filter) return null;
  if (e.args.some((a) => containsNow(a)) || e.orderBy?.some((o) => containsNow(o.expr))) return null;
  const temporal: Expr[] = [];
  const rest: Expr[] = [];
  for (const c of conjuncts(e.filter)) {
    if (!containsNow(c)) rest.push(c);
    else if (temporalConjunct(c, scope, session)) temporal.push(c);
    else return null;
  }
  if (!temporal.length) return null;
  const filter = rest.reduce<Expr | undefined>((a, c) => (a ? { k: 'bin', op: 'And', left: a, right: c, pos: c.pos } : c), undefined);
  return { signature: temporal.map((c) => exprKey(c, scope)).join('\u0000'), temporal, rest: { ...e, filter } };
}

/** Where a call's value is read from in the joined row, and whether a missing one is COUNT's 0. */
interface Slot {
  at: number;
  zero: boolean;
}

/**
 * The grouped (or global) aggregate of `calls` over `rel` as one node with the columns `columns` (group keys,
 * then the calls' values), the temporal calls (`temporal`, by call index) computed over their filtered rows
 * and joined to the anchor as the header says. `specs[i]` is call i bound (a temporal one: its `rest`).
 */
export function temporalAggregate(
  rel: Rel,
  env: Env,
  keyFns: Array<(row: Row) => Value>,
  calls: Expr[],
  specs: AggSpec[],
  temporal: Map<number, TemporalCall>,
  columns: PlanColumn[],
  global: boolean,
  gc: ConstructorParameters<typeof AggregateOp>[3],
): PlanNode {
  const nG = keyFns.length;
  const keyCols = columns.slice(0, nG);
  const aggregate = (input: PlanNode, idx: number[]): PlanNode =>
    env.session.node({
      kind: 'aggregate',
      inputs: [input],
      columns: [...keyCols, ...idx.map((i) => columns[nG + i]!)],
      make: () =>
        new AggregateOp(
          keyFns,
          idx.map((i) => specs[i]!),
          global,
          gc,
        ),
      groupKeys: nG,
    });
  const slots: Slot[] = new Array(calls.length);
  const anchorIdx = calls.map((_, i) => i).filter((i) => !temporal.has(i));
  anchorIdx.forEach((i, j) => (slots[i] = { at: nG + j, zero: false }));
  let cur = aggregate(rel.node, anchorIdx);
  const groupKey = nG === 0 ? () => '' : (row: Row) => rowKey(row.slice(0, nG));
  const bySignature = new Map<string, number[]>();
  for (const [i, t] of temporal) bySignature.set(t.signature, [...(bySignature.get(t.signature) ?? []), i]);
  for (const idx of bySignature.values()) {
    const pending = [...temporal.get(idx[0]!)!.temporal];
    const filtered = aggregate(temporalFilters(rel.node, pending, rel.scope, env), idx);
    const leftWidth = cur.columns.length;
    idx.forEach((i, j) => (slots[i] = { at: leftWidth + nG + j, zero: calls[i]!.k === 'func' && (calls[i] as Expr & { k: 'func' }).name === 'COUNT' }));
    cur = env.session.node({
      kind: 'join',
      inputs: [cur, filtered],
      columns: [...cur.columns, ...filtered.columns],
      make: () => new JoinOp({ leftOuter: true, rightOuter: false, leftKey: groupKey, rightKey: groupKey, leftWidth, rightWidth: nG + idx.length }),
      join: 'LEFT',
      keys: nG,
      residual: false,
    });
  }
  const reads = slots.map((s) => s.at);
  const zeros = slots.map((s) => s.zero);
  const fns = [...keyCols.map((_, g) => (row: Row) => row[g]!), ...reads.map((at, i) => (zeros[i] ? (row: Row) => row[at] ?? 0 : (row: Row) => row[at]!))];
  return env.session.node({ kind: 'map', inputs: [cur], columns, make: () => new MapOp(fns), passthrough: [...keyCols.map((_, g) => g), ...reads.map((at, i) => (zeros[i] ? undefined : at))] });
}
