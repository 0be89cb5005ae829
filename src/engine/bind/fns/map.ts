/**
 * MAP functions (Feldera docs/sql/map.md): the constructor MAP[k1, v1, ...] (written MAP(k1, v1, ...) after the
 * pre-pass), m[key] (ELEMENT_AT, shared with VARIANT), CARDINALITY (in array.ts), MAP_CONTAINS_KEY, MAP_KEYS,
 * MAP_VALUES, MAP_CONCAT. Values are [key, value] pairs sorted by key (types/variant.ts).
 */
import { SqlError, type Pos } from '../../parse/ast.js';
import { mk, withNull, type SqlType } from '../../types/types.js';
import { compareValues, type Value } from '../../types/values.js';
import { makeMap, mapGet } from '../../types/values.js';
import { checkSize } from '../../types/value-limits.js';
import { type BExpr, strict1, strict2 } from '../bexpr.js';
import { argc, coerceTo, common, nullableOf, typeErr } from './args.js';
import type { FnTable } from './registry.js';
import { variantIndex } from './json.js';

function mapArg(name: string, e: BExpr, pos: Pos): BExpr {
  if (e.type.kind === 'MAP') return e;
  throw typeErr(name, [e], pos, ': a MAP is needed');
}

export const MAP_FNS: FnTable = {
  MAP: {
    sig: 'MAP[key1, value1, ...] -> MAP<K, V>: a repeated key keeps its last value',
    nulls: 'keys must not be NULL (a NULL key gives a NULL map); values may be NULL',
    bind: (args, pos, name) => {
      if (args.length % 2 !== 0) throw new SqlError(`${name}[...] needs an even number of arguments (key, value pairs)`, pos, 'type');
      const keys = args.filter((_a, i) => i % 2 === 0);
      const vals = args.filter((_a, i) => i % 2 === 1);
      const kt: SqlType = keys.length ? common(name, keys, pos) : mk('NULL');
      const vt: SqlType = vals.length ? common(name, vals, pos) : mk('NULL');
      const kf = keys.map((k) => coerceTo(k, kt, pos).fn);
      const vf = vals.map((v) => coerceTo(v, vt, pos).fn);
      return {
        type: mk(
          'MAP',
          keys.some((k) => k.type.nullable),
          { key: withNull(kt, false), elem: withNull(vt, true) },
        ),
        fn: (r) => {
          const pairs: Array<[Value, Value]> = [];
          for (let i = 0; i < kf.length; i++) {
            const k = kf[i]!(r);
            if (k === null) return null;
            pairs.push([k, vf[i]!(r)]);
          }
          return makeMap(pairs);
        },
        constant: args.every((a) => a.constant),
      };
    },
  },
  ELEMENT_AT: {
    sig: 'map[key] -> V; variant[key or index] -> VARIANT',
    nulls: 'strict; NULL for a missing key',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [m, k] = args as [BExpr, BExpr];
      if (m.type.kind === 'VARIANT') return variantIndex(m, k);
      mapArg(name, m, pos);
      return strict2(m, coerceTo(k, m.type.key!, pos), withNull(m.type.elem!, true), (x, key) => mapGet(x, key));
    },
  },
  MAP_CONTAINS_KEY: {
    sig: 'MAP_CONTAINS_KEY(map, key) -> BOOLEAN',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const m = mapArg(name, args[0]!, pos);
      return strict2(m, coerceTo(args[1]!, m.type.key!, pos), mk('BOOLEAN', nullableOf(args)), (x, key) => (x as Value[][]).some(([k]) => compareValues(k!, key) === 0));
    },
  },
  MAP_KEYS: {
    sig: 'MAP_KEYS(map) -> K ARRAY (sorted)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const m = mapArg(name, args[0]!, pos);
      return strict1(m, mk('ARRAY', nullableOf(args), { elem: withNull(m.type.key!, true) }), (x) => (x as Value[][]).map(([k]) => k!));
    },
  },
  MAP_VALUES: {
    sig: 'MAP_VALUES(map) -> V ARRAY (in key order)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1, pos);
      const m = mapArg(name, args[0]!, pos);
      return strict1(m, mk('ARRAY', nullableOf(args), { elem: withNull(m.type.elem!, true) }), (x) => (x as Value[][]).map(([, v]) => v!));
    },
  },
  MAP_CONCAT: {
    sig: 'MAP_CONCAT(map, ...): a key in several maps keeps the value of the last',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1000, pos);
      for (const a of args) mapArg(name, a, pos);
      const t = common(name, args, pos);
      const fns = args.map((a) => coerceTo(a, t, pos).fn);
      return {
        type: withNull(t, nullableOf(args)),
        fn: (r) => {
          const maps: Value[][][] = [];
          let size = 0;
          for (const f of fns) {
            const m = f(r);
            if (m === null) return null;
            maps.push(m as Value[][]);
            size += (m as Value[][]).length;
          }
          // the entries it would gather, before gathering them (value-limits.ts)
          checkSize('MAP_CONCAT', size, 'elements');
          const pairs: Array<[Value, Value]> = [];
          for (const m of maps) for (const [k, v] of m) pairs.push([k!, v!]);
          return makeMap(pairs);
        },
      };
    },
  },
};
