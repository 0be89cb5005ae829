/** Name resolution: scopes of columns, identifier casing. */
import { SqlError, type Ident, type Pos } from '../parse/ast.js';
import type { SqlType } from '../types/types.js';

export type Casing = 'upper' | 'lower';

/** The one casing function: unquoted identifiers are folded, quoted ones keep their spelling. */
export function canon(id: Ident, casing: Casing): string {
  if (id.quoted) return id.value;
  return casing === 'upper' ? id.value.toUpperCase() : id.value.toLowerCase();
}

export interface ScopeColumn {
  /** Canonical name of the relation (alias) this column comes from, if any. */
  rel?: string;
  name: string;
  type: SqlType;
  /** Index in the row. */
  idx: number;
  /** Hidden columns (e.g. the right copy of a USING column) are not expanded by `*`. */
  hidden?: boolean;
}

export class Scope {
  constructor(
    public readonly cols: ScopeColumn[],
    public readonly casing: Casing,
  ) {}

  get width(): number {
    return this.cols.length;
  }

  /** Resolve `a`, `t.a` (or `s.t.a`); throws an unknown/ambiguous column error. */
  resolve(parts: Ident[], pos: Pos): ScopeColumn {
    const found = this.tryResolve(parts, pos);
    if (!found) {
      const text = parts.map((p) => p.value).join('.');
      if (parts.length > 1 && !this.cols.some((c) => c.rel === canon(parts[parts.length - 2]!, this.casing))) {
        throw new SqlError(`Table '${parts[parts.length - 2]!.value}' not found`, pos, 'unknown_table');
      }
      if (parts.length > 1) throw new SqlError(`Column '${parts[parts.length - 1]!.value}' not found in table '${parts[parts.length - 2]!.value}'`, pos, 'unknown_column');
      throw new SqlError(`Column '${text}' not found in any table`, pos, 'unknown_column');
    }
    return found;
  }

  /**
   * Resolve a column followed by ROW field names (`t.c.f1`, `c.f1.f2`): the whole name as a column
   * first, then ever shorter prefixes that name a ROW column; undefined when none does.
   */
  tryResolvePath(parts: Ident[], pos: Pos): { col: ScopeColumn; fields: Ident[] } | undefined {
    const whole = this.tryResolve(parts, pos);
    if (whole) return { col: whole, fields: [] };
    for (let n = parts.length - 1; n >= 1; n--) {
      const c = this.tryResolve(parts.slice(0, n), pos);
      if (c?.type.kind === 'ROW') return { col: c, fields: parts.slice(n) };
    }
    return undefined;
  }

  tryResolve(parts: Ident[], pos: Pos): ScopeColumn | undefined {
    const name = canon(parts[parts.length - 1]!, this.casing);
    let matches: ScopeColumn[];
    if (parts.length === 1) {
      matches = this.cols.filter((c) => c.name === name && !c.hidden);
      if (matches.length === 0) matches = this.cols.filter((c) => c.name === name);
    } else {
      const rel = canon(parts[parts.length - 2]!, this.casing);
      matches = this.cols.filter((c) => c.name === name && c.rel === rel);
    }
    if (matches.length > 1) throw new SqlError(`Column '${parts.map((p) => p.value).join('.')}' is ambiguous`, pos, 'ambiguous_column');
    return matches[0];
  }
}
