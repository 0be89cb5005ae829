/**
 * Binds the engine's compile() to the pipeline API: SQL errors become the reference's
 * SqlCompilerMessage list, a successful program becomes `program_info` (schema and connectors).
 */
import { compile, type CompileError, type CompiledProgram, type ConnectorDecl, type RelationSchema } from '../../../engine/index.js';
import { plainPart } from './connector-json.js';
import type { SqlCompilerMessage } from '../control/model.js';
import { GENERATING_TRANSPORTS, generatedConnectorErrors } from './connectors/generated-sources.js';

export type CompileOutcome = { ok: true; program: CompiledProgram; info: Record<string, unknown> } | { ok: false; messages: SqlCompilerMessage[] } | { ok: false; systemError: string };

const INPUT_TRANSPORTS = new Set(['url_input', 'file_input', ...GENERATING_TRANSPORTS]);
const OUTPUT_TRANSPORTS = new Set(['file_output']);
const FORMATS = new Set(['json', 'csv']);

export function compileProgram(code: string, outputCase: 'upper' | 'lower'): CompileOutcome {
  let result;
  try {
    result = compile(code, { outputCase });
  } catch (err) {
    return { ok: false, systemError: `The SQL compiler failed: ${(err as Error)?.message ?? String(err)}` };
  }
  if (!result.ok) return { ok: false, messages: result.errors.map((e) => toMessage(code, e)) };
  const program = result.program;
  const connectorErrors = validateConnectors(program);
  if (connectorErrors.length > 0) return { ok: false, messages: connectorErrors.map((e) => toMessage(code, e, 'ConnectorGenerationError')) };
  return { ok: true, program, info: programInfo(program) };
}

const ERROR_TYPES: Record<string, string> = {
  syntax: 'Error parsing SQL',
  unsupported: 'Not yet implemented',
  connector: 'ConnectorGenerationError',
};

export function toMessage(code: string, e: CompileError, errorType?: string): SqlCompilerMessage {
  const line = Math.max(1, e.line || 1);
  const column = Math.max(1, e.column || 1);
  return {
    start_line_number: line,
    start_column: column,
    end_line_number: line,
    end_column: column,
    warning: false,
    error_type: errorType ?? ERROR_TYPES[e.kind ?? ''] ?? 'Compilation error',
    message: PARSER_TRAP.test(e.message) ? parserTrapMessage(e.message) : e.message,
    snippet: snippet(code, line, column),
  };
}

/** A trap of the WASM parser (its stack ran out on deep nesting), not a SQL syntax error. */
const PARSER_TRAP = /^(memory access out of bounds|unreachable|Maximum call stack size exceeded)/;

function parserTrapMessage(trap: string): string {
  return `The SQL parser failed on this statement (${trap}): an expression or query is nested too deeply for it; split it into smaller views`;
}

function snippet(code: string, line: number, column: number): string | null {
  const lines = code.split(/\r?\n/);
  const text = lines[line - 1];
  if (text === undefined) return null;
  const prefix = `${String(line).padStart(5)}|`;
  let out = `${prefix}${text}\n${' '.repeat(prefix.length + column - 1)}^\n`;
  if (lines[line] !== undefined) out += `${String(line + 1).padStart(5)}|${lines[line]}\n`;
  return out;
}

function validateConnectors(program: CompiledProgram): CompileError[] {
  const errors: CompileError[] = [];
  const check = (rel: RelationSchema, allowed: Set<string>, kind: string) => {
    rel.connectors.forEach((c: ConnectorDecl, i) => {
      const where = `relation '${rel.name}', connector ${c.name ? `'${c.name}'` : `#${i + 1}`}`;
      const transport = c?.transport?.name;
      if (typeof transport !== 'string') {
        errors.push({ message: `${where}: property 'transport.name' is missing`, line: rel.line, column: 1 });
        return;
      }
      if (!allowed.has(transport)) {
        errors.push({
          message: `${where}: transport '${transport}' is not supported for ${kind}; supported: ${[...allowed].join(', ')}`,
          line: rel.line,
          column: 1,
        });
        return;
      }
      // the generating transports' configuration is checked on its own (generated-sources.ts)
      if (GENERATING_TRANSPORTS.has(transport)) return;
      const path = c.transport.config?.path;
      if (typeof path !== 'string' || path === '') {
        errors.push({ message: `${where}: property 'transport.config.path' is missing`, line: rel.line, column: 1 });
      }
      const format = c.format?.name ?? 'json';
      if (!FORMATS.has(format)) {
        errors.push({ message: `${where}: format '${format}' is not supported; supported: json, csv`, line: rel.line, column: 1 });
      }
    });
  };
  for (const t of program.tables) check(t, INPUT_TRANSPORTS, 'tables (input connectors)');
  for (const v of program.views) check(v, OUTPUT_TRANSPORTS, 'views (output connectors)');
  for (const e of generatedConnectorErrors(program.tables)) errors.push({ message: e.message, line: e.relation.line, column: 1 });
  return errors;
}

