/**
 * The public contract of the incremental SQL engine. The pipeline service depends on this file only
 * (through src/engine/index.ts, which re-exports it and provides `compile`). Nothing here knows about
 * HTTP or the CLI.
 *
 * Rows cross this boundary in their JSON form, keyed by the column's output name (UPPER case for
 * unquoted identifiers by default, see CompileOptions.outputCase; quoted names keep their spelling):
 * numbers as numbers, an integer beyond ±(2^53 - 1) (BIGINT holds all of -2^63..2^63-1) as a JS bigint, DECIMAL
 * as strings, DATE/TIME/TIMESTAMP as strings in Feldera's formats, ARRAY as JSON arrays, NULL as null.
 * A bigint never stands for a value a number holds exactly (one value, one form). JSON.stringify throws on a
 * bigint: write rows with jsonText (json-text.ts), which prints it digit-exact as a JSON number; read JSON
 * text with parseJsonText, which keeps the digits of integers beyond 2^53 as bigints and of other numbers a
 * JS number would change as a JsonNumberText (a DECIMAL reads them exactly; a VARIANT output may hold one).
 * BIGINT input is also accepted as a string of digits ("9223372036854775807").
 *
 * Integer arithmetic is exact and checked: a result outside its type (TINYINT 8 .. BIGINT 64 bits), an
 * integer division or modulus by zero, is an EngineStepError, and the step that raised it is refused whole.
 */

import type { RowBatch } from './batch.js';
import type { ColumnKeeps, JsonRow, JsonValue } from './json-value.js';

export { JsonNumberText, type ColumnKeeps, type JsonRow, type JsonValue } from './json-value.js';
export { EngineInputError, EngineStateError, EngineStepError, EngineValueError } from './errors.js';

export interface CompileOptions {
  /** How unquoted identifiers are spelled in output names. 'upper' (default) as the v0.24-era service; 'lower' as today's Feldera. */
  outputCase?: 'upper' | 'lower';
  /**
   * Where NULLs sort when an ORDER BY (of a query, a window, an aggregate) says neither NULLS FIRST nor LAST:
   * 'low' (default) as Feldera's programs (Calcite's NullCollation.LOW: NULL before any value ascending, after
   * descending); 'high' as Feldera's ad-hoc queries (DataFusion, as Postgres: NULL after any value ascending).
   */
  nulls?: 'low' | 'high';
}

/** A compile error with a 1-based line and column into the program text. */
export interface CompileError {
  message: string;
  line: number;
  column: number;
  /** e.g. 'syntax', 'unknown_table', 'unknown_column', 'type', 'unsupported', 'connector' (a bad 'connectors' option) */
  kind?: string;
}

/** A connector declaration from `WITH ('connectors' = '[...]')`, passed through as parsed JSON (integers beyond ±2^53 exact, as bigints). */
export interface ConnectorDecl {
  name?: string;
  transport: { name: string; config?: Record<string, JsonValue> };
  format?: { name: string; config?: Record<string, JsonValue> };
  [k: string]: JsonValue | undefined;
}

export interface ColumnSchema {
  /** Output name (cased per CompileOptions.outputCase unless quoted). */
  name: string;
  /** Whether the name was quoted in the program (case-sensitive). */
  caseSensitive: boolean;
  /** SQL type as text, e.g. 'INTEGER', 'DECIMAL(10, 2)', 'VARCHAR', 'TIMESTAMP', 'INTEGER ARRAY'. */
  type: string;
  nullable: boolean;
}

export interface RelationSchema {
  name: string;
  caseSensitive: boolean;
  columns: ColumnSchema[];
  /** Tables: declared primary key column names (output names); empty when none. */
  primaryKey: string[];
  /** Tables true unless they forget rows behind their LATENESS waterline (plan/retention.ts: bounded state, their snapshots refused); views true for CREATE MATERIALIZED VIEW. */
  materialized: boolean;
  /** Declared so: a table WITH ('materialized' = 'true'), a CREATE MATERIALIZED VIEW (what Feldera's program_info reports). */
  declaredMaterialized: boolean;
  /** CREATE LOCAL VIEW: not an output, not visible through the API. */
  local: boolean;
  connectors: ConnectorDecl[];
  /** 1-based position of the statement in the program, for messages. */
  line: number;
}

