/**
 * SQL types of the engine and their internal value representations.
 *
 * Internal values (rows are arrays of these):
 *   BOOLEAN            true | false
 *   TINYINT..BIGINT    number (integral) while a safe integer, bigint beyond ±(2^53 - 1): one form per value (int64.ts)
 *   UTINYINT..UBIGINT  the same, 0..2^n - 1 (TINYINT/SMALLINT/INTEGER/BIGINT UNSIGNED; kinds named as Feldera's schema names them)
 *   DECIMAL(p,s)       bigint, scaled by 10^s (the scale is a static property of the type)
 *   REAL, DOUBLE       number
 *   VARCHAR/CHAR       string
 *   DATE               number: days since 1970-01-01
 *   TIME               number: nanoseconds since midnight
 *   TIMESTAMP          number: milliseconds since 1970-01-01 00:00:00 (no time zone)
 *   INTERVAL (short)   number: milliseconds;  INTERVAL (long, YEAR/MONTH) number: months
 *   ARRAY              JS array of element values
 *   MAP<K, V>          JS array of [key, value] pairs sorted by key (unique keys)
 *   VARIANT            string: the value's JSON text, object keys sorted ('null' is the VARIANT null)
 *   VARBINARY/BINARY   string: lower-case hex of the bytes (ordered as the bytes are)
 *   UUID               string: the canonical lower-case hyphenated text (ordered as the bytes are; uuid.ts)
 *   ROW(f1 T1, ...)    JS array of the field values in field order (a NULL row is null; a row of NULLs is [null, ...])
 *   NULL               null (for every type)
 */

export type TypeKind =
  | 'BOOLEAN'
  | 'TINYINT'
  | 'SMALLINT'
  | 'INTEGER'
  | 'BIGINT'
  | 'UTINYINT'
  | 'USMALLINT'
  | 'UINTEGER'
  | 'UBIGINT'
  | 'DECIMAL'
  | 'REAL'
  | 'DOUBLE'
  | 'VARCHAR'
  | 'CHAR'
  | 'DATE'
  | 'TIME'
  | 'TIMESTAMP'
  | 'INTERVAL_DT'
  | 'INTERVAL_YM'
  | 'ARRAY'
  | 'MAP'
  | 'VARIANT'
  | 'VARBINARY'
  | 'UUID'
  | 'ROW'
  | 'NULL';

/** A field of a ROW type: its output name (cased as column names are), whether it was quoted, its type. */
export interface RowField {
  name: string;
  quoted: boolean;
  type: SqlType;
}

export interface SqlType {
  kind: TypeKind;
  /** DECIMAL precision / VARCHAR,CHAR length (undefined = unlimited). */
  precision?: number;
  /** DECIMAL scale. */
  scale?: number;
  /** ARRAY element type; MAP value type. */
  elem?: SqlType;
  /** MAP key type. */
  key?: SqlType;
  /** ROW fields, in order. */
  fields?: RowField[];
  /** ROW: the user type's name (CREATE TYPE), when it has one. */
  typeName?: string;
  /** INTERVAL: its qualifier ('DAY', 'HOUR TO SECOND', 'YEAR TO MONTH' ...), which only decides its text (interval-text.ts). */
  qualifier?: string;
  nullable: boolean;
}

export const INTEGER_KINDS: ReadonlySet<TypeKind> = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT']);
export const UNSIGNED_KINDS: ReadonlySet<TypeKind> = new Set(['UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT']);
export const isUnsigned = (t: SqlType): boolean => UNSIGNED_KINDS.has(t.kind);
export const isInteger = (t: SqlType): boolean => INTEGER_KINDS.has(t.kind);
export const isFloat = (t: SqlType): boolean => t.kind === 'REAL' || t.kind === 'DOUBLE';
export const isDecimal = (t: SqlType): boolean => t.kind === 'DECIMAL';
export const isNumeric = (t: SqlType): boolean => isInteger(t) || isFloat(t) || isDecimal(t) || t.kind === 'NULL';
export const isString = (t: SqlType): boolean => t.kind === 'VARCHAR' || t.kind === 'CHAR';
export const isTemporal = (t: SqlType): boolean => t.kind === 'DATE' || t.kind === 'TIME' || t.kind === 'TIMESTAMP';
export const isInterval = (t: SqlType): boolean => t.kind === 'INTERVAL_DT' || t.kind === 'INTERVAL_YM';

export function mk(kind: TypeKind, nullable = true, extra: Partial<SqlType> = {}): SqlType {
  return { kind, nullable, ...extra };
}

export function withNull(t: SqlType, nullable: boolean): SqlType {
  return t.nullable === nullable ? t : { ...t, nullable };
}

/** Width rank of the integer types; an unsigned type ranks with its signed counterpart (intResultKind breaks the tie). */
export const INT_RANK: Record<string, number> = { TINYINT: 1, SMALLINT: 2, INTEGER: 3, BIGINT: 4, UTINYINT: 1, USMALLINT: 2, UINTEGER: 3, UBIGINT: 4 };

/** The integer type of an operation on two integer types (Feldera): the wider one; of equal widths, the unsigned one. */
export function intResultKind(a: TypeKind, b: TypeKind): TypeKind {
  const ra = INT_RANK[a]!;
  const rb = INT_RANK[b]!;
  if (ra !== rb) return ra > rb ? a : b;
  return UNSIGNED_KINDS.has(b) ? b : a;
}

