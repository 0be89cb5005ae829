/**
 * Ad-hoc queries (`GET /v0/pipelines/{name}/query?sql=...`), answered in the pipeline's worker from the
 * current contents: the SELECT is compiled by the engine as the one view of a small program whose tables
 * are the pipeline's materialized tables and views (as Feldera: a table WITH ('materialized' = 'true'),
 * a CREATE MATERIALIZED VIEW), whose contents are fed in as one step; the view's contents then are the answer.
 *
 * Rules: one SELECT (or WITH/VALUES) statement only, anything else is a 400 with the reason (an ad-hoc
 * INSERT is ingress/adhoc-insert.ts's, which evaluates its source query here); rows come in
 * the order of snapshots (by row, NULL first; ORDER BY decides which rows a LIMIT keeps, not their
 * order; an ORDER BY that does not say puts NULLs after any value ascending, as DataFusion, where a
 * program's put them before); `json` is one JSON object per line, `text` a table as Feldera's text format draws it, `arrow_ipc`
 * an Arrow IPC stream (arrow.ts), `parquet` a Parquet file (parquet.ts), `hash` the result's order-independent
 * digest (result-hash.ts). The binary formats are built batch by batch from the rows, never as one JSON row
 * object per output row.
 */
import {
  compile,
  EngineStepError,
  jsonText,
  MAX_VALUE_SIZE,
  type Circuit,
  type ColumnSchema,
  type CompiledProgram,
  type InputChange,
  type JsonValue,
  type RelationSchema,
  type WeightedRow,
} from '../../../../engine/index.js';
import { FelderaError } from '../../shared/errors.js';
import { checkRepeats, OutputTooLarge } from './encode.js';
import { queryGuard, type QueryGuard } from './query-memory.js';
import { sortedContents } from './snapshot.js';
import { arrowIpcStream } from './arrow.js';
import { parquetFile } from './parquet.js';
import { resultHash } from './result-hash.js';

import type { QueryFormat, TextQueryFormat } from '../../shared/query-format.js';

export type { QueryFormat, TextQueryFormat } from '../../shared/query-format.js';
const RESULT = '__ops_adhoc_result';

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A failed ad-hoc query: the reason as a 400 AdHocQueryError (with the details of a limit it went past). */
export function badQuery(message: string, details: Record<string, unknown> | null = null): FelderaError {
  return new FelderaError(400, 'AdHocQueryError', message, details); // Feldera's code and status for any failed ad-hoc query
}

/** Rows of huge weight, which would be written out that many times: refused as the query's fault. */
export function repeatsOrRefuse(rows: readonly WeightedRow[]): void {
  try {
    checkRepeats(rows);
  } catch (err) {
    if (err instanceof OutputTooLarge) throw badQuery(`The answer is too large: ${err.message.replace(/; CSV .*$/, '')}; aggregate it (COUNT(*), GROUP BY) instead`);
    throw err;
  }
}

/** What an ad-hoc query may read: materialized tables and views, by their output names. */
export function queryableRelations(program: CompiledProgram): RelationSchema[] {
  return [...program.tables.filter((t) => t.declaredMaterialized), ...program.views.filter((v) => !v.local && v.declaredMaterialized)];
}

/**
 * Whether `text` may read the relation `name`: its name appears in it as a word (any case; a superset of what
 * the query reads, which is all that matters: only the relations given are copied into the query's circuit).
 * A name that is not a plain identifier is always taken.
 */
function mayRead(text: string, name: string): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return true;
  return new RegExp(`(?<![A-Za-z0-9_$])${name}(?![A-Za-z0-9_$])`, 'i').test(text);
}

function declare(rel: RelationSchema): string {
  const cols = rel.columns.map((c) => `${quote(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`).join(', ');
  return `CREATE TABLE ${quote(rel.name)} (${cols});`;
}

