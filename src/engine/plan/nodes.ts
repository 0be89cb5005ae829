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
  /** 'map': the input column each output column copies, where it is a plain column reference. */
  passthrough?: Array<number | undefined>;
  /** 'filter': conjuncts `column <= max` (max an integer) that every passing row satisfies. */
  atMost?: Array<{ col: number; max: number }>;
  /** 'window' with a single ROW_NUMBER/RANK/DENSE_RANK: the column that holds it. */
  rankCol?: number;
  /** 'window': set by plan/rank-limit.ts when every reader keeps only ranks <= limit. */
  rankLimit?: number;
  /** What plan/explain.ts shows besides the kind, e.g. a join's kind and number of keys. */
  detail?: string;
}

let nextId = 1;

/** Ids count from 1 in each compile (compiling is synchronous, so compiles do not interleave). */
export function resetPlanIds(): void {
  nextId = 1;
}

export function node(kind: string, inputs: PlanNode[], columns: PlanColumn[], make?: () => Operator): PlanNode {
  return { id: nextId++, kind, inputs, columns, make };
}