/**
 * One input change for one table. In step()'s batch every row counts as one change: a `batch` change of n
 * rows takes n indexes (EngineInputError.index counts so), the others one each.
 */
export type InputChange =
  | { table: string; op: 'insert' | 'delete'; row: JsonRow; weight?: number }
  /** Primary-key tables only: insert, replacing any row with the same key. */
  | { table: string; op: 'upsert'; row: JsonRow }
  /** Primary-key tables only: change only the named columns of the row with this key. */
  | { table: string; op: 'update'; row: JsonRow }
  /** CSV input: fields in column order, as text; weight +1 (insert) or -1 (delete). */
  | { table: string; op: 'csv'; fields: string[]; weight?: number }
  /**
   * Many rows in compact form (RowBatch, engine/batch.ts: values in column order, in the JSON input form
   * as a `row` holds them, every column given): each row exactly as the change `{table, op: rowOp, row}`
   * with weight 1 would be, in order. The step converts the batch to its internal rows block by block, so
   * it never holds a JSON row object per input row. (Build one with `new RowBatch(columns)`.)
   */
  | { table: string; op: 'batch'; rowOp: 'insert' | 'delete' | 'upsert'; rows: RowBatch };

/** A consolidated output change: positive weight = inserts, negative = deletes. Never zero. */
export interface WeightedRow {
  row: JsonRow;
  weight: number;
}

export interface StepResult {
  /** Output name of each non-local view (and table) that changed in this step -> its changes, deletes
   *  before inserts. Relations that did not change are absent. The changes are consolidated as far as
   *  can be observed: no row is both inserted and deleted, no weight is zero; equal rows inserted (or
   *  deleted) more than once may appear as separate entries. Rows are put in JSON form when first read. */
  changes: ReadonlyMap<string, WeightedRow[]>;
}

export interface CircuitOptions {
  /**
   * Called while a step runs, at least once per some thousands of rows produced by joins (the operators
   * whose output can far exceed their input) and per some millions of characters of string work (regular
   * expressions, strings built: step-guard.ts; stepRowsBuilt() tells the rows the step has built so far);
   * it may throw to stop the step, and step() then throws that error. A circuit whose step was stopped so must not be
   * stepped again (it refuses to): give a guard to circuits that are given up when it stops them, e.g. an
   * ad-hoc query's (bounded memory, time and rows) or a pipeline's (which then fails as out of memory
   * rather than run its worker into the heap limit).
   */
  guard?: () => void;
  /**
   * The clock NOW() reads (bind/now.ts): the value for a step, a TIMESTAMP as milliseconds since the epoch
   * (a safe integer; anything else makes step() throw a TypeError and apply nothing). Called once at the start
   * of every step() when the program reads NOW() (CompiledProgram.usesNow), never otherwise, never by check().
   * When the value differs from the last step's, the step also moves NOW() and the views that read it change
   * by exactly the difference. Before the first step (or without a clock) NOW() has no value and the rows
   * that read it are not there: `SELECT NOW()` is empty, `... WHERE ts > NOW()` has no row.
   */
  clock?: () => number;
}

