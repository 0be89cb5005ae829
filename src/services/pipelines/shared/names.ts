/**
 * Relation and column names as the API sees them. Unquoted names in URLs and JSON keys match unquoted
 * SQL identifiers case-insensitively; quoted names (`"TaBle1"` in a URL) match exactly.
 */
import type { ColumnSchema, CompiledProgram, RelationSchema } from '../../../engine/index.js';

export type RelationKind = 'table' | 'view' | 'any';

/** What name resolution needs of a program: its tables and views (the worker sends these to the host). */
export type ProgramSchema = Pick<CompiledProgram, 'tables' | 'views'>;

export function findRelation(program: ProgramSchema, segment: string, kind: RelationKind): RelationSchema | undefined {
  const candidates: RelationSchema[] = [];
  if (kind !== 'view') candidates.push(...program.tables);
  if (kind !== 'table') candidates.push(...program.views.filter((v) => !v.local));
  if (segment.length >= 2 && segment.startsWith('"') && segment.endsWith('"')) {
    const exact = segment.slice(1, -1).replace(/""/g, '"');
    return candidates.find((r) => r.name === exact);
  }
  const lower = segment.toLowerCase();
  return candidates.find((r) => !r.caseSensitive && r.name.toLowerCase() === lower) ?? candidates.find((r) => r.caseSensitive && r.name === segment);
}

/** Maps input JSON keys to columns: exact for quoted columns, case-insensitive for unquoted ones. */
export class ColumnIndex {
  private readonly exact = new Map<string, number>();
  private readonly folded = new Map<string, number>();

  constructor(readonly columns: ColumnSchema[]) {
    columns.forEach((c, i) => {
      this.exact.set(c.name, i);
      if (!c.caseSensitive && !this.folded.has(c.name.toLowerCase())) this.folded.set(c.name.toLowerCase(), i);
    });
  }

  lookup(key: string): number | undefined {
    const i = this.exact.get(key);
    if (i !== undefined) return i;
    return this.folded.get(key.toLowerCase());
  }
}

/**
 * The name to hand the engine for a relation: quoted (exact) for case-sensitive names, so that a quoted
 * "TaBle1" is never taken for an unquoted table1 by the engine's case-insensitive lookup.
 */
export function engineName(rel: RelationSchema): string {
  return rel.caseSensitive ? `"${rel.name.replace(/"/g, '""')}"` : rel.name;
}
