/**
 * The plan: a DAG of nodes, each a relation with a schema. A node is one of the kinds below (a discriminated
 * union on `kind`, each kind with exactly its own fields), so later stages (the circuit, plan/rank-limit.ts,
 * plan/explain.ts) switch over kinds and the type checker reports a kind they forget (`assertNever`).
 * Every kind but 'table' and 'now' carries a factory for its Z-set operator. Ids count from 1 in each compile and nodes
 * are created inputs-first, so ascending ids are a topological order. Views over views share nodes.
 */
import type { SqlType } from '../types/types.js';
import type { Operator } from '../ops/zset.js';
import type { Watermarked } from './waterline.js';

export type { Watermarked };

export interface PlanColumn {
  /** Canonical (output) name. */
  name: string;
  type: SqlType;
  /** Watermark lineage: values of this column come from a LATENESS column; a value v can no longer
   *  change once v + slack <= the watermark of that table column. */
  wm?: Watermarked;
}

interface Base {
  id: number;
  columns: PlanColumn[];
}

/** A node computed by an operator; `make` gives a fresh one with empty state. */
interface Computed extends Base {
  make: () => Operator;
}

/** A table input, fed by the circuit. */
export interface TableNode extends Base {
  kind: 'table';
  inputs: [];
  /** Canonical table name. */
  table: string;
}

/**
 * The clock: one row, one column NOW (TIMESTAMP NOT NULL), the value of NOW() for the step, fed by the circuit
 * from its injected clock (CircuitOptions.clock). No row until the first step. One per compile (bind/now.ts).
 */
export interface NowNode extends Base {
  kind: 'now';
  inputs: [];
}

/** Constant rows (VALUES, the one empty row of a FROM-less SELECT). */
export interface ValuesNode extends Computed {
  kind: 'values';
  inputs: [];
}

/** Projection. */
export interface MapNode extends Computed {
  kind: 'map';
  inputs: [PlanNode];
  /** The input column each output column copies, where it is a plain column reference. */
  passthrough: Array<number | undefined>;
}

export interface FilterNode extends Computed {
  kind: 'filter';
  inputs: [PlanNode];
  /** Conjuncts `column <= max` (max an integer) that every passing row satisfies. */
  atMost?: Array<{ col: number; max: number }>;
}

export type JoinKind = 'INNER' | 'CROSS' | 'LEFT' | 'RIGHT' | 'FULL';

export interface JoinNode extends Computed {
  kind: 'join';
  inputs: [PlanNode, PlanNode];
  join: JoinKind;
  /** Number of equality keys (0: every pair of rows meets). */
  keys: number;
  /** A condition beyond the keys is evaluated on each pair. */
  residual: boolean;
  /** A LATERAL subquery joined back to its outer rows on their values (bind/lateral.ts); 'aggregate': one
   *  row per outer row. */
  lateral?: 'subquery' | 'aggregate';
  /** Key pairs fed by LATENESS lineages on both sides: its operator releases a key once final on both (ops/join.ts). */
  releases?: Array<{ left: Watermarked; right: Watermarked }>;
  /** Band conditions by which its operator releases rows of one side that can meet no future change (bind/join-bands.ts). */
  bands?: JoinBandRelease[];
}

/** Rows of `side` whose column `col` is at most watermark(other) - other.slack + offset meet no future change of the other side. */
export interface JoinBandRelease {
  side: 'left' | 'right';
  col: number;
  other: Watermarked;
  offset: number;
}

/**
 * A temporal filter (ops/temporal-filter.ts): the rows of the first input whose key passes `bounds` comparisons
 * with expressions of NOW(); the second input is the clock (NowNode).
 */
export interface TemporalNode extends Computed {
  kind: 'temporal';
  inputs: [PlanNode, PlanNode];
  bounds: number;
}

