/** A whole program: pre-pass, parse, adapt, bind each statement in order; collect errors with positions. */
import { JsonNumberText, type CompileError, type ConnectorDecl, type JsonValue } from '../api.js';
import { PLACEHOLDER_MARK, prepass, type ColumnAttr } from '../parse/prepass.js';
import { Adapter, parseRaw, parserErrorPosition } from '../parse/adapter.js';
import { SqlError, type Pos, type Statement } from '../parse/ast.js';
import { type PlanColumn, type PlanNode, type Watermarked } from '../plan/nodes.js';
import { limitRanks } from '../plan/rank-limit.js';
import { typeToString, withNull, type SqlType } from '../types/types.js';
import { canon, Scope, type Casing } from './scope.js';
import type { Env } from './env.js';
import { bindQuery } from './query.js';
import { bindExpr, coerce, parseTypeAt } from './expr.js';
import { UserTypes } from './user-types.js';
import { UserFunctions } from './udf.js';
import { CompileSession } from './compile-session.js';
import { bindFrom, bindFromItem, emptyRowRel } from './from.js';
import type { Value } from '../types/values.js';
import { IntOverflow } from '../types/int64.js';
import { containsNow } from './now.js';
import { parseJsonText } from '../json-text.js';

export interface TableColumn {
  name: string;
  quoted: boolean;
  type: SqlType;
  /** Value used when an insert omits the column (DEFAULT, else NULL). */
  dflt: Value;
}

export interface TableDef {
  name: string;
  quoted: boolean;
  columns: TableColumn[];
  pk: number[];
  node: PlanNode;
  materialized: boolean;
  /** WITH ('materialized' = 'true') was written (program_info reports only this). */
  declaredMaterialized: boolean;
  connectors: ConnectorDecl[];
  /** LATENESS per column index: the allowed lateness in the column's unit (ms for TIMESTAMP, days for DATE, plain for numbers). */
  lateness: Map<number, number>;
  line: number;
}

export interface ViewDef {
  /** WITH ('emit_final' = 'col'): rows are output only once final (col's value + slack <= its watermark). */
  emitFinal?: { col: number; wm: Watermarked };
  name: string;
  quoted: boolean;
  columns: PlanColumn[];
  columnQuoted: boolean[];
  node: PlanNode;
  materialized: boolean;
  local: boolean;
  connectors: ConnectorDecl[];
  line: number;
}

export interface BoundProgram {
  tables: TableDef[];
  views: ViewDef[];
  /** A view reads NOW() (bind/now.ts made the clock node). */
  usesNow: boolean;
}

/** A parser message with the pre-pass's placeholders (PreStatement.renamed) put back as the words they stand for. */
function withWords(message: string, renamed: ReadonlyMap<string, string> | undefined): string {
  return renamed ? message.replace(new RegExp(`${PLACEHOLDER_MARK}\\d+`, 'gu'), (m) => renamed.get(m) ?? m) : message;
}

/** Blank text that puts what follows at `pos`, so the parser reports lines and columns of the whole program (a statement is parsed alone). */
function padTo(pos: Pos): string {
  return '\n'.repeat(pos.line - 1) + ' '.repeat(pos.column - 1);
}

