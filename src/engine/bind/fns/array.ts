/**
 * Array functions (Feldera docs/sql/array.md). Arrays are JS arrays of element values; elements are always
 * nullable. Element comparisons use compareValues/valueKey (a NULL element is smaller than any other and equal
 * to another NULL). Results of set-like functions (ARRAY_UNION/INTERSECT/EXCEPT) are sorted ascending.
 */
import { SqlError } from '../../parse/ast.js';
import { mk, withNull, isString, typeToString, type SqlType } from '../../types/types.js';
import { compareValues, valueKey, type Value } from '../../types/values.js';
import { type BExpr, strict1, strict2, strictN, constant } from '../bexpr.js';
import { castFn } from '../cast.js';
import { argc, arr, coerceTo, common, int, nullableOf, str, typeErr } from './args.js';
import { aliases, type FnTable, type ScalarFn } from './registry.js';
import { checkSize } from '../../types/value-limits.js';

type Arr = Value[];
const elemOf = (a: BExpr): SqlType => a.type.elem ?? mk('NULL');
const arrayOf = (elem: SqlType, nullable: boolean): SqlType => mk('ARRAY', nullable, { elem: withNull(elem, true) });

/** An element argument coerced to the array's element type (a NULL literal stays NULL, not strict). */
function elemArg(name: string, a: BExpr, e: BExpr, pos: import('../../parse/ast.js').Pos): BExpr {
  const et = elemOf(a);
  if (et.kind === 'NULL' || e.type.kind === 'NULL') return e;
  const t = common(
    name,
    [
      { ...e, type: withNull(e.type, true) },
      { fn: () => null, type: et },
    ],
    pos,
  );
  return coerceTo(e, t, pos);
}

const oneArray = (sig: string, result: (a: BExpr) => SqlType, f: (xs: Arr) => Value): ScalarFn => ({
  sig,
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    const a = arr(name, args[0]!, pos);
    return strict1(a, result(a), (v) => f(v as Arr));
  },
});

const sameArray = (a: BExpr): SqlType => a.type;
const distinctSorted = (xs: Arr): Arr => {
  const m = new Map<string, Value>();
  for (const x of xs) m.set(valueKey(x), x);
  return [...m.values()].sort(compareValues);
};

/** ARRAY_UNION / ARRAY_INTERSECT / ARRAY_EXCEPT: strict, no duplicates, sorted. */
function setFn(kind: 'union' | 'intersect' | 'except'): ScalarFn {
  return {
    sig: `ARRAY_${kind.toUpperCase()}(left, right): no duplicates, sorted ascending`,
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [a, b] = [arr(name, args[0]!, pos), arr(name, args[1]!, pos)];
      const t = common(name, [a, b], pos);
      return strict2(a, b, withNull(t, nullableOf(args)), (x, y) => {
        if (kind === 'union') return distinctSorted([...(x as Arr), ...(y as Arr)]);
        const ys = new Set((y as Arr).map(valueKey));
        return distinctSorted((x as Arr).filter((e) => ys.has(valueKey(e)) === (kind === 'intersect')));
      });
    },
  };
}

/** ARRAY_APPEND and ARRAY_PREPEND: the array with the element (a NULL one too) added at its `end` or `start`. */
function withOneMore(where: 'end' | 'start'): ScalarFn {
  const verb = where === 'end' ? 'appended' : 'prepended';
  return {
    sig: `ARRAY_${where === 'end' ? 'APPEND' : 'PREPEND'}(array, element): a NULL element is ${verb}`,
    nulls: 'NULL when array is NULL',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const a = arr(name, args[0]!, pos);
      const e = elemArg(name, a, args[1]!, pos);
      const [af, ef] = [a.fn, e.fn];
      const et = elemOf(a).kind === 'NULL' ? e.type : elemOf(a);
      return {
        type: arrayOf(et, a.type.nullable),
        fn: (r) => {
          const xs = af(r);
          if (xs === null) return null;
          checkSize(name, (xs as Arr).length + 1, 'elements');
          return where === 'end' ? [...(xs as Arr), ef(r)] : [ef(r), ...(xs as Arr)];
        },
      };
    },
  };
}

const cardinality: ScalarFn = {
  sig: 'CARDINALITY(array or map) -> INTEGER; ARRAY_LENGTH, ARRAY_SIZE (arrays)',
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    const a = args[0]!;
    if (a.type.kind !== 'ARRAY' && !(a.type.kind === 'MAP' && name === 'CARDINALITY'))
      throw new SqlError(`Cannot apply '${name}' to arguments of type <${typeToString(a.type)}>: ${name} needs an ARRAY`, pos, 'type');
    return strict1(a, mk('INTEGER', nullableOf(args)), (v) => (v as Arr).length);
  },
};