/** Whether the text is a query (SELECT, WITH, VALUES or a parenthesized one), by its first word. */
export function isQueryText(text: string): boolean {
  return /^(?:(?:select|with|values)\b|\()/i.test(text.trim());
}

/** Whether a `;` outside strings, quoted names and comments ends the first statement before the text's end. */
export function hasStatementAfterFirst(text: string): boolean {
  let separated = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      const close = text.indexOf(ch, i + 1); // a doubled quote inside is two strings in a row here: the same
      i = close < 0 ? text.length : close;
    } else if (text.startsWith('--', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (ch === ';') separated = true;
    else if (separated && !/\s/.test(ch)) return true;
  }
  return false;
}

/**
 * The rows of a query (SELECT, WITH or VALUES text, without a trailing `;`) over the current contents, in
 * no particular order, with its columns (their output names and SQL types). Throws a 400 AdHocQueryError
 * when it does not compile, its computation fails, or it needs more memory than `guard` allows
 * (query-memory.ts).
 */
export function evaluateQuery(
  circuit: Circuit,
  program: CompiledProgram,
  text: string,
  outputCase: 'upper' | 'lower',
  guard: QueryGuard = queryGuard(badQuery),
): { rows: WeightedRow[]; columns: ColumnSchema[] } {
  if (hasStatementAfterFirst(text)) throw badQuery('Give one statement per request: an ad-hoc query here is one SELECT or one INSERT INTO');
  // only the relations the query may read are declared and copied in: a query of a small table does not
  // copy every materialized table of the pipeline (which doubled its memory)
  const queryable = queryableRelations(program);
  const sources = queryable.filter((rel) => mayRead(text, rel.name));
  const code = `${sources.map(declare).join('\n')}\nCREATE VIEW ${quote(RESULT)} AS\n${text}\n;`; // `;` on a line of its own: after a trailing -- comment
  let compiled: ReturnType<typeof compile>;
  try {
    compiled = compile(code, { outputCase, nulls: 'high' }); // DataFusion's NULL order, as Feldera's ad-hoc queries;
  } catch (err) {
    throw badQuery(`The query could not be compiled: ${(err as Error)?.message ?? String(err)}`);
  }
  if (!compiled.ok) {
    const first = compiled.errors[0];
    const hint =
      queryable.length === 0
        ? " (no table or view is materialized: declare tables WITH ('materialized' = 'true') and use CREATE MATERIALIZED VIEW)"
        : first?.kind === 'unknown_table'
          ? " (an ad-hoc query reads only materialized tables and views: declare tables WITH ('materialized' = 'true') and use CREATE MATERIALIZED VIEW)"
          : '';
    throw badQuery(`${first?.message ?? 'the query does not compile'}${hint}`);
  }
  const q = compiled.program;
  if (q.tables.length !== sources.length || q.views.length !== 1) throw badQuery('Give exactly one SELECT statement');
  const inputs: InputChange[] = [];
  for (const rel of sources)
    // entries as held (a row may come more than once, a delete as a negative weight): the query's circuit adds them up
    circuit.forEachContent(rel.name, (row, weight) => {
      if (weight === 0) return;
      inputs.push({ table: rel.name, op: 'insert', row, weight });
      guard.rows(1); // the copy itself may be what the pipeline cannot spare
    });
  const view = q.views[0]!;
  let result: WeightedRow[];
  try {
    // the view's contents after the step, not the step's changes: a constant (VALUES, SELECT 1) and the row
    // of a global aggregate over nothing are there from the circuit's start
    const circuit = q.newCircuit({ guard: guard.check, clock: Date.now }); // NOW() in an ad-hoc query: the time of the query (as DataFusion's now())
    circuit.step(inputs);
    result = circuit.contents(view.name);
  } catch (err) {
    // the query's own computation failed (integer overflow, division by zero): the query's fault, a 4xx
    if (err instanceof EngineStepError)
      throw new FelderaError(400, 'AdHocQueryError', `Error during query processing: ${err.message.replace(/, in view [^;]*;.*$/, '')}`, { expression: err.expression, type: err.type });
    // a value past what JavaScript can hold, built where no function checks its size: the query's fault too
    if (err instanceof RangeError && /Invalid (?:string|array|typed array) length|Array buffer allocation failed/.test(err.message))
      throw badQuery(`Error during query processing: a value too large to build (${err.message}); a value holds at most ${MAX_VALUE_SIZE} characters, bytes or elements`);
    throw err;
  }
  return { rows: result, columns: view.columns };
}

/** The rows of the query over the current contents, in snapshot order, with its columns. */
export function runQuery(
  circuit: Circuit,
  program: CompiledProgram,
  sql: string,
  outputCase: 'upper' | 'lower',
  guard: QueryGuard = queryGuard(badQuery),
): { rows: WeightedRow[]; columns: ColumnSchema[] } {
  const text = sql.trim().replace(/;\s*$/, '');
  if (text === '') throw badQuery('The query is empty: give a SELECT statement in ?sql=');
  if (!isQueryText(text)) throw badQuery('Only SELECT and INSERT INTO statements are supported here');
  const { rows, columns } = evaluateQuery(circuit, program, text, outputCase, guard);
  return { rows: sortedContents(rows, columns), columns };
}

function cell(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : jsonText(v);
}

/**
 * The answer's body: NDJSON objects, a text table (header, a rule, one line per row), the hash's line, or the
 * bytes of an Arrow IPC stream or a Parquet file. A row of weight n is written n times; each line of text written
 * counts against the answer's limits (guard.answer).
 */
export function formatQuery(rows: WeightedRow[], columns: readonly ColumnSchema[], format: TextQueryFormat, guard?: QueryGuard): string;
export function formatQuery(rows: WeightedRow[], columns: readonly ColumnSchema[], format: QueryFormat, guard?: QueryGuard): string | Uint8Array;
export function formatQuery(rows: WeightedRow[], columns: readonly ColumnSchema[], format: QueryFormat, guard: QueryGuard = queryGuard(badQuery)): string | Uint8Array {
  repeatsOrRefuse(rows);
  if (format === 'hash') return resultHash(rows, columns, (n) => guard.rows(n));
  if (format === 'arrow_ipc' || format === 'parquet') {
    // a row of weight n is n rows written out; the Arrow buffers are outside the heap: their bytes count too
    const ipc = arrowIpcStream(rows, columns, (n, bytes) => {
      guard.rows(n);
      guard.bytes(bytes);
    });
    return format === 'parquet' ? parquetFile(ipc) : ipc;
  }
  const names = columns.map((c) => c.name);
  const out: string[] = [];
  if (format === 'json') {
    for (const { row, weight } of rows) {
      const line = jsonText(Object.fromEntries(names.map((c) => [c, row[c] ?? null]))) + '\n';
      for (let k = 0; k < weight; k++) {
        guard.answer(line.length);
        out.push(line);
      }
    }
    return out.join('');
  }
  const cells: string[][] = [];
  const widths = names.map((c) => c.length);
  for (const { row, weight } of rows) {
    const vals = names.map((c) => cell(row[c]));
    vals.forEach((v, i) => (widths[i] = Math.max(widths[i]!, v.length)));
    for (let k = 0; k < weight; k++) {
      cells.push(vals);
      guard.rows(1); // a row of weight 10^9 is as many rows written out
    }
  }
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const line = (vals: string[]) => `|${vals.map((v, i) => ` ${v.padEnd(widths[i]!)} `).join('|')}|\n`;
  out.push(rule, line(names), rule);
  for (const vals of cells) {
    const l = line(vals);
    guard.answer(l.length);
    out.push(l);
  }
  out.push(rule);
  return out.join('');
}

export function answerQuery(circuit: Circuit, program: CompiledProgram, sql: string, format: TextQueryFormat, outputCase: 'upper' | 'lower', guard?: QueryGuard): string;
export function answerQuery(circuit: Circuit, program: CompiledProgram, sql: string, format: QueryFormat, outputCase: 'upper' | 'lower', guard?: QueryGuard): string | Uint8Array;
export function answerQuery(
  circuit: Circuit,
  program: CompiledProgram,
  sql: string,
  format: QueryFormat,
  outputCase: 'upper' | 'lower',
  guard: QueryGuard = queryGuard(badQuery),
): string | Uint8Array {
  guard.check(); // a query cancelled while it waited its turn does not start, nor one the pipeline has no memory for
  const { rows, columns } = runQuery(circuit, program, sql, outputCase, guard);
  return formatQuery(rows, columns, format, guard);
}