function parseConnectors(options: { key: string; value: string; pos: Pos }[]): { connectors: ConnectorDecl[]; materialized: boolean; emitFinal?: { value: string; pos: Pos } } {
  let connectors: ConnectorDecl[] = [];
  let materialized = false;
  let emitFinal: { value: string; pos: Pos } | undefined;
  for (const o of options) {
    const key = o.key.toLowerCase();
    if (key === 'connectors') {
      let parsed: JsonValue;
      try {
        // integers beyond ±2^53 stay exact (bigints: a datagen range up to i64::MAX); other numbers are JS numbers
        parsed = numbersOfConfig(parseJsonText(o.value) as JsonValue);
      } catch (e) {
        throw new SqlError(`Invalid JSON in 'connectors': ${(e as Error).message}`, o.pos, 'connector');
      }
      if (!Array.isArray(parsed)) throw new SqlError(`'connectors' must be a JSON array`, o.pos, 'connector');
      for (const c of parsed) {
        if (
          !c ||
          typeof c !== 'object' ||
          Array.isArray(c) ||
          c instanceof JsonNumberText ||
          !c.transport ||
          typeof c.transport !== 'object' ||
          typeof (c.transport as { name?: unknown }).name !== 'string'
        ) {
          throw new SqlError(`Each connector needs a "transport" with a "name"`, o.pos, 'connector');
        }
      }
      connectors = parsed as unknown as ConnectorDecl[];
    } else if (key === 'materialized') materialized = o.value.toLowerCase() === 'true';
    else if (key === 'emit_final') emitFinal = { value: o.value, pos: o.pos };
    else if (key === 'append_only') {
      /* accepted */
    } else throw new SqlError(`Unknown property '${o.key}'`, o.pos, 'unsupported');
  }
  return { connectors, materialized, emitFinal };
}

/** A connector configuration's values with each long non-integer literal (a JsonNumberText) a JS number, as JSON.parse reads it. */
function numbersOfConfig(v: JsonValue): JsonValue {
  if (v instanceof JsonNumberText) return Number(v.text);
  if (Array.isArray(v)) return v.map(numbersOfConfig);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersOfConfig(x)]));
  return v;
}

export function bindProgram(text: string, casing: Casing, nulls: 'low' | 'high' = 'low'): { program?: BoundProgram; errors: CompileError[] } {
  const errors: CompileError[] = [];
  const session = new CompileSession(text, nulls);
  const posAt = (offset: number): Pos => session.posAt(offset);
  const pre = prepass(text);
  for (const e of pre.errors) errors.push({ ...posAt(e.offset), message: e.message, kind: 'unsupported' });
  const env: Env = { casing, catalog: new Map(), ctes: new Map(), clock: {}, session, binders: { bindFrom, bindFromItem, emptyRowRel } };
  const tables: TableDef[] = [];
  const views: ViewDef[] = [];
  const lateStatements: Array<{ target: string[]; expr: string; pos: Pos }> = [];
  const userTypes = new UserTypes(casing, posAt);
  const functions = new UserFunctions(casing);
  for (const st of pre.statements) {
    const stPos = posAt(st.start);
    if (st.lateness) {
      lateStatements.push({ ...st.lateness, pos: stPos });
      continue;
    }
    if (st.createType) {
      const { name, quoted, offset, fields } = st.createType;
      try {
        userTypes.declare(name, quoted, offset, fields);
      } catch (e) {
        if (!(e instanceof SqlError)) throw e;
        errors.push({ message: e.message, line: e.pos.line, column: e.pos.column, kind: e.kind });
      }
      continue;
    }
    if (st.createFunction) {
      const f = st.createFunction;
      try {
        session.inStatement(userTypes.resolver(st.rowTypes), functions, () => functions.declare(f, posAt(f.offset), padTo(stPos), session, st.renamed));
      } catch (e) {
        if (!(e instanceof SqlError)) throw e;
        errors.push({ message: e.message, line: e.pos.line, column: e.pos.column, kind: e.kind });
      }
      continue;
    }
    let raw: unknown[];
    try {
      raw = parseRaw(padTo(stPos) + st.text);
    } catch (e) {
      const p = parserErrorPosition(e);
      const endPos = posAt(st.end);
      errors.push({ message: withWords(p.message, st.renamed), line: p.line ?? endPos.line, column: p.column ?? endPos.column, kind: 'syntax' });
      continue;
    }
    for (const r of raw) {
      try {
        const leftAsof = (st.leftAsof ?? []).map(([from, to]): [Pos, Pos] => [posAt(from), posAt(to)]);
        const ad = new Adapter(stPos, st.renamed, leftAsof);
        const s = ad.statement(r, st.local);
        session.inStatement(userTypes.resolver(st.rowTypes), functions, () => bindStatement(s, st.columnAttrs, env, tables, views));
      } catch (e) {
        if (e instanceof SqlError) errors.push({ message: e.message, line: e.pos.line, column: e.pos.column, kind: e.kind });
        else if (e instanceof IntOverflow)
          errors.push({ message: e.message, line: stPos.line, column: stPos.column, kind: 'type' }); // a constant (DEFAULT, LATENESS) out of its type
        else errors.push({ message: `internal error: ${(e as Error).message}`, line: stPos.line, column: stPos.column, kind: 'internal' });
      }
    }
  }
  for (const l of lateStatements) {
    errors.push({ message: 'LATENESS statements on views are not supported; declare LATENESS on the table column', line: l.pos.line, column: l.pos.column, kind: 'unsupported' });
  }
  if (errors.length) return { errors };
  limitRanks([...tables.map((t) => t.node), ...views.filter((v) => !v.local).map((v) => v.node)]);
  return { program: { tables, views, usesNow: env.clock.node !== undefined }, errors };
}