function extreme(sign: 1 | -1): ScalarFn {
  return oneArray(
    `ARRAY_${sign > 0 ? 'MAX' : 'MIN'}(array): NULL elements are ignored`,
    (a) => withNull(elemOf(a), true),
    (xs) => {
      let best: Value = null;
      for (const x of xs) if (x !== null && (best === null || sign * compareValues(x, best) > 0)) best = x;
      return best;
    },
  );
}

const toStr: ScalarFn = {
  sig: 'ARRAY_TO_STRING(array, separator [, null_string]); ARRAY_JOIN',
  nulls: 'NULL when array or separator is NULL; NULL elements are skipped unless null_string is given',
  bind: (args, pos, name) => {
    argc(name, args, 2, 3, pos);
    const a = arr(name, args[0]!, pos);
    const et = elemOf(a);
    const conv = isString(et) || et.kind === 'NULL' ? (v: Value) => v : castFn(et, mk('VARCHAR'), pos);
    const nullStr = args[2] ? str(name, args[2], pos).fn : () => null;
    const af = a.fn;
    const sf = str(name, args[1]!, pos).fn;
    return {
      type: mk('VARCHAR', a.type.nullable || args[1]!.type.nullable),
      fn: (r) => {
        const xs = af(r);
        const sep = sf(r);
        if (xs === null || sep === null) return null;
        const ns = nullStr(r);
        const parts: string[] = [];
        let size = 0;
        for (const x of xs as Arr) {
          const part = x === null ? (ns as string | null) : String(conv(x));
          if (part === null) continue;
          size += part.length + (parts.length > 0 ? (sep as string).length : 0);
          checkSize(name, size, 'characters');
          parts.push(part);
        }
        return parts.join(sep as string);
      },
    };
  },
};

