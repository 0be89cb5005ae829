/**
 * Ad-hoc `INSERT INTO table [(columns)] VALUES (...), ... | SELECT ...` through today's `/query` endpoint,
 * run in the pipeline's worker: the source (VALUES or a query over the materialized relations) is evaluated
 * by egress/adhoc.ts as an ad-hoc SELECT, and its rows go into the table as one ingress step would put them:
 * each value through the table's binding (the engine's value codec, its checks and messages), an insert into
 * a table with a PRIMARY KEY replacing the row with the same key, watch streams and stats as for ingress.
 * The answer is one row `count` (the rows inserted), in the query's format, as Feldera answers.
 *
 * Rules: any table of the program may be the target (materialized or not; never a view); the source gives
 * one value per target column, by position; a column left out of the column list takes its DEFAULT (else
 * NULL; a NOT NULL one without a DEFAULT refuses the statement); a DECIMAL value of the source goes in as
 * the JSON number a JSON ingress would carry (so 1.5 fits a DOUBLE column), exactly. Append only (no
 * OVERWRITE). Anything refused (bad SQL, an unknown table or column, a view, a wrong number of values, a
 * bad value, a step the engine refuses) is a 400 AdHocQueryError with its reason, and nothing is applied.
 * Inside a transaction the rows are checked and held as ingress is (runtime.ingest), applied by the commit.
 */
import { jsonText, parseJsonText, type ColumnSchema, type JsonRow, type JsonValue } from '../../../../engine/index.js';
import { badQuery, evaluateQuery, formatQuery, isQueryText, repeatsOrRefuse, type QueryFormat, type TextQueryFormat } from '../egress/adhoc.js';
import { queryGuard, type QueryGuard } from '../egress/query-memory.js';
import { sortedContents } from '../egress/snapshot.js';
import { FelderaError } from '../../shared/errors.js';
import { findRelation } from '../../shared/names.js';
import { identifierAt, skipSpace } from '../../shared/sql-words.js';
import type { CommitPoint, PipelineRuntime } from '../runtime.js';
import { RowError } from './binding.js';
import { ParsedSink } from './parser.js';
import type { ParseErrorEntry } from './parse-error.js';

/** An INSERT statement's parts: the names as written (a quoted one with its quotes) and the source query's text. */
export interface InsertStatement {
  table: string;
  columns: string[] | null;
  source: string;
}

const isQuoted = (token: string): boolean => token.startsWith('"');
const unquote = (token: string): string => (isQuoted(token) ? token.slice(1, -1).replace(/""/g, '"') : token);

/** The parts of an INSERT statement, null when the statement is not an INSERT; a malformed one is a 400. */
export function parseInsert(sql: string): InsertStatement | null {
  const text = sql.trim().replace(/;\s*$/, '');
  let pos = skipSpace(text, 0);
  const first = identifierAt(text, pos);
  if (!first || first.token.toLowerCase() !== 'insert') return null;
  pos = skipSpace(text, first.end);
  const into = identifierAt(text, pos);
  if (into?.token.toLowerCase() === 'overwrite') throw badQuery('INSERT OVERWRITE is not supported: an ad-hoc INSERT INTO appends rows');
  if (into?.token.toLowerCase() !== 'into') throw badQuery('Expected INTO after INSERT: INSERT INTO table [(columns)] VALUES (...) | SELECT ...');
  pos = skipSpace(text, into.end);
  const table = identifierAt(text, pos);
  if (!table) throw badQuery('INSERT INTO needs a table name');
  pos = skipSpace(text, table.end);
  if (text[pos] === '.') throw badQuery(`Give the table's name without a schema: INSERT INTO ${unquote(table.token)} ...`);
  let columns: string[] | null = null;
  if (text[pos] === '(') {
    const inner = skipSpace(text, pos + 1);
    const word = identifierAt(text, inner);
    const isSource = text[inner] === '(' || (word !== null && !isQuoted(word.token) && isQueryText(word.token));
    if (!isSource) {
      columns = [];
      let p = inner;
      for (;;) {
        const col = identifierAt(text, p);
        if (!col) throw badQuery(`Expected a column name in the column list of INSERT INTO ${unquote(table.token)}`);
        columns.push(col.token);
        p = skipSpace(text, col.end);
        if (text[p] === ',') p = skipSpace(text, p + 1);
        else if (text[p] === ')') break;
        else throw badQuery(`Expected ',' or ')' in the column list of INSERT INTO ${unquote(table.token)}`);
      }
      pos = skipSpace(text, p + 1);
    }
  }
  const source = text.slice(pos).trim();
  if (/^default\s+values\b/i.test(source)) throw badQuery('INSERT ... DEFAULT VALUES is not supported: give VALUES (...) or a SELECT');
  if (!isQueryText(source)) throw badQuery(`INSERT INTO ${unquote(table.token)} needs VALUES (...) or a SELECT query after the table${columns ? ' and its column list' : ''}`);
  return { table: table.token, columns, source };
}

/** The column a name of the column list means: quoted exactly, unquoted as SQL folds it. */
function findColumn(columns: ColumnSchema[], token: string): number {
  if (isQuoted(token)) return columns.findIndex((c) => c.name === unquote(token));
  const lower = token.toLowerCase();
  const i = columns.findIndex((c) => !c.caseSensitive && c.name.toLowerCase() === lower);
  return i >= 0 ? i : columns.findIndex((c) => c.name === token);
}

