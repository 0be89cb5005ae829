/**
 * Bounded state: which tables may forget their rows behind the LATENESS waterline, and when a row may go.
 *
 * A table's integrated rows are read for three things: snapshots and ad-hoc queries of the table, and the
 * rebuild of the operators after a refused step or from a checkpoint (circuit.ts: each operator's state is a
 * function of the tables' rows, released to the waterlines). A table may forget a row when none of these
 * needs it any more. Rules:
 * - Only a table with LATENESS, no primary key (a key's old row is needed to replace it) and not declared
 *   materialized (WITH ('materialized' = 'true') promises ad-hoc queries of all of it) qualifies; its own
 *   snapshot is then refused (RelationSchema.materialized false), as Feldera reads only materialized tables.
 * - Every operator with state that the table's rows reach, on every path to the outputs, must release its
 *   state by a lineage of one of the table's LATENESS columns: an aggregate or DISTINCT (its groups, rows),
 *   or a join on keys fed by LATENESS columns on both sides (a key once final on both), or an inner join with a
 *   band condition on the row's side (bind/join-bands.ts: `x >= y + c`, y of the other side with a lineage). Operators without state
 *   (projections, filters, TUMBLE/HOP, UNNEST, UNION ALL) pass rows on. Any other operator (a join on other
 *   keys, a window function, TOP-K, a temporal filter, ...) keeps state a rebuild would need the rows for: the
 *   table then keeps every row.
 * - A row goes once every such operator has released what it made of it: for an aggregate or DISTINCT, one
 *   of its release columns has `value + horizon <= waterline`, horizon the largest slack of that column's
 *   lineages in its release keys and its input's columns (a window's start counts its size, so the window of
 *   any value derived from the row is final by then: plan/waterline.ts); for a join, the same on the row's side
 *   and, on the other side's table, `value + horizon + that side's slack <= its waterline` (the key derived
 *   from the row is at most value + horizon). For a band, on the other side's table, `value + H + its slack - c <= its
 *   waterline`, H the largest slack of any lineage of the row's column in the plan (so a window end counts). With no such operator, once a LATENESS column's value is behind
 *   its waterline (the row is late: no change can reach it). Pure.
 */
import type { PlanNode, Watermarked } from './nodes.js';

/** `row[value] + horizon <= the watermark of (table, col)`. */
export interface RetentionCondition {
  table: string;
  col: number;
  value: number;
  horizon: number;
}

/** Every list must have one condition met (an AND of ORs). */
export interface RetentionRule {
  all: RetentionCondition[][];
}

const STATELESS = new Set<PlanNode['kind']>(['map', 'filter', 'tumble', 'hop', 'union', 'unnest']);

interface TableLike {
  name: string;
  node: PlanNode;
  pk: number[];
  declaredMaterialized: boolean;
  lateness: Map<number, number>;
}

/** The largest slack of a lineage of (table, col) in `ws` and in the columns of `input`, at least 1. */
function horizonOf(table: string, col: number, ws: Watermarked[], input: PlanNode): number {
  let h = 1;
  for (const w of ws) if (w.table === table && w.col === col) h = Math.max(h, w.slack);
  for (const c of input.columns) if (c.wm && c.wm.table === table && c.wm.col === col) h = Math.max(h, c.wm.slack);
  return h;
}

/** The conditions an operator with state puts on a row of `t` reaching it through input `via`; null: it keeps what it got. */
function conditionsOf(n: PlanNode, via: number, t: TableLike, all: PlanNode[]): RetentionCondition[][] | null {
  if (n.kind === 'aggregate' || n.kind === 'distinct') {
    const ws = n.releases ?? [];
    const any = ws.filter((w) => w.table === t.name && t.lateness.has(w.col)).map((w) => ({ table: t.name, col: w.col, value: w.col, horizon: horizonOf(t.name, w.col, ws, n.inputs[0]!) }));
    return any.length ? [any] : null;
  }
  if (n.kind === 'join') {
    const side = via === 0 ? 'left' : 'right';
    const other = via === 0 ? 'right' : 'left';
    const bands = bandConditions(n, via, t, all);
    const pair = (n.releases ?? []).find((p) => p[side].table === t.name && t.lateness.has(p[side].col));
    if (!pair) return bands.length ? [bands] : null;
    const mine = pair[side];
    const h = horizonOf(t.name, mine.col, [mine], n.inputs[via]!);
    // released by its key (final on both sides) or by a band: (A and B) or C = (A or C) and (B or C)
    return [
      [{ table: t.name, col: mine.col, value: mine.col, horizon: h }, ...bands],
      [{ table: pair[other].table, col: pair[other].col, value: mine.col, horizon: h + Math.max(0, pair[other].slack) }, ...bands],
    ];
  }
  return null;
}

