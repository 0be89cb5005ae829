/**
 * The plan: a DAG of nodes, each a relation with a schema and a factory for its Z-set operator. Nodes are
 * created inputs-first, so ascending ids are a topological order. Views over views share nodes.
 */
import type { SqlType } from '../types/types.js';
import type { Operator } from '../ops/zset.js';

export interface PlanColumn {
  /** Canonical (output) name. */
  name: string;
  type: SqlType;
  /** Watermark lineage: values of this column come from a LATENESS column; a value v can no longer
   *  change once v + slack <= the watermark of that table column. */
  wm?: Watermarked;
}

export interface Watermarked {
  table: string;
  col: number;
  slack: number;
}

export interface PlanNode {
  id: number;
  kind: string;
  inputs: PlanNode[];
  columns: PlanColumn[];
  /** Fresh operator with empty state; undefined for table sources (fed by the circuit). */
  make?: () => Operator;
  /** Source table name (canonical), for kind 'table'. */
  table?: string;
}

let nextId = 1;

export function node(kind: string, inputs: PlanNode[], columns: PlanColumn[], make?: () => Operator): PlanNode {
  return { id: nextId++, kind, inputs, columns, make };
}
