/**
 * Relation schemas for the pure-module tests: hand-built ones (plain data, as the engine returns them), and
 * tables of a compiled program with their input bindings (the engine's own value codec).
 */
import { compile, type ColumnSchema, type CompiledProgram, type RelationSchema } from '../../../../src/engine/index.js';
import { TableBinding } from '../../../../src/services/pipelines/worker/ingress/binding.js';

export function col(name: string, type: string, nullable = true, caseSensitive = false): ColumnSchema {
  return { name, type, nullable, caseSensitive };
}

export function table(name: string, columns: ColumnSchema[], primaryKey: string[] = []): RelationSchema {
  return { name, caseSensitive: false, columns, primaryKey, materialized: true, declaredMaterialized: false, local: false, connectors: [], line: 1 };
}

/** A program compiled from `sql` (output names upper case); throws on a compile error. */
export function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

/** The input binding of table `name` of a program, as a running pipeline builds it. */
export function bindingOf(p: CompiledProgram, name: string): TableBinding {
  const rel = p.relation(name)!;
  return new TableBinding(rel, p.inputCodec(name)!);
}

/**
 * The programs behind tableBinding, by SQL text: each binding is new (its own codec and state), the program
 * is compiled once (the property tests make a binding per parse: thousands of compiles of the same table).
 */
const compiledForBinding = new Map<string, CompiledProgram>();

/** The input binding of the one table that `sql` declares. */
export function tableBinding(sql: string): TableBinding {
  let p = compiledForBinding.get(sql);
  if (!p) compiledForBinding.set(sql, (p = program(sql)));
  return bindingOf(p, p.tables[0]!.name);
}

/** W3b's t1(c1 integer, c2 bool, c3 varchar), output names upper case. */
export const W3B = program('create table t1(c1 integer, c2 bool, c3 varchar);');
export const T1 = W3B.relation('T1')!;
/** W4a's t1(id bigint not null, s varchar not null, primary key (id)). */
export const W4A = program('create table t1(id bigint not null, s varchar not null, primary key (id));');
export const PK = W4A.relation('T1')!;
