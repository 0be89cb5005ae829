/**
 * Query parameters of the pipeline routes as declared fields (services/kit/declare.ts): JSON Schema for the
 * route's schema, the handler's types, and the manager's checks and words. Feldera deserializes a query with
 * serde and stops at the first bad parameter, so these fields do not collect problems: each throws the
 * manager's 400 FelderaError (``Query deserialize error: unknown variant `x`, ...``) as it reads, in the
 * declared order. A repeated parameter reads as its last value, except where serde refuses it (`enumParam`).
 * The readers under the fields (`param`, `enumParam`, `boolParam`, `intParam`) are here too, for the few
 * parameters a route reads by name.
 */
import { field, optional, withDefault, type Field } from '../../../kit/declare.js';
import { FelderaError, Errors } from '../../shared/errors.js';

/** One of `values` (a serde enum), `dflt` when absent. */
export function choice<T extends string>(values: readonly T[], dflt: T): Field<T, false> {
  return withDefault(
    field<T>({ type: 'string', enum: [...values] }, (v, _fail, name) => enumParam({ [name]: v } as Query, name, values, dflt)),
    dflt,
  );
}

/** `true`/`1` or `false`/`0`, `dflt` when absent or empty. */
export function flag(dflt: boolean): Field<boolean, false> {
  return withDefault(
    field<boolean>({ type: 'boolean' }, (v, _fail, name) => boolParam({ [name]: v } as Query, name, dflt)),
    dflt,
  );
}

/** A count (0 or more), absent when absent or empty; `-1` is refused in `what`'s words, `x` as not an integer. */
export function count(what: string): Field<number | undefined, true> {
  return optional(
    field<number | undefined>({ type: 'integer', minimum: 0 }, (v, _fail, name) => {
      const q = { [name]: v } as Query;
      if (param(q, name) === '' || param(q, name) === undefined) return undefined;
      const n = intParam(q, name, 0);
      if (n < 0) throw Errors.badParam(name, param(q, name)!, what);
      return n;
    }),
  );
}

export type Query = Record<string, string | string[] | undefined>;

export function param(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** A query parameter that does not deserialize: 400 with the manager's wording (`Query deserialize error: ...`). */
export function queryError(reason: string, param: string, value: string): FelderaError {
  return new FelderaError(400, 'InvalidQueryParameter', `Query deserialize error: ${reason}`, { param, value });
}

/**
 * A closed set of values for a query parameter (a serde enum): `dflt` when absent; one of `values`, else 400
 * ``unknown variant `X`, expected `a` or `b` ``; given twice, 400 ``duplicate field `name` ``.
 */
export function enumParam<T extends string>(q: Query, name: string, values: readonly T[], dflt: T): T {
  const v = q[name];
  if (v === undefined) return dflt;
  if (Array.isArray(v)) throw queryError(`duplicate field \`${name}\``, name, v.join(','));
  if ((values as readonly string[]).includes(v)) return v as T;
  const expected = values.map((x) => `\`${x}\``);
  const list = expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected.at(-1)}` : expected[0];
  throw queryError(`unknown variant \`${v}\`, expected ${list}`, name, v);
}

export function boolParam(q: Query, name: string, dflt: boolean): boolean {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw Errors.badParam(name, v, "'true' or 'false'");
}

export function intParam(q: Query, name: string, dflt: number): number {
  const v = param(q, name);
  if (v === undefined || v === '') return dflt;
  if (!/^-?\d+$/.test(v)) throw Errors.badParam(name, v, 'an integer');
  return Number(v);
}