function bindStatement(s: Statement, attrs: ColumnAttr[], env: Env, tables: TableDef[], views: ViewDef[]): void {
  const name = canon(s.name, env.casing);
  if (env.catalog.has(name)) throw new SqlError(`Duplicate declaration of '${s.name.value}'`, s.name.pos, 'duplicate');
  if (s.k === 'createTable') {
    const seen = new Set<string>();
    const columns: TableColumn[] = s.columns.map((c) => {
      const cn = canon(c.name, env.casing);
      if (seen.has(cn)) throw new SqlError(`Duplicate column '${c.name.value}'`, c.pos, 'duplicate');
      seen.add(cn);
      const t = parseTypeAt(c.type, c.pos, env.session);
      if (t.kind === 'INTERVAL_DT') throw new SqlError('INTERVAL columns are not allowed in tables', c.pos, 'type');
      return { name: cn, quoted: c.name.quoted, type: withNull(t, !c.notNull), dflt: null };
    });
    const pk: number[] = [];
    for (const p of s.primaryKey) {
      const cn = canon(p, env.casing);
      const i = columns.findIndex((c) => c.name === cn);
      if (i < 0) throw new SqlError(`PRIMARY KEY column '${p.value}' not found`, p.pos, 'unknown_column');
      if (pk.includes(i)) continue;
      if (columns[i]!.type.nullable) throw new SqlError(`PRIMARY KEY cannot be nullable: PRIMARY KEY column '${p.value}' has type ${typeToString(columns[i]!.type)}, which is nullable`, p.pos, 'type');
      pk.push(i);
    }
    const { connectors, materialized } = parseConnectors(s.options);
    const lateness = new Map<number, number>();
    const scope = new Scope([], env.casing);
    for (const a of attrs) {
      const colName = a.column.startsWith('"') ? a.column.slice(1, -1).replace(/""/g, '"') : env.casing === 'upper' ? a.column.toUpperCase() : a.column.toLowerCase();
      const i = columns.findIndex((c) => c.name === colName);
      const apos = env.session.posAt(a.start);
      if (i < 0) throw new SqlError(`${a.kind} on unknown column ${a.column}`, apos, 'unknown_column');
      const raw = parseRaw(`SELECT ${a.expr}`) as Array<{ Query: { body: { Select: { projection: unknown[] } } } }>;
      const ad = new Adapter(apos);
      const item = ad.selectItem(raw[0]!.Query.body.Select.projection[0]);
      if (item.k !== 'expr') throw new SqlError(`Bad ${a.kind} expression`, apos, 'syntax');
      // Feldera's words for a DEFAULT that reads the clock
      if (a.kind === 'DEFAULT' && containsNow(item.expr)) throw new SqlError(`Default value for column '${a.column.replace(/^"|"$/g, '')}' must be a compile-time constant`, apos, 'type');
      const b = bindExpr(item.expr, { scope, session: env.session, clause: a.kind });
      if (!b.constant) throw new SqlError(`${a.kind} must be a constant`, apos, 'type');
      if (a.kind === 'DEFAULT') {
        columns[i]!.dflt = b.type.kind === 'NULL' ? null : coerce(b, columns[i]!.type, apos).fn([]);
      } else if (a.kind === 'LATENESS') {
        const ct = columns[i]!.type;
        let v = b.fn([]) as number;
        if (ct.kind === 'DATE' && b.type.kind === 'INTERVAL_DT') v = Math.floor(v / 86_400_000);
        else if (ct.kind === 'TIMESTAMP' && b.type.kind !== 'INTERVAL_DT') throw new SqlError('LATENESS of a TIMESTAMP column must be a day-time INTERVAL', apos, 'type');
        else if (ct.kind !== 'TIMESTAMP' && ct.kind !== 'DATE' && typeof v !== 'number') throw new SqlError('Unsupported LATENESS type', apos, 'type');
        lateness.set(i, v);
      }
      // WATERMARK: accepted, no effect
    }
    const planCols = columns.map((c, i) => ({ name: c.name, type: c.type, wm: lateness.has(i) ? { table: name, col: i, slack: 1 } : undefined }));
    const n = env.session.node({ kind: 'table', inputs: [], columns: planCols, table: name });
    const def: TableDef = {
      name,
      quoted: s.name.quoted,
      columns,
      pk,
      node: n,
      materialized: materialized || pk.length > 0,
      declaredMaterialized: materialized,
      connectors,
      lateness,
      line: s.pos.line,
    };
    tables.push(def);
    env.catalog.set(name, { name, node: n, columns: planCols });
    return;
  }
  // view
  const q = bindQuery(s.query, { ...env, ctes: new Map() });
  let columns = q.columns;
  let columnQuoted = columns.map(() => false);
  if (s.columns.length) {
    if (s.columns.length !== columns.length) throw new SqlError(`List of column aliases must have same degree as the query (${columns.length})`, s.name.pos, 'type');
    columns = columns.map((c, i) => ({ ...c, name: canon(s.columns[i]!, env.casing) }));
    columnQuoted = s.columns.map((c) => c.quoted);
  }
  for (const c of columns) {
    if (!s.local && (c.type.kind === 'INTERVAL_DT' || c.type.kind === 'INTERVAL_YM'))
      throw new SqlError(`View column ${c.name} has type INTERVAL, which is not allowed in outputs`, s.name.pos, 'type');
    if (c.type.kind === 'NULL') c.type = { ...c.type };
  }
  const { connectors, materialized, emitFinal } = parseConnectors(s.options);
  // the output node keeps view column names
  const vn: PlanNode = q.node;
  let final: ViewDef['emitFinal'];
  if (emitFinal) {
    const v = emitFinal.value.trim();
    const idx = /^\d+$/.test(v) ? Number(v) : columns.findIndex((c) => c.name === canon({ value: v, quoted: false, pos: emitFinal.pos }, env.casing) || c.name === v);
    if (idx < 0 || idx >= columns.length) throw new SqlError(`emit_final: column '${v}' not found in view ${name}`, emitFinal.pos, 'unknown_column');
    const wm = vn.columns[idx]?.wm;
    if (!wm)
      throw new SqlError(
        `emit_final: column '${columns[idx]!.name}' has no watermark (it must come from a table column with LATENESS, directly, through TUMBLE/HOP or TIMESTAMP_TRUNC)`,
        emitFinal.pos,
        'unsupported',
      );
    final = { col: idx, wm };
  }
  views.push({ name, quoted: s.name.quoted, columns, columnQuoted, node: vn, materialized: s.materialized || materialized, local: s.local, connectors, line: s.pos.line, emitFinal: final });
  env.catalog.set(name, { name, node: vn, columns });
}