/** Precision of an integer type when seen as a DECIMAL. */
export function intDigits(t: SqlType): number {
  switch (t.kind) {
    case 'TINYINT':
    case 'UTINYINT':
      return 3;
    case 'SMALLINT':
    case 'USMALLINT':
      return 5;
    case 'INTEGER':
    case 'UINTEGER':
      return 10;
    case 'UBIGINT':
      return 20;
    default:
      return 19;
  }
}

/** A type's name as SQL writes it, for messages (`TINYINT UNSIGNED` where schemas say UTINYINT). */
export function sqlTypeName(t: SqlType | TypeKind): string {
  const kind = typeof t === 'string' ? t : t.kind;
  return UNSIGNED_KINDS.has(kind) ? `${kind.slice(1)} UNSIGNED` : typeof t === 'string' ? t : typeToString(t);
}

/** SQL text of a type, as shown in schemas. */
export function typeToString(t: SqlType): string {
  switch (t.kind) {
    case 'DECIMAL':
      return `DECIMAL(${t.precision ?? 28}, ${t.scale ?? 0})`;
    case 'VARCHAR':
      return t.precision === undefined ? 'VARCHAR' : `VARCHAR(${t.precision})`;
    case 'CHAR':
      return `CHAR(${t.precision ?? 1})`;
    case 'ARRAY':
      return `${typeToString(t.elem!)} ARRAY`;
    case 'MAP':
      return `MAP<${typeToString(t.key!)}, ${typeToString(t.elem!)}>`;
    case 'VARBINARY':
      return t.precision === undefined ? 'VARBINARY' : `BINARY(${t.precision})`;
    case 'ROW':
      return `ROW(${t.fields!.map((f) => `"${f.name.replace(/"/g, '""')}" ${typeToString(f.type)}${f.type.nullable ? '' : ' NOT NULL'}`).join(', ')})`;
    case 'INTERVAL_DT':
    case 'INTERVAL_YM':
      return 'INTERVAL';
    default:
      return t.kind;
  }
}

/** The common type of two types for comparison, UNION, CASE, COALESCE; undefined when incompatible. */
export function commonType(a: SqlType, b: SqlType): SqlType | undefined {
  const nullable = a.nullable || b.nullable;
  if (a.kind === 'NULL') return withNull(b, true);
  if (b.kind === 'NULL') return withNull(a, true);
  if (isNumeric(a) && isNumeric(b)) {
    if (isFloat(a) || isFloat(b)) return mk('DOUBLE', nullable);
    if (isDecimal(a) || isDecimal(b)) {
      const sa = a.scale ?? 0;
      const sb = b.scale ?? 0;
      const ia = isDecimal(a) ? (a.precision ?? 28) - sa : intDigits(a);
      const ib = isDecimal(b) ? (b.precision ?? 28) - sb : intDigits(b);
      const s = Math.max(sa, sb);
      return mk('DECIMAL', nullable, { precision: Math.min(38, Math.max(ia, ib) + s), scale: s });
    }
    return mk(intResultKind(a.kind, b.kind), nullable);
  }
  // a string compared with a UUID is read as a UUID (Feldera's uuid.md)
  if ((a.kind === 'UUID' && isString(b)) || (isString(a) && b.kind === 'UUID')) return mk('UUID', nullable);
  if (isString(a) && isString(b)) {
    if (a.kind === 'CHAR' && b.kind === 'CHAR') return mk('CHAR', nullable, { precision: Math.max(a.precision ?? 1, b.precision ?? 1) });
    const pa = a.precision;
    const pb = b.precision;
    return mk('VARCHAR', nullable, pa === undefined || pb === undefined ? {} : { precision: Math.max(pa, pb) });
  }
  if (a.kind === b.kind) {
    if (a.kind === 'ARRAY') {
      const e = commonType(a.elem!, b.elem!);
      return e ? mk('ARRAY', nullable, { elem: e }) : undefined;
    }
    if (a.kind === 'MAP') {
      const k = commonType(a.key!, b.key!);
      const e = commonType(a.elem!, b.elem!);
      return k && e ? mk('MAP', nullable, { key: k, elem: e }) : undefined;
    }
    if (a.kind === 'VARBINARY') return mk('VARBINARY', nullable);
    if (a.kind === 'ROW') {
      if (a.fields!.length !== b.fields!.length) return undefined;
      const fields = a.fields!.map((f, i) => ({ ...f, type: commonType(f.type, b.fields![i]!.type) }));
      if (fields.some((f) => !f.type)) return undefined;
      return mk('ROW', nullable, { fields: fields as RowField[], ...(a.typeName && a.typeName === b.typeName ? { typeName: a.typeName } : {}) });
    }
    return withNull(a, nullable);
  }
  // Calcite coerces string literals to dates/timestamps in comparisons: handled by the binder.
  return undefined;
}

export function sameType(a: SqlType, b: SqlType): boolean {
  return (
    a.kind === b.kind &&
    a.precision === b.precision &&
    a.scale === b.scale &&
    (a.kind !== 'ARRAY' || sameType(a.elem!, b.elem!)) &&
    (a.kind !== 'MAP' || (sameType(a.key!, b.key!) && sameType(a.elem!, b.elem!))) &&
    (a.kind !== 'ROW' || (a.fields!.length === b.fields!.length && a.fields!.every((f, i) => f.name === b.fields![i]!.name && sameType(f.type, b.fields![i]!.type))))
  );
}