export interface Circuit {
  /** Apply one atomic step (one transaction). Throws EngineInputError (a bad input) or EngineStepError (a
   *  view's computation failed, e.g. integer overflow) and then applies nothing: the circuit's state is as before. */
  step(inputs: InputChange[]): StepResult;
  /** Converts and checks inputs exactly as step() would (types, NOT NULL, keys; the same EngineInputError and
   *  index), and applies nothing: input held for a later step is known good when it arrives. */
  check(inputs: InputChange[]): void;
  /** Current integrated contents of a table or a materialized (or any non-local) view, by output name (case-insensitive lookup). */
  contents(name: string): WeightedRow[];
  /**
   * The same contents one entry at a time, without building or consolidating them first (for callers that
   * copy them into a circuit of their own, which adds the weights up): a row may come more than once, and
   * with a negative weight; the sum of its weights is its weight in contents().
   */
  forEachContent(name: string, visit: (row: JsonRow, weight: number) => void): void;
  /** Approximate number of rows held in operator state, for stats. */
  stateSize(): number;
  /**
   * The circuit's state, for a checkpoint: handed to `write` part by part (each of at most some thousands of
   * rows), in an order restore() needs. Parts are plain data (arrays, numbers, bigints, strings, booleans,
   * null), structured-clonable and serializable with v8.serialize; nothing else may be assumed of them. It
   * holds the tables' contents, the views' contents, LATENESS watermarks, NOW()'s value and held emit_final
   * rows; the operators' state is rebuilt from the tables' contents on restore (each operator's state is a
   * function of its integrated inputs, released to the watermarks), as a refused step rebuilds it. Call it
   * between steps; it does not change the circuit.
   */
  exportState(write: (part: CircuitStatePart) => void): void;
}

/** One part of a circuit's state (Circuit.exportState); opaque to the caller. */
export interface CircuitStatePart {
  readonly kind: string;
}

export interface CompiledProgram {
  tables: RelationSchema[];
  /** Views in declaration order, local ones included (flagged). */
  views: RelationSchema[];
  /** Whether a view reads NOW(): its circuits then need a clock (CircuitOptions.clock) and a step to move it. */
  usesNow: boolean;
  /** Find a table or view by name, case-insensitively for unquoted names. */
  relation(name: string): RelationSchema | undefined;
  /** A fresh circuit with empty state. */
  newCircuit(options?: CircuitOptions): Circuit;
  /**
   * A circuit holding the state another circuit of the same program exported (Circuit.exportState), the
   * parts given in the order they were written: its tables, views, watermarks, NOW() and held rows are as
   * they were, and the steps that follow give what they would have given there. Throws EngineStateError
   * for parts of another program or out of order (nothing is returned then).
   */
  restoreCircuit(parts: Iterable<CircuitStatePart>, options?: CircuitOptions): Circuit;
  /** The value codec of a table's columns (the engine's own type rules), or undefined for an unknown table. */
  inputCodec(table: string): InputCodec | undefined;
  /** The same for any table or view (a row in a relation's shape, e.g. a snapshot's anchor row), or undefined. */
  valueCodec(relation: string): InputCodec | undefined;
}

export interface ColumnCodec {
  /** Output name of the column. */
  name: string;
  /** SQL type as text (as in ColumnSchema). */
  type: string;
  nullable: boolean;
  /** A JSON input value checked and put in the engine's JSON output form; throws EngineValueError. */
  fromJson(v: JsonValue | undefined): JsonValue;
  /**
   * The JSON values fromJson gives back exactly as they are (they are in the output form already), so a
   * reader holding one may keep it without the call: 'int' an integer number within [lo, hi] (safe
   * integers), 'number' any number, 'string' any string, 'boolean' true or false; null: none (every
   * value goes through fromJson). A JSON null is not covered: fromJson decides it (NOT NULL columns refuse it).
   */
  keeps: ColumnKeeps | null;
  /**
   * A CSV field checked and put in the same form; throws EngineValueError. An empty field is NULL, unless
   * it was `quoted` ("") and the column is a string: then it is the empty string.
   */
  fromCsv(text: string, quoted?: boolean): JsonValue;
  /**
   * What a row that leaves the column out takes: its DEFAULT, in the form fromJson gives (kept as it is);
   * null when the column has no DEFAULT (or DEFAULT NULL): the row takes NULL, or is refused when the column
   * is NOT NULL. An explicit JSON null is NULL, never the default.
   */
  missing: { value: JsonValue } | null;
}

export interface InputCodec {
  columns: ColumnCodec[];
}

export type CompileResult = { ok: true; program: CompiledProgram } | { ok: false; errors: CompileError[] };

export type CompileFn = (sql: string, options?: CompileOptions) => CompileResult;
