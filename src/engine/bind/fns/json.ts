/**
 * VARIANT (JSON) functions (Feldera docs/sql/json.md): PARSE_JSON, TO_JSON, TYPEOF, VARIANTNULL,
 * JSON_OBJECT_KEYS, JSON_KEYS, JSON_EACH_<type>, VARIANT_MERGE and variant[key or index]. A VARIANT is held as
 * its JSON text (types/variant.ts), so its runtime type is the JSON kind: TYPEOF says BOOLEAN, BIGINT (integral
 * numbers), DECIMAL (other numbers), VARCHAR, ARRAY, MAP, or VARIANT for the VARIANT null; a VARIANT made by
 * CAST(x AS VARIANT) reports the JSON kind of x, not x's exact SQL type (Feldera keeps TINYINT etc.).
 */
import type { Pos } from '../../parse/ast.js';
import { JsonNumberText, type JsonValue } from '../../api.js';
import { mk, type SqlType } from '../../types/types.js';
import { type Value } from '../../types/values.js';
import { fromJson } from '../../codec-json.js';
import { canonicalJson, isJsonObject as isObj, parseVariant, variantValue } from '../../types/variant.js';
import { makeMap } from '../../types/values.js';
import { type BExpr, strict1, strict2, constant } from '../bexpr.js';
import { argc, str, typeErr } from './args.js';
import type { FnTable, ScalarFn } from './registry.js';

type Obj = Record<string, JsonValue>;

function variantArg(name: string, e: BExpr, pos: Pos): BExpr {
  if (e.type.kind === 'VARIANT') return e;
  if (e.type.kind === 'NULL') return { ...e, type: mk('VARIANT') };
  throw typeErr(name, [e], pos, ': a VARIANT is needed');
}

/** variant[key] (objects) or variant[index] (arrays, 1-based): a VARIANT, or NULL when absent. */
export function variantIndex(v: BExpr, k: BExpr): BExpr {
  return strict2(v, k, mk('VARIANT', true), (x, key) => {
    const j = variantValue(x);
    let r: JsonValue | undefined;
    if (Array.isArray(j) && typeof key === 'number') r = j[key - 1];
    else if (isObj(j) && typeof key === 'string') r = j[key];
    return r === undefined ? null : canonicalJson(r);
  });
}

function typeOf(j: JsonValue): string {
  if (j === null) return 'VARIANT';
  if (typeof j === 'boolean') return 'BOOLEAN';
  if (typeof j === 'number') return Number.isInteger(j) ? 'BIGINT' : 'DECIMAL';
  if (typeof j === 'bigint') return 'BIGINT';
  if (j instanceof JsonNumberText) return 'DECIMAL';
  if (typeof j === 'string') return 'VARCHAR';
  return Array.isArray(j) ? 'ARRAY' : 'MAP';
}

/** A key as it appears in a JSON_KEYS path: quoted when it holds characters other than letters, digits and _. */
export const pathKey = (k: string): string => (/^[\p{L}\p{N}_]+$/u.test(k) ? k : JSON.stringify(k));

function keysOf(j: JsonValue, prefix: string, out: Set<string>): void {
  if (!isObj(j)) return;
  for (const [k, v] of Object.entries(j)) {
    const p = prefix + pathKey(k);
    out.add(p);
    keysOf(v, p + '.', out);
  }
}

function merge(a: JsonValue, b: JsonValue): JsonValue {
  if (isObj(a) && isObj(b)) {
    const o: Obj = { ...a };
    for (const [k, v] of Object.entries(b)) o[k] = k in a ? merge(a[k]!, v) : v;
    return o;
  }
  return b;
}

