/**
 * Top-k of window ranks. A window node with a single ROW_NUMBER/RANK/DENSE_RANK whose only reader is a
 * filter keeping ranks <= k (reached through projections and filters that nobody else reads, and that are
 * not outputs themselves) gets `rankLimit = k`: its operator then keeps a top-k per partition
 * (ops/rank-topk.ts) instead of re-evaluating whole partitions. The filter stays, so the view's rows are
 * the same either way.
 */
import type { PlanNode } from './nodes.js';

export function limitRanks(outputs: PlanNode[]): void {
  const readers = new Map<PlanNode, Set<PlanNode>>();
  const seen = new Set<PlanNode>();
  const visit = (n: PlanNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const i of n.inputs) {
      let r = readers.get(i);
      if (!r) {
        r = new Set();
        readers.set(i, r);
      }
      r.add(n);
      visit(i);
    }
  };
  outputs.forEach(visit);
  const isOutput = new Set(outputs);
  const onlyRead = (n: PlanNode): boolean => !isOutput.has(n) && readers.get(n)?.size === 1;
  for (const f of seen) {
    if (f.kind !== 'filter' || !f.atMost) continue;
    for (const { col, max } of f.atMost) {
      let n: PlanNode = f.inputs[0];
      let c: number | undefined = col;
      while (c !== undefined && (n.kind === 'map' || n.kind === 'filter') && onlyRead(n)) {
        if (n.kind === 'map') c = n.passthrough[c];
        n = n.inputs[0];
      }
      if (c === undefined || n.kind !== 'window' || n.rankCol !== c || !onlyRead(n)) continue;
      n.rankLimit = Math.min(n.rankLimit ?? Number.POSITIVE_INFINITY, max);
    }
  }
}
