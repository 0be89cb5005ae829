/** The engine's own typed syntax tree. The parser adapter (adapter.ts) produces it; nothing else sees the parser's JSON. */

export interface Pos {
  line: number;
  column: number;
}

export interface Ident {
  value: string;
  quoted: boolean;
  pos: Pos;
}

export type Expr =
  | { k: 'col'; parts: Ident[]; pos: Pos }
  | { k: 'num'; text: string; pos: Pos }
  | { k: 'str'; value: string; pos: Pos }
  | { k: 'bool'; value: boolean; pos: Pos }
  | { k: 'null'; pos: Pos }
  | { k: 'typed'; type: unknown; value: string; pos: Pos }
  | { k: 'interval'; value: Expr; unit: string; lastUnit?: string; pos: Pos }
  | { k: 'bin'; op: string; left: Expr; right: Expr; pos: Pos }
  | { k: 'un'; op: 'NOT' | 'NEG' | 'PLUS'; expr: Expr; pos: Pos }
  | { k: 'is'; what: 'NULL' | 'NOT NULL' | 'UNKNOWN' | 'NOT UNKNOWN' | 'TRUE' | 'NOT TRUE' | 'FALSE' | 'NOT FALSE' | 'DISTINCT' | 'NOT DISTINCT'; expr: Expr; other?: Expr; pos: Pos; symbol?: '<=>' }
  | { k: 'between'; not: boolean; symmetric?: boolean; expr: Expr; low: Expr; high: Expr; pos: Pos }
  | { k: 'inlist'; not: boolean; expr: Expr; list: Expr[]; pos: Pos }
  | { k: 'insub'; not: boolean; expr: Expr; query: Query; pos: Pos }
  | { k: 'exists'; not: boolean; query: Query; pos: Pos }
  | { k: 'subquery'; query: Query; pos: Pos }
  | { k: 'like'; not: boolean; ilike: boolean; expr: Expr; pattern: Expr; escape?: string; pos: Pos }
  | { k: 'case'; operand?: Expr; whens: { cond: Expr; result: Expr }[]; else?: Expr; pos: Pos }
  | { k: 'cast'; expr: Expr; type: unknown; pos: Pos; safe?: boolean }
  | { k: 'func'; name: string; args: Expr[]; star: boolean; distinct: boolean; filter?: Expr; over?: WindowSpec; orderBy?: OrderItem[]; ignoreNulls?: boolean; pos: Pos }
  | { k: 'extract'; field: string; expr: Expr; pos: Pos }
  | { k: 'array'; elems: Expr[]; pos: Pos }
  | { k: 'index'; expr: Expr; index: Expr; pos: Pos }
  /** `(expr).name`: a field of a ROW value. */
  | { k: 'field'; expr: Expr; name: Ident; pos: Pos }
  | { k: 'descriptor'; cols: Ident[]; pos: Pos }
  | { k: 'lambda'; params: Ident[]; body: Expr; pos: Pos };

export interface OrderItem {
  expr: Expr;
  asc: boolean;
  nullsFirst?: boolean;
}

export interface FrameBound {
  kind: 'UNBOUNDED_PRECEDING' | 'PRECEDING' | 'CURRENT' | 'FOLLOWING' | 'UNBOUNDED_FOLLOWING';
  offset?: Expr;
}

export interface WindowSpec {
  partitionBy: Expr[];
  orderBy: OrderItem[];
  frame?: { units: 'ROWS' | 'RANGE'; start: FrameBound; end: FrameBound };
}

export type SelectItem = { k: 'expr'; expr: Expr; alias?: Ident; pos: Pos } | { k: 'star'; qualifier?: Ident[]; pos: Pos };

export type JoinKind = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS';

export type FromItem =
  | { k: 'table'; name: Ident[]; alias?: Ident; pos: Pos }
  | { k: 'derived'; query: Query; alias?: Ident; columnAliases: Ident[]; lateral?: boolean; pos: Pos }
  /** UNNEST(array-or-map, ...) [WITH ORDINALITY]: lateral, it may read columns of the FROM items before it. */
  | { k: 'unnest'; exprs: Expr[]; ordinality: boolean; alias?: Ident; columnAliases: Ident[]; pos: Pos }
  | { k: 'tvf'; name: string; args: Expr[]; alias?: Ident; pos: Pos }
  /** source PIVOT (agg [AS alias], ... FOR col | (cols) IN (value [AS alias], ...)) [AS alias] (bind/pivot.ts). */
  | {
      k: 'pivot';
      source: FromItem;
      aggs: Array<{ expr: Expr; alias?: Ident }>;
      forCols: Expr[];
      values: Array<{ exprs: Expr[]; alias?: Ident; text?: string }>;
      alias?: Ident;
      columnAliases: Ident[];
      pos: Pos;
    }
  /** `asof`: the MATCH_CONDITION of an `[LEFT] ASOF JOIN` (kind LEFT or INNER). */
  | { k: 'join'; kind: JoinKind; left: FromItem; right: FromItem; on?: Expr; using?: Ident[]; natural?: boolean; asof?: Expr; pos: Pos };

export interface Select {
  k: 'select';
  distinct: boolean;
  items: SelectItem[];
  from: FromItem[];
  where?: Expr;
  groupBy: Expr[];
  /** GROUP BY ROLLUP/CUBE/GROUPING SETS: the grouping sets (groupBy then lists every grouping expression once). */
  groupingSets?: Expr[][];
  having?: Expr;
  qualify?: Expr;
  pos: Pos;
}

export type SetBody =
  | Select
  | { k: 'setop'; op: 'UNION' | 'EXCEPT' | 'INTERSECT'; all: boolean; left: SetBody; right: SetBody; pos: Pos }
  | { k: 'query'; query: Query; pos: Pos }
  | { k: 'values'; rows: Expr[][]; pos: Pos };

export interface Cte {
  name: Ident;
  columns: Ident[];
  query: Query;
}

export interface Query {
  with: Cte[];
  body: SetBody;
  orderBy: OrderItem[];
  limit?: Expr;
  offset?: Expr;
  pos: Pos;
}

export interface ColumnDef {
  name: Ident;
  type: unknown; // parser data type, resolved by types/parse-type.ts
  notNull: boolean;
  primaryKey: boolean;
  pos: Pos;
}

export type Statement =
  | {
      k: 'createTable';
      name: Ident;
      columns: ColumnDef[];
      primaryKey: Ident[];
      options: { key: string; value: string; pos: Pos }[];
      pos: Pos;
    }
  | {
      k: 'createView';
      name: Ident;
      columns: Ident[];
      materialized: boolean;
      local: boolean;
      query: Query;
      options: { key: string; value: string; pos: Pos }[];
      pos: Pos;
    };

export class SqlError extends Error {
  constructor(
    message: string,
    public readonly pos: Pos,
    public readonly kind: string = 'unsupported',
  ) {
    super(message);
  }
}