/** Decorrelated [NOT] IN / EXISTS in an expression: the left row plus a TRUE/FALSE/NULL column. */
export interface MarkJoinNode extends Computed {
  kind: 'markjoin';
  inputs: [PlanNode, PlanNode];
}

/** Semi-join (IN, EXISTS), anti-join (NOT EXISTS) or NOT IN with its NULL rules: keeps left rows. */
export interface SemiJoinNode extends Computed {
  kind: 'semijoin';
  inputs: [PlanNode, PlanNode];
  mode: 'semi' | 'anti' | 'notin';
}

export interface AggregateNode extends Computed {
  kind: 'aggregate';
  inputs: [PlanNode];
  /** Number of grouping keys; 0 is a global aggregate (one row, also over no rows). */
  groupKeys: number;
  /** The LATENESS lineages by which its operator releases closed groups (none: it keeps every group). */
  releases?: Watermarked[];
}

export interface DistinctNode extends Computed {
  kind: 'distinct';
  inputs: [PlanNode];
  /** The LATENESS lineages by which its operator releases rows that can change no more (none: it keeps every row). */
  releases?: Watermarked[];
}

/** UNION ALL (UNION is a distinct over it). */
export interface UnionNode extends Computed {
  kind: 'union';
  inputs: [PlanNode, PlanNode];
}

export interface SetOpNode extends Computed {
  kind: 'except' | 'intersect';
  inputs: [PlanNode, PlanNode];
  all: boolean;
}

/** ORDER BY ... LIMIT over the whole relation. */
export interface TopKNode extends Computed {
  kind: 'topk';
  inputs: [PlanNode];
  limit: number;
  offset: number;
}

/** Window functions of one PARTITION BY / ORDER BY. */
export interface WindowNode extends Computed {
  kind: 'window';
  inputs: [PlanNode];
  /** With a single ROW_NUMBER/RANK/DENSE_RANK: the column that holds it. */
  rankCol?: number;
  /** Set by plan/rank-limit.ts when every reader keeps only ranks <= limit. */
  rankLimit?: number;
}

/** UNNEST: each row with the elements of its arrays (or the entries of its map). */
export interface UnnestNode extends Computed {
  kind: 'unnest';
  inputs: [PlanNode];
  /** 'arrays': several zipped; 'values': a LATERAL (VALUES ...) over each row (args = its number of rows). */
  of: 'array' | 'arrays' | 'map' | 'values';
  args: number;
  ordinality: boolean;
}

/** SESSION windows: per key, the sessions of its rows. */
export interface SessionNode extends Computed {
  kind: 'session';
  inputs: [PlanNode];
  /** Number of key columns. */
  keys: number;
}

/** LEFT ASOF JOIN: each left row with its closest earlier right row of the same key (ops/asof-join.ts). */
export interface AsofJoinNode extends Computed {
  kind: 'asof';
  inputs: [PlanNode, PlanNode];
  /** Number of ON equalities. */
  keys: number;
}

/** TUMBLE / HOP: each row with its window bounds. */
export interface TimeWindowNode extends Computed {
  kind: 'tumble' | 'hop';
  inputs: [PlanNode];
}

export type PlanNode =
  | TableNode
  | NowNode
  | ValuesNode
  | MapNode
  | FilterNode
  | TemporalNode
  | JoinNode
  | MarkJoinNode
  | SemiJoinNode
  | AggregateNode
  | DistinctNode
  | UnionNode
  | SetOpNode
  | TopKNode
  | WindowNode
  | UnnestNode
  | SessionNode
  | AsofJoinNode
  | TimeWindowNode;

export type PlanKind = PlanNode['kind'];

/** The fields of a new node of one kind: everything but its id. */
export type NewNode = PlanNode extends infer N ? (N extends PlanNode ? Omit<N, 'id'> : never) : never;

/** For the default branch of a switch over kinds: a kind left out fails to type-check. */
export function assertNever(n: never): never {
  throw new Error(`unknown plan node ${JSON.stringify((n as { kind?: unknown }).kind)}`);
}
