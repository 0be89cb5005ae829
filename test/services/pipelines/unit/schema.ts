/** Hand-built relation schemas for the pure-module tests (plain data, as the engine returns them). */
import type { ColumnSchema, RelationSchema } from '../../../../src/engine/index.js';

export function col(name: string, type: string, nullable = true, caseSensitive = false): ColumnSchema {
  return { name, type, nullable, caseSensitive };
}

export function table(name: string, columns: ColumnSchema[], primaryKey: string[] = []): RelationSchema {
  return { name, caseSensitive: false, columns, primaryKey, materialized: true, declaredMaterialized: false, local: false, connectors: [], line: 1 };
}

/** W3b's t1(c1 integer, c2 bool, c3 varchar), output names upper case. */
export const T1 = table('T1', [col('C1', 'INTEGER'), col('C2', 'BOOLEAN'), col('C3', 'VARCHAR')]);
/** W4a's t1(id bigint not null, s varchar not null, primary key (id)). */
export const PK = table('T1', [col('ID', 'BIGINT', false), col('S', 'VARCHAR', false)], ['ID']);
