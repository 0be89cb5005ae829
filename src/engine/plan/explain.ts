/**
 * EXPLAIN-like text of a plan: one line per node, inputs indented below it, `#id` and the kind, the node's
 * detail (a join's kind and keys, a table's name) and its column names. A node read twice (a DAG: views over
 * views, decorrelated subqueries) is written in full once and as `#id (above)` after that.
 */
import type { PlanNode } from './nodes.js';

export function explain(root: PlanNode): string {
  const lines: string[] = [];
  const seen = new Set<number>();
  const visit = (n: PlanNode, depth: number): void => {
    const pad = '  '.repeat(depth);
    if (seen.has(n.id)) {
      lines.push(`${pad}#${n.id} ${n.kind} (above)`);
      return;
    }
    seen.add(n.id);
    const detail = n.kind === 'table' ? n.table : n.detail;
    lines.push(`${pad}#${n.id} ${n.kind}${detail ? ` ${detail}` : ''} [${n.columns.map((c) => c.name).join(', ')}]`);
    for (const i of n.inputs) visit(i, depth + 1);
  };
  visit(root, 0);
  return lines.join('\n');
}
