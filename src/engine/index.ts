/** The incremental SQL engine: entry point. */
export * from './api.js';
export { RowBatch, BLOCK_ROWS } from './batch.js';
import type { CircuitOptions, CircuitStatePart, CompileResult, CompileOptions, CompiledProgram, RelationSchema } from './api.js';
import { bindProgram } from './bind/program.js';
import { EngineCircuit } from './circuit.js';
import { typeToString } from './types/types.js';
import { resolveName } from './names.js';
import { inputCodec } from './codec.js';
import { planNodes, retentionRules } from './plan/retention.js';

export function compile(sql: string, options: CompileOptions = {}): CompileResult {
  const casing = options.outputCase ?? 'upper';
  if (typeof sql !== 'string') return { ok: false, errors: [{ message: 'program must be a string', line: 1, column: 1, kind: 'syntax' }] };
  const { program, errors } = bindProgram(sql, casing, options.nulls ?? 'low');
  if (!program) return { ok: false, errors };
  const fold = (s: string): string => (casing === 'upper' ? s.toUpperCase() : s.toLowerCase());
  // tables that forget rows behind their LATENESS waterline keep no whole contents to read (plan/retention.ts)
  const forgetful = retentionRules(program.tables, planNodes([...program.tables.map((t) => t.node), ...program.views.map((v) => v.node)]));
  const sensitive = (name: string, quoted: boolean): boolean => quoted && name !== fold(name);
  const tables: RelationSchema[] = program.tables.map((t) => ({
    name: t.name,
    caseSensitive: sensitive(t.name, t.quoted),
    columns: t.columns.map((c) => ({ name: c.name, caseSensitive: sensitive(c.name, c.quoted), type: typeToString(c.type), nullable: c.type.nullable })),
    primaryKey: t.pk.map((i) => t.columns[i]!.name),
    materialized: !forgetful.has(t.name),
    declaredMaterialized: t.declaredMaterialized,
    local: false,
    connectors: t.connectors,
    line: t.line,
  }));
  const views: RelationSchema[] = program.views.map((v) => ({
    name: v.name,
    caseSensitive: sensitive(v.name, v.quoted),
    columns: v.columns.map((c) => ({ name: c.name, caseSensitive: c.name !== fold(c.name), type: typeToString(c.type), nullable: c.type.nullable })),
    primaryKey: [],
    materialized: v.materialized,
    declaredMaterialized: v.materialized,
    local: v.local,
    connectors: v.connectors,
    line: v.line,
  }));
  const all = [...tables, ...views];
  const compiled: CompiledProgram = {
    tables,
    views,
    relation(name: string): RelationSchema | undefined {
      return resolveName(all, name, casing);
    },
    usesNow: program.usesNow,
    newCircuit(options?: CircuitOptions) {
      return new EngineCircuit(program, casing, options?.guard, options?.clock);
    },
    restoreCircuit(parts: Iterable<CircuitStatePart>, options?: CircuitOptions) {
      const circuit = new EngineCircuit(program, casing, options?.guard, options?.clock);
      circuit.importState(parts);
      return circuit;
    },
    inputCodec(table: string) {
      const rel = resolveName(tables, table, casing);
      const bound = rel && program.tables[tables.indexOf(rel)];
      return bound ? inputCodec(bound.columns) : undefined;
    },
    valueCodec(relation: string) {
      const rel = resolveName(all, relation, casing);
      if (!rel) return undefined;
      const i = tables.indexOf(rel);
      return inputCodec(i >= 0 ? program.tables[i]!.columns : program.views[views.indexOf(rel)]!.columns);
    },
  };
  return { ok: true, program: compiled };
}
export { jsonText, parseJsonText } from './json-text.js';
export { stepRowsBuilt } from './step-guard.js';
export { MAX_VALUE_SIZE } from './types/value-limits.js';
export { plainTimestampLength, writeTimestampBytes } from './types/datetime.js';