/** A value of the source as a JSON ingress body of the same rows would carry it: a DECIMAL as a JSON number, digit-exact. */
function ingressValue(v: JsonValue | undefined, column: ColumnSchema): JsonValue {
  if (v === undefined) return null;
  return typeof v === 'string' && column.type.startsWith('DECIMAL') ? (parseJsonText(v) as JsonValue) : v;
}

/** Why the runtime refused the step, as the ad-hoc answer words it. */
function refusal(err: FelderaError): FelderaError {
  const entries = (err.details as { errors?: ParseErrorEntry[] } | null)?.errors;
  const first = entries?.[0];
  const reason = first ? `row ${first.event_number}: ${first.description}` : err.message.replace(/^The input was refused, nothing of it was applied: /, '');
  return new FelderaError(400, 'AdHocQueryError', `The INSERT was refused, nothing of it was applied: ${reason}`, err.code === 'ParseErrors' ? null : err.details);
}

/**
 * Runs the INSERT on the pipeline's current state as one step and gives the number of rows inserted.
 * Throws a 400 AdHocQueryError (nothing applied) when anything is refused.
 */
export function runInsert(rt: PipelineRuntime, stmt: InsertStatement, outputCase: 'upper' | 'lower', guard: QueryGuard = queryGuard(badQuery), commit?: CommitPoint): number {
  const program = rt.program;
  const table = findRelation(program, stmt.table, 'table');
  if (!table) {
    const view = findRelation(program, stmt.table, 'view');
    throw badQuery(view ? `'${view.name}' is a view: INSERT INTO writes into tables only` : `Unknown table '${unquote(stmt.table)}'`);
  }
  let targets: number[];
  if (stmt.columns === null) targets = table.columns.map((_, i) => i);
  else {
    targets = [];
    for (const token of stmt.columns) {
      const i = findColumn(table.columns, token);
      if (i < 0) throw badQuery(`Unknown column '${unquote(token)}' in table '${table.name}'`);
      if (targets.includes(i)) throw badQuery(`Column '${table.columns[i]!.name}' is named twice in the column list`);
      targets.push(i);
    }
  }
  guard.check(); // an INSERT cancelled while it waited its turn does not start, nor one the pipeline has no memory for
  const { rows, columns } = evaluateQuery(rt.circuit, program, stmt.source, outputCase, guard);
  if (columns.length !== targets.length) {
    const names = targets.map((i) => table.columns[i]!.name).join(', ');
    throw badQuery(`INSERT INTO ${table.name} expects ${targets.length} value${targets.length === 1 ? '' : 's'} per row (${names}) but the query gives ${columns.length}`);
  }
  const binding = rt.binding(table);
  const sink = new ParsedSink(binding.makeRow);
  let count = 0;
  repeatsOrRefuse(rows); // a source row of weight 10^8 is that many rows to insert
  // in snapshot order, so that a refusal names the same row every time
  for (const { row, weight } of sortedContents(rows, columns)) {
    const values: JsonRow = {};
    try {
      // only the columns given: the engine fills the others with their DEFAULT (or NULL) and checks NOT NULL
      for (let k = 0; k < targets.length; k++) values[binding.names[targets[k]!]!] = binding.convert(targets[k]!, ingressValue(row[columns[k]!.name], columns[k]!));
    } catch (err) {
      if (err instanceof RowError) throw badQuery(`The INSERT was refused, nothing of it was applied: row ${count + 1}: ${err.message}`);
      throw err;
    }
    const change = binding.change('insert', values);
    for (let w = 0; w < weight; w++) {
      sink.change(change, sink.event(++count));
      guard.rows(1);
    }
  }
  try {
    rt.ingest(
      sink.result((c) => ('row' in c ? jsonText(c.row) : '')),
      undefined,
      0,
      commit,
    );
  } catch (err) {
    if (err instanceof FelderaError && err.status < 500) throw refusal(err);
    throw err;
  }
  return count;
}

/** The answer body of an INSERT: its `count` row in the query's format (the name `count` as Feldera's, whatever the output case). */
export function answerInsert(rt: PipelineRuntime, stmt: InsertStatement, format: TextQueryFormat, outputCase: 'upper' | 'lower', guard?: QueryGuard, commit?: CommitPoint): string;
export function answerInsert(rt: PipelineRuntime, stmt: InsertStatement, format: QueryFormat, outputCase: 'upper' | 'lower', guard?: QueryGuard, commit?: CommitPoint): string | Uint8Array;
export function answerInsert(rt: PipelineRuntime, stmt: InsertStatement, format: QueryFormat, outputCase: 'upper' | 'lower', guard?: QueryGuard, commit?: CommitPoint): string | Uint8Array {
  const count = runInsert(rt, stmt, outputCase, guard, commit);
  return formatQuery([{ row: { count }, weight: 1 }], [COUNT_COLUMN], format);
}

/** The one column of an INSERT's answer (a BIGINT `count`, as DataFusion's). */
const COUNT_COLUMN = { name: 'count', caseSensitive: false, type: 'BIGINT', nullable: false };