/**
 * A join's band conditions (bind/join-bands.ts) on the side of input `via`, as conditions on a row of `t`: the
 * join releases its row once the band column is at most W - slack + offset (W the other side's watermark). The
 * band column is a value derived from the row's LATENESS column, at most that value plus the largest slack of
 * any lineage of it in the plan (a window's end is at most its start's slack past the row's time).
 */
function bandConditions(n: PlanNode & { kind: 'join' }, via: number, t: TableLike, all: PlanNode[]): RetentionCondition[] {
  const side = via === 0 ? 'left' : 'right';
  const out: RetentionCondition[] = [];
  for (const b of n.bands ?? []) {
    if (b.side !== side) continue;
    const x = n.inputs[via]!.columns[b.col]?.wm;
    if (!x || x.table !== t.name || !t.lateness.has(x.col)) continue;
    let h = 1;
    for (const m of all) for (const c of m.columns) if (c.wm && c.wm.table === t.name && c.wm.col === x.col) h = Math.max(h, c.wm.slack);
    out.push({ table: b.other.table, col: b.other.col, value: x.col, horizon: h + b.other.slack - b.offset });
  }
  return out;
}

/** The retention rule of each table that may forget rows (absent: it keeps them all). */
export function retentionRules(tables: TableLike[], nodes: PlanNode[]): Map<string, RetentionRule> {
  const consumers = new Map<number, Array<{ node: PlanNode; via: number }>>();
  for (const n of nodes) n.inputs.forEach((i, via) => (consumers.get(i.id) ?? consumers.set(i.id, []).get(i.id)!).push({ node: n, via }));

  const rules = new Map<string, RetentionRule>();
  for (const t of tables) {
    if (t.pk.length || t.declaredMaterialized || !t.lateness.size) continue;
    const all: RetentionRule['all'] = [];
    let ok = true;
    const stack = [...(consumers.get(t.node.id) ?? [])];
    const seen = new Set<string>();
    while (stack.length && ok) {
      const { node: n, via } = stack.pop()!;
      const key = `${n.id}:${via}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!STATELESS.has(n.kind)) {
        const conds = conditionsOf(n, via, t, nodes);
        if (!conds) {
          ok = false;
          break;
        }
        all.push(...conds);
      }
      stack.push(...(consumers.get(n.id) ?? []));
    }
    if (!ok) continue;
    if (!all.length) all.push([...t.lateness.keys()].map((col) => ({ table: t.name, col, value: col, horizon: 1 })));
    rules.set(t.name, { all });
  }
  return rules;
}

/** Every node the roots reach, inputs first by id (the circuit's order). */
export function planNodes(roots: PlanNode[]): PlanNode[] {
  const all = new Map<number, PlanNode>();
  const visit = (n: PlanNode): void => {
    if (all.has(n.id)) return;
    all.set(n.id, n);
    n.inputs.forEach(visit);
  };
  roots.forEach(visit);
  return [...all.values()].sort((a, b) => a.id - b.id);
}

/** Whether a row of a table with this rule may go, given the tables' watermarks. */
export function mayForget(rule: RetentionRule, row: ReadonlyArray<unknown>, watermark: (table: string, col: number) => number | undefined): boolean {
  for (const any of rule.all) {
    let one = false;
    for (const { table, col, value, horizon } of any) {
      const v = row[value];
      const wm = watermark(table, col);
      if (typeof v === 'number' && wm !== undefined && v + horizon <= wm) {
        one = true;
        break;
      }
    }
    if (!one) return false;
  }
  return true;
}
