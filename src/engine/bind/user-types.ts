/**
 * User-defined types: `CREATE TYPE t AS (f1 INT, f2 STRING)` and anonymous `ROW(...)` column types, from
 * the pre-pass's type syntax (parse/row-types.ts) to ROW SqlTypes. Rules: a type is known once declared
 * (so a type cannot refer to itself or to a later one: recursive types are an "Unknown type" error at
 * the name); type names are cased as other identifiers (quoted exactly, unquoted folded); field names
 * as column names; a field is nullable unless NOT NULL. Errors carry the line and column of the name.
 */
import { parseRaw } from '../parse/adapter.js';
import { SqlError, type Pos } from '../parse/ast.js';
import type { FieldSyntax, TypeSyntax } from '../parse/row-types.js';
import { dataTypeToSql, TypeSyntaxError, type TypeResolver } from '../types/parse-type.js';
import { mk, withNull, type RowField, type SqlType } from '../types/types.js';
import { canon, type Casing } from './scope.js';

export class UserTypes {
  private readonly named = new Map<string, SqlType>();

  constructor(
    private readonly casing: Casing,
    private readonly posAt: (offset: number) => Pos,
  ) {}

  private fold(name: string, quoted: boolean): string {
    return canon({ value: name, quoted, pos: { line: 0, column: 0 } }, this.casing);
  }

  /** Declares `CREATE TYPE name AS (fields)`. */
  declare(name: string, quoted: boolean, offset: number, fields: FieldSyntax[]): void {
    const key = this.fold(name, quoted);
    if (this.named.has(key)) throw new SqlError(`Duplicate declaration of type '${name}'`, this.posAt(offset), 'duplicate');
    const t = this.row(fields, this.resolver());
    this.named.set(key, { ...t, typeName: key });
  }

  /** Resolves declared type names, and (first) the stand-in names of one statement's anonymous ROW types. */
  resolver(anonymous?: Map<string, FieldSyntax[]>): TypeResolver {
    const cache = new Map<string, SqlType>();
    const resolve: TypeResolver = (name, quoted) => {
      const fields = quoted ? undefined : anonymous?.get(name);
      if (fields) {
        let t = cache.get(name);
        if (!t) cache.set(name, (t = this.row(fields, resolve)));
        return t;
      }
      return this.named.get(this.fold(name, quoted));
    };
    return resolve;
  }

  private row(fields: FieldSyntax[], resolve: TypeResolver): SqlType {
    const seen = new Set<string>();
    const out: RowField[] = fields.map((f) => {
      const name = this.fold(f.name, f.quoted);
      if (seen.has(name)) throw new SqlError(`Duplicate field '${f.name}'`, this.posAt(f.offset), 'duplicate');
      seen.add(name);
      return { name, quoted: f.quoted, type: withNull(this.type(f.type, resolve), !f.notNull) };
    });
    return mk('ROW', true, { fields: out });
  }

  private type(t: TypeSyntax, resolve: TypeResolver): SqlType {
    switch (t.k) {
      case 'row':
        return this.row(t.fields, resolve);
      case 'array':
        return mk('ARRAY', true, { elem: this.type(t.elem, resolve) });
      case 'map':
        return mk('MAP', true, { key: withNull(this.type(t.key, resolve), false), elem: this.type(t.value, resolve) });
      case 'user': {
        const found = resolve(t.name, t.quoted);
        if (!found) throw new SqlError(`Unknown type '${t.name}'`, this.posAt(t.offset), 'type');
        return withNull(found, true);
      }
      case 'builtin':
        return builtin(t.text, this.posAt(t.offset));
    }
  }
}

/** A built-in type written as text ('DECIMAL(5, 2)'), read by the SQL parser as a column type. */
function builtin(text: string, pos: Pos): SqlType {
  try {
    const raw = parseRaw(`CREATE TABLE _t (_c ${text})`) as Array<{ CreateTable: { columns: Array<{ data_type: unknown }> } }>;
    return dataTypeToSql(raw[0]!.CreateTable.columns[0]!.data_type);
  } catch (e) {
    if (e instanceof TypeSyntaxError) throw new SqlError(e.message, pos, 'type');
    throw new SqlError(`Invalid type '${text}'`, pos, 'type');
  }
}
