/** Map the parser's data_type JSON to a SqlType. */
import { mk, withNull, type SqlType } from './types.js';
import { isLongQualifier, qualifierFromParser } from './interval-text.js';

export class TypeSyntaxError extends Error {}

/** Finds a user type (CREATE TYPE, or an anonymous ROW's stand-in name) by its name as written. */
export type TypeResolver = (name: string, quoted: boolean) => SqlType | undefined;

function variant(o: unknown): [string, unknown] {
  if (typeof o === 'string') return [o, undefined];
  const k = Object.keys(o as object)[0]!;
  return [k, (o as Record<string, unknown>)[k]];
}

function lengthOf(payload: unknown): number | undefined {
  if (payload && typeof payload === 'object' && 'IntegerLength' in payload) {
    return (payload as { IntegerLength: { length: number } }).IntegerLength.length;
  }
  if (typeof payload === 'number') return payload;
  return undefined;
}

const SCHEMA_UNSIGNED: Record<string, 'UTINYINT' | 'USMALLINT' | 'UINTEGER' | 'UBIGINT'> = { UTINYINT: 'UTINYINT', USMALLINT: 'USMALLINT', UINTEGER: 'UINTEGER', UBIGINT: 'UBIGINT' };

/** The SqlType of a parsed data_type; `userTypes` finds names that are not built-in types (CREATE TYPE, anonymous ROWs). */
export function dataTypeToSql(dt: unknown, userTypes?: TypeResolver): SqlType {
  const [k, p] = variant(dt);
  switch (k) {
    case 'Boolean':
    case 'Bool':
      return mk('BOOLEAN');
    case 'TinyInt':
    case 'Int8' /* generic dialect maps INT8 to 8 bytes */:
      return k === 'Int8' ? mk('BIGINT') : mk('TINYINT');
    case 'SmallInt':
    case 'Int2':
      return mk('SMALLINT');
    case 'Int':
    case 'Integer':
    case 'Int4':
    case 'Signed':
      return mk('INTEGER');
    case 'BigInt':
    case 'Int64':
      return mk('BIGINT');
    case 'TinyIntUnsigned':
    case 'UTinyInt':
      return mk('UTINYINT');
    case 'SmallIntUnsigned':
    case 'USmallInt':
      return mk('USMALLINT');
    case 'IntUnsigned':
    case 'IntegerUnsigned':
    case 'Unsigned':
    case 'UInt':
    case 'UInteger':
      return mk('UINTEGER');
    case 'BigIntUnsigned':
    case 'UBigInt':
      return mk('UBIGINT');
    case 'Decimal':
    case 'Numeric':
    case 'Dec': {
      let precision = 28;
      let scale = 0;
      if (p && typeof p === 'object') {
        const [pk, pv] = variant(p);
        if (pk === 'PrecisionAndScale') [precision, scale] = pv as [number, number];
        else if (pk === 'Precision') precision = pv as number;
      }
      if (scale > precision) throw new TypeSyntaxError(`DECIMAL scale ${scale} exceeds precision ${precision}`);
      return mk('DECIMAL', true, { precision, scale });
    }
    case 'Real':
    case 'Float4':
    case 'Float32':
      return mk('REAL');
    case 'Double':
    case 'DoublePrecision':
    case 'Float8':
    case 'Float64':
      return mk('DOUBLE');
    case 'Float':
      throw new TypeSyntaxError('FLOAT is ambiguous: use REAL or DOUBLE');
    case 'Varchar':
    case 'CharVarying':
    case 'CharacterVarying':
    case 'Nvarchar': {
      const n = lengthOf(p);
      return mk('VARCHAR', true, n === undefined ? {} : { precision: n });
    }
    case 'String':
    case 'Text':
      return mk('VARCHAR');
    case 'Char':
    case 'Character':
      return mk('CHAR', true, { precision: lengthOf(p) ?? 1 });
    case 'Date':
      return mk('DATE');
    case 'Time':
      return mk('TIME');
    case 'Timestamp':
    case 'Datetime':
      // TIMESTAMP WITH TIME ZONE: the parser's second parameter
      return Array.isArray(p) && p[1] === 'WithTimeZone' ? mk('TIMESTAMP', true, { tz: true }) : mk('TIMESTAMP');
    case 'Interval': {
      // INTERVAL DAY TO SECOND ...: the parser's `fields` (HourToSecond, Day ...); the qualifier decides the kind
      const fields = p && typeof p === 'object' ? (p as { fields?: unknown }).fields : undefined;
      const qualifier = typeof fields === 'string' ? qualifierFromParser(fields) : undefined;
      if (typeof fields === 'string' && !qualifier) throw new TypeSyntaxError(`unsupported interval qualifier ${fields}`);
      if (!qualifier) return mk('INTERVAL_DT');
      return mk(isLongQualifier(qualifier) ? 'INTERVAL_YM' : 'INTERVAL_DT', true, { qualifier });
    }
    case 'Array': {
      const [ak, av] = variant(p);
      if (ak === 'SquareBracket' || ak === 'AngleBracket') {
        const inner = Array.isArray(av) ? av[0] : av;
        return mk('ARRAY', true, { elem: dataTypeToSql(inner, userTypes) });
      }
      throw new TypeSyntaxError('unsupported ARRAY form');
    }
    case 'Map': {
      const [kt, vt] = p as [unknown, unknown];
      return mk('MAP', true, { key: withNull(dataTypeToSql(kt, userTypes), false), elem: dataTypeToSql(vt, userTypes) });
    }
    case 'Uuid':
      return mk('UUID');
    case 'Varbinary':
    case 'Bytea':
    case 'Blob':
      return mk('VARBINARY');
    case 'Binary':
      return mk('VARBINARY', true, { precision: lengthOf(p) ?? 1 });
    case 'Custom': {
      const parts = ((p as [Array<Record<string, { value: string; quote_style?: string | null }>>])[0] ?? []).map((x) => Object.values(x)[0]);
      const name = parts.map((x) => x?.value ?? '').join('.');
      if (name.toUpperCase() === 'VARIANT' && !parts[0]?.quote_style) return mk('VARIANT');
      const user = parts.length === 1 ? userTypes?.(name, !!parts[0]?.quote_style) : undefined;
      if (user) return withNull(user, true);
      // the unsigned kinds' names as schemas print them (typeToString; Feldera's UTINYINT ... UBIGINT), so a
      // schema's column type text reads back (the ad-hoc query declares the pipeline's relations from it)
      const unsigned = parts.length === 1 && !parts[0]?.quote_style ? SCHEMA_UNSIGNED[name.toUpperCase()] : undefined;
      if (unsigned) return mk(unsigned);
      throw new TypeSyntaxError(`Unknown type '${name}'`);
    }
    default:
      throw new TypeSyntaxError(`unsupported type ${k.toUpperCase()}`);
  }
}