/** `columntype` of a Feldera Relation field, from the engine's type text. */
export function columnType(type: string, nullable: boolean): Record<string, unknown> {
  if (/^\s*ROW\s*\(/i.test(type) && /\)\s*$/.test(type) && !/\s+ARRAY\s*$/i.test(type)) return { type: 'STRUCT', nullable, fields: rowFields(type.trim().slice(type.trim().indexOf('(') + 1, -1)) };
  // the ARRAY and MAP forms before upper-casing: a ROW inside keeps its field names as they are
  const arr = /^(.*)\s+ARRAY$/is.exec(type.trim()) ?? /^(.*)\[\]$/s.exec(type.trim());
  if (arr) return { type: 'ARRAY', nullable, component: columnType(arr[1]!, true) };
  const map = /^MAP\s*<\s*(.+?)\s*,\s*(.+)\s*>$/is.exec(type.trim());
  const t = type.trim().toUpperCase();
  if (map) return { type: 'MAP', nullable, key: columnType(map[1]!, false), value: columnType(map[2]!, true) };
  const m = /^([A-Z ]+?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?$/.exec(t);
  if (!m) return { type: t, nullable };
  const base = m[1]!.trim() === 'TIMESTAMP WITH TIME ZONE' ? 'TIMESTAMP_TZ' : m[1]!.trim(); // Feldera's schema name
  const out: Record<string, unknown> = { type: base, nullable };
  if (m[2] !== undefined) out.precision = Number(m[2]);
  if (m[3] !== undefined) out.scale = Number(m[3]);
  else if (base === 'DECIMAL' || base === 'NUMERIC') out.scale = 0;
  return out;
}

/**
 * The fields of the engine's ROW type text, `"NAME" TYPE [NOT NULL], ...` (names always quoted, types
 * possibly ROWs and MAPs themselves), as Feldera's STRUCT fields.
 */
function rowFields(list: string): Record<string, unknown>[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(' || c === '<') depth++;
    else if (c === ')' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(list.slice(from));
  return parts.map((part) => {
    const m = /^\s*"((?:[^"]|"")*)"\s+(.*?)(\s+NOT NULL)?\s*$/s.exec(part)!;
    const name = m[1]!.replace(/""/g, '"');
    return { name, case_sensitive: name !== name.toUpperCase() && name !== name.toLowerCase(), columntype: columnType(m[2]!, !m[3]) };
  });
}

export function relationJson(rel: RelationSchema): Record<string, unknown> {
  return {
    name: rel.name,
    case_sensitive: rel.caseSensitive,
    fields: rel.columns.map((c) => ({ name: c.name, case_sensitive: c.caseSensitive, columntype: columnType(c.type, c.nullable) })),
    materialized: rel.declaredMaterialized,
    properties: rel.primaryKey.length > 0 ? { primary_key: rel.primaryKey } : {},
  };
}

/** `RELATION.name`, or as Feldera names a connector without a name: `RELATION.unnamed-{its index among the relation's connectors}`. */
export function connectorEndpointName(rel: RelationSchema, c: ConnectorDecl, i: number): string {
  return `${rel.name}.${c.name ?? `unnamed-${i}`}`;
}

function endpointConfig(rel: RelationSchema, c: ConnectorDecl): Record<string, unknown> {
  return {
    stream: rel.name,
    transport: plainPart(c.transport),
    format: c.format ? plainPart(c.format) : null,
    max_queued_records: typeof c.max_queued_records === 'number' ? c.max_queued_records : 1_000_000,
    paused: c.paused === true,
  };
}

export function programInfo(program: CompiledProgram): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  const outputs: Record<string, unknown> = {};
  for (const t of program.tables) t.connectors.forEach((c, i) => (inputs[connectorEndpointName(t, c, i)] = endpointConfig(t, c)));
  const views = program.views.filter((v) => !v.local);
  for (const v of views) v.connectors.forEach((c, i) => (outputs[connectorEndpointName(v, c, i)] = endpointConfig(v, c)));
  return {
    schema: { inputs: program.tables.map(relationJson), outputs: views.map(relationJson) },
    input_connectors: inputs,
    output_connectors: outputs,
  };
}