export const ARRAY_FNS: FnTable = {
  SEQUENCE: {
    sig: 'SEQUENCE(start, end) -> INTEGER ARRAY: start..end inclusive, empty when end < start',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [a, b] = [int(name, args[0]!, pos), int(name, args[1]!, pos)];
      return strict2(a, b, mk('ARRAY', nullableOf(args), { elem: mk('INTEGER', true) }), (s, e) => {
        const n = (e as number) - (s as number) + 1;
        checkSize(name, n, 'elements');
        return Array.from({ length: Math.max(0, n) }, (_x, i) => (s as number) + i);
      });
    },
  },
  ...aliases(['CARDINALITY', 'ARRAY_LENGTH', 'ARRAY_SIZE'], cardinality),
  ARRAY_CONTAINS: {
    sig: 'ARRAY_CONTAINS(array, element) -> BOOLEAN',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const a = args[0]!;
      if (a.type.kind !== 'ARRAY') throw new SqlError(`Cannot apply '${name}' to arguments of type <${typeToString(a.type)}>: ${name} needs an ARRAY`, pos, 'type');
      const x = coerceTo(args[1]!, a.type.elem!, pos);
      return strict2(a, x, mk('BOOLEAN', nullableOf(args)), (xs, v) => (xs as Arr).some((e) => e !== null && compareValues(e, v) === 0));
    },
  },
  ARRAY_APPEND: withOneMore('end'),
  ARRAY_PREPEND: withOneMore('start'),
  ARRAY_CONCAT: {
    sig: 'ARRAY_CONCAT(array, ...)',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 1000, pos);
      const t = common(
        name,
        args.map((a) => arr(name, a, pos)),
        pos,
      );
      return strictN(args, withNull(t, nullableOf(args)), (xs) => {
        checkSize(
          name,
          (xs as Arr[]).reduce((n, x) => n + x.length, 0),
          'elements',
        );
        return ([] as Value[]).concat(...(xs as Arr[]));
      });
    },
  },
  ARRAY_COMPACT: oneArray('ARRAY_COMPACT(array): without NULL elements', sameArray, (xs) => xs.filter((x) => x !== null)),
  ARRAY_DISTINCT: oneArray('ARRAY_DISTINCT(array): first occurrences, in order', sameArray, (xs) => {
    const seen = new Set<string>();
    return xs.filter((x) => {
      const k = valueKey(x);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }),
  ARRAY_REVERSE: oneArray('ARRAY_REVERSE(array)', sameArray, (xs) => xs.slice().reverse()),
  ARRAY_MAX: extreme(1),
  ARRAY_MIN: extreme(-1),
  ELEMENT: oneArray(
    'ELEMENT(array): the only element; NULL for an empty array (and, here, for more than one)',
    (a) => withNull(elemOf(a), true),
    (xs) => (xs.length === 1 ? xs[0]! : null),
  ),
  SORT_ARRAY: {
    sig: 'SORT_ARRAY(array [, ascending = TRUE]): NULL elements are the smallest',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 1, 2, pos);
      const a = arr(name, args[0]!, pos);
      const asc = args[1] ?? constant(mk('BOOLEAN', false), true);
      if (asc.type.kind !== 'BOOLEAN' && asc.type.kind !== 'NULL') throw typeErr(name, args, pos);
      return strict2(a, asc, withNull(a.type, nullableOf(args)), (xs, up) => (xs as Arr).slice().sort((x, y) => (up ? 1 : -1) * compareValues(x, y)));
    },
  },
  ARRAY_POSITION: {
    sig: 'ARRAY_POSITION(array, element) -> BIGINT: 1-based, 0 when absent',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const a = arr(name, args[0]!, pos);
      const e = elemArg(name, a, args[1]!, pos);
      return strict2(a, e, mk('BIGINT', nullableOf(args)), (xs, v) => (xs as Arr).findIndex((x) => x !== null && compareValues(x, v) === 0) + 1);
    },
  },
  ARRAY_REMOVE: {
    sig: 'ARRAY_REMOVE(array, element): without the elements equal to element',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const a = arr(name, args[0]!, pos);
      const e = elemArg(name, a, args[1]!, pos);
      return strict2(a, e, withNull(a.type, nullableOf(args)), (xs, v) => (xs as Arr).filter((x) => x === null || compareValues(x, v) !== 0));
    },
  },
  ARRAY_REPEAT: {
    sig: 'ARRAY_REPEAT(element, count): empty for a negative count; NULL elements when element is NULL',
    nulls: 'NULL when count is NULL',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [ef, cf] = [args[0]!.fn, int(name, args[1]!, pos).fn];
      return {
        type: arrayOf(args[0]!.type, args[1]!.type.nullable),
        fn: (r) => {
          const c = cf(r);
          if (c === null) return null;
          checkSize(name, c as number, 'elements'); // before building: ARRAY_REPEAT(1, 1000000000)
          return new Array(Math.max(0, c as number)).fill(ef(r));
        },
      };
    },
  },
  ARRAY_INSERT: {
    sig: 'ARRAY_INSERT(array, pos, element): 1-based; negative from the end; pads with NULLs',
    nulls: 'NULL when array or pos is NULL (and, here, when pos is 0 or too large)',
    bind: (args, pos, name) => {
      argc(name, args, 3, 3, pos);
      const a = arr(name, args[0]!, pos);
      const p = int(name, args[1]!, pos);
      const e = elemArg(name, a, args[2]!, pos);
      const [af, pf, ef] = [a.fn, p.fn, e.fn];
      return {
        type: arrayOf(elemOf(a).kind === 'NULL' ? e.type : elemOf(a), true),
        fn: (r) => {
          const xs = af(r) as Arr | null;
          const at = pf(r) as number | null;
          if (xs === null || at === null || at === 0 || Math.abs(at) > 1_000_000) return null;
          const out = xs.slice();
          const idx = at > 0 ? at - 1 : xs.length + at + 1;
          if (idx < 0) {
            const pad = new Array(-idx).fill(null);
            return [ef(r), ...pad, ...out];
          }
          while (out.length < idx) out.push(null);
          out.splice(idx, 0, ef(r));
          return out;
        },
      };
    },
  },
  ARRAYS_OVERLAP: {
    sig: 'ARRAYS_OVERLAP(array1, array2) -> BOOLEAN',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [a, b] = [arr(name, args[0]!, pos), arr(name, args[1]!, pos)];
      common(name, [a, b], pos);
      return strict2(a, b, mk('BOOLEAN', nullableOf(args)), (x, y) => {
        const ys = new Set((y as Arr).filter((e) => e !== null).map(valueKey));
        return (x as Arr).some((e) => e !== null && ys.has(valueKey(e)));
      });
    },
  },
  ARRAY_UNION: setFn('union'),
  ARRAY_INTERSECT: setFn('intersect'),
  ARRAY_EXCEPT: setFn('except'),
  ...aliases(['ARRAY_TO_STRING', 'ARRAY_JOIN'], toStr),
};
