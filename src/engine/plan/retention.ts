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
 * - Every path from the table to the outputs may pass only operators without state (projections, filters,
 *   TUMBLE/HOP, UNNEST, UNION ALL) and at most one aggregate or DISTINCT, which must release its groups (rows)
 *   by a lineage of this table's LATENESS columns, with only such stateless operators after it. A join, DISTINCT, a window
 *   function and the like keep state of their own that a rebuild would need the rows for: such a table keeps
 *   every row.
 * - A row goes once it cannot be in any group still open: for each such aggregate, one of the columns it
 *   releases by has `value + horizon <= waterline`, where horizon is the largest slack of that column's
 *   lineages in the aggregate's release keys and its input's columns (a window's start counts its size, so the
 *   window of any value derived from the row is final by then: plan/waterline.ts). With no aggregate, once a
 *   LATENESS column's value is behind its waterline (the row is late: no change can reach it). Pure.
 */
import type { PlanNode } from './nodes.js';

/** The columns of which one must be behind its waterline by its horizon (one list per releasing aggregate). */
export interface RetentionRule {
  /** Each: any of these (column, horizon) pairs lets the row go; every list must be satisfied. */
  all: Array<Array<{ col: number; horizon: number }>>;
}

const STATELESS = new Set<PlanNode['kind']>(['map', 'filter', 'tumble', 'hop', 'union', 'unnest']);

interface TableLike {
  name: string;
  node: PlanNode;
  pk: number[];
  declaredMaterialized: boolean;
  lateness: Map<number, number>;
}

/** The retention rule of each table that may forget rows (absent: it keeps them all). */
export function retentionRules(tables: TableLike[], nodes: PlanNode[]): Map<string, RetentionRule> {
  const consumers = new Map<number, PlanNode[]>();
  for (const n of nodes) for (const i of n.inputs) (consumers.get(i.id) ?? consumers.set(i.id, []).get(i.id)!).push(n);
  /** Whether only stateless operators follow `from`. */
  const statelessAfter = (from: PlanNode): boolean => {
    const stack = [...(consumers.get(from.id) ?? [])];
    const seen = new Set<number>();
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n.id)) continue;
      seen.add(n.id);
      if (!STATELESS.has(n.kind)) return false;
      stack.push(...(consumers.get(n.id) ?? []));
    }
    return true;
  };

  const rules = new Map<string, RetentionRule>();
  for (const t of tables) {
    if (t.pk.length || t.declaredMaterialized || !t.lateness.size) continue;
    const all: RetentionRule['all'] = [];
    let ok = true;
    const stack = [...(consumers.get(t.node.id) ?? [])];
    const seen = new Set<number>();
    while (stack.length && ok) {
      const n = stack.pop()!;
      if (seen.has(n.id)) continue;
      seen.add(n.id);
      if (STATELESS.has(n.kind)) {
        stack.push(...(consumers.get(n.id) ?? []));
        continue;
      }
      if (n.kind !== 'aggregate' && n.kind !== 'distinct') {
        ok = false;
        break;
      }
      // the aggregate's horizon for a column: its own release lineage's slack, or a lineage of its input's (a window's
      // start counts the window's size: a group keyed by the window's end is final then too)
      const lineageSlack = (col: number): number =>
        Math.max(
          1,
          ...(n.releases ?? []).filter((w) => w.table === t.name && w.col === col).map((w) => w.slack),
          ...n.inputs[0]!.columns.flatMap((c) => (c.wm && c.wm.table === t.name && c.wm.col === col ? [c.wm.slack] : [])),
        );
      const cols = (n.releases ?? []).filter((w) => w.table === t.name && t.lateness.has(w.col)).map((w) => ({ col: w.col, horizon: lineageSlack(w.col) }));
      if (!cols.length || !statelessAfter(n)) ok = false;
      else all.push(cols);
    }
    if (!ok) continue;
    if (!all.length) all.push([...t.lateness.keys()].map((col) => ({ col, horizon: 1 })));
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

/** Whether a row of a table with this rule may go, given the table's watermarks. */
export function mayForget(rule: RetentionRule, row: ReadonlyArray<unknown>, watermark: (col: number) => number | undefined): boolean {
  for (const any of rule.all) {
    let one = false;
    for (const { col, horizon } of any) {
      const v = row[col];
      const wm = watermark(col);
      if (typeof v === 'number' && wm !== undefined && v + horizon <= wm) {
        one = true;
        break;
      }
    }
    if (!one) return false;
  }
  return true;
}