function jsonEach(t: SqlType, pick: (j: JsonValue) => boolean): ScalarFn {
  return {
    sig: `JSON_EACH_${t.kind === 'VARCHAR' ? 'STRING' : t.kind}(variant) -> MAP<VARCHAR, ${t.kind}>: the fields of that runtime type`,
    nulls: 'strict; JSON null fields are left out; a non-object gives an empty map',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(variantArg(name, args[0]!, pos), mk('MAP', args[0]!.type.nullable, { key: mk('VARCHAR', false), elem: mk(t.kind, true) }), (x) => {
        const j = variantValue(x);
        if (!isObj(j)) return [];
        const pairs: Array<[Value, Value]> = [];
        for (const [k, v] of Object.entries(j)) {
          if (v === null || !pick(v)) continue;
          try {
            pairs.push([k, fromJson(v, t)]);
          } catch {
            // a string that does not parse as the type is left out
          }
        }
        return makeMap(pairs);
      });
    },
  };
}

const isStr = (j: JsonValue): boolean => typeof j === 'string';

export const JSON_FNS: FnTable = {
  PARSE_JSON: {
    sig: 'PARSE_JSON(string) -> VARIANT: JSON null is the VARIANT null',
    nulls: 'strict; NULL when the text is not JSON',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(str(name, args[0]!, pos), mk('VARIANT', true), (s) => parseVariant(s as string) ?? null);
    },
  },
  TO_JSON: {
    sig: 'TO_JSON(variant) -> VARCHAR',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(variantArg(name, args[0]!, pos), mk('VARCHAR', args[0]!.type.nullable), (v) => v);
    },
  },
  TYPEOF: {
    sig: "TYPEOF(variant) -> VARCHAR: the runtime type (here: the JSON kind); 'NULL' for a SQL NULL",
    nulls: "never NULL: a SQL NULL is 'NULL' (Feldera's sqllib typeofN)",
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const f = variantArg(name, args[0]!, pos).fn;
      return {
        type: mk('VARCHAR', false),
        fn: (r) => {
          const v = f(r);
          return v === null ? 'NULL' : typeOf(variantValue(v));
        },
      };
    },
  },
  VARIANTNULL: {
    sig: 'VARIANTNULL() -> VARIANT: the VARIANT null (not a SQL NULL)',
    nulls: 'never NULL',
    bind: (args, pos, name) => {
      argc(name, args, 0, 0, pos);
      return constant(mk('VARIANT', false), 'null');
    },
  },
  JSON_OBJECT_KEYS: {
    sig: 'JSON_OBJECT_KEYS(variant) -> VARCHAR ARRAY: top-level keys, sorted; [] for a non-object',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(variantArg(name, args[0]!, pos), mk('ARRAY', args[0]!.type.nullable, { elem: mk('VARCHAR', true) }), (v) => {
        const j = variantValue(v);
        return isObj(j) ? Object.keys(j).sort() : [];
      });
    },
  },
  JSON_KEYS: {
    sig: 'JSON_KEYS(variant) -> VARCHAR ARRAY: dot-joined paths of the keys of nested objects, sorted',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      return strict1(variantArg(name, args[0]!, pos), mk('ARRAY', args[0]!.type.nullable, { elem: mk('VARCHAR', true) }), (v) => {
        const out = new Set<string>();
        keysOf(variantValue(v), '', out);
        return [...out].sort();
      });
    },
  },
  JSON_EACH_BIGINT: jsonEach(mk('BIGINT'), (j) => typeof j === 'number' && Number.isSafeInteger(j)),
  JSON_EACH_STRING: jsonEach(mk('VARCHAR'), isStr),
  JSON_EACH_BOOLEAN: jsonEach(mk('BOOLEAN'), (j) => typeof j === 'boolean'),
  JSON_EACH_DATE: jsonEach(mk('DATE'), isStr),
  JSON_EACH_TIME: jsonEach(mk('TIME'), isStr),
  JSON_EACH_TIMESTAMP: jsonEach(mk('TIMESTAMP'), (j) => isStr(j)),
  VARIANT_MERGE: {
    sig: 'VARIANT_MERGE(variant, variant) -> VARIANT: objects merge recursively, the second wins elsewhere',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      return strict2(
        variantArg(name, args[0]!, pos),
        variantArg(name, args[1]!, pos),
        mk(
          'VARIANT',
          args.some((a) => a.type.nullable),
        ),
        (a, b) => canonicalJson(merge(variantValue(a), variantValue(b))),
      );
    },
  },
};
