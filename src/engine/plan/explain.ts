/**
 * EXPLAIN-like text of a plan: one line per node, inputs indented below it, `#id` and the kind, the node's
 * detail (a join's kind and keys, a table's name) and its column names. A node read twice (a DAG: views over
 * views, decorrelated subqueries) is written in full once and as `#id (above)` after that.
 */
import { assertNever, type PlanNode } from './nodes.js';

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
    const d = detail(n);
    lines.push(`${pad}#${n.id} ${n.kind}${d ? ` ${d}` : ''} [${n.columns.map((c) => c.name).join(', ')}]`);
    for (const i of n.inputs) visit(i, depth + 1);
  };
  visit(root, 0);
  return lines.join('\n');
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** What a node shows besides its kind and columns. */
function detail(n: PlanNode): string {
  switch (n.kind) {
    case 'table':
      return n.table;
    case 'join':
      if (n.lateral) return `LATERAL${n.lateral === 'aggregate' ? ' aggregate' : ''} on ${plural(n.keys, 'outer value')}`;
      return `${n.join}${n.keys ? ` on ${plural(n.keys, 'key')}` : ''}${n.residual ? ' + condition' : ''}`;
    case 'temporal':
      return `${plural(n.bounds, 'bound')} over NOW()`;
    case 'semijoin':
      return n.mode;
    case 'aggregate':
      return n.groupKeys ? `by ${plural(n.groupKeys, 'key')}` : 'global';
    case 'except':
    case 'intersect':
      return n.all ? 'all' : '';
    case 'topk':
      return `limit ${n.limit}${n.offset ? ` offset ${n.offset}` : ''}`;
    case 'unnest':
      if (n.of === 'values') return `LATERAL VALUES of ${plural(n.args, 'row')}`;
      return `${n.args} ${n.of}${n.ordinality ? ' with ordinality' : ''}`;
    case 'session':
      return plural(n.keys, 'key column');
    case 'asof':
      return `LEFT ASOF on ${plural(n.keys, 'key')}`;
    case 'window':
      return n.rankLimit !== undefined ? `top ${n.rankLimit}` : '';
    case 'filter':
      return n.atMost ? n.atMost.map((a) => `#${a.col} <= ${a.max}`).join(', ') : '';
    case 'now':
    case 'values':
    case 'map':
    case 'markjoin':
    case 'distinct':
    case 'union':
    case 'tumble':
    case 'hop':
      return '';
    default:
      return assertNever(n);
  }
}
