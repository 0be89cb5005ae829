/**
 * Query parameters of the pipeline routes as declared fields (services/kit/declare.ts): JSON Schema for the
 * route's schema, the handler's types, and the manager's checks and words. Feldera deserializes a query with
 * serde and stops at the first bad parameter, so these fields do not collect problems: each throws the
 * manager's 400 FelderaError (util.ts: ``Query deserialize error: unknown variant `x`, ...``) as it reads, in the
 * declared order. A repeated parameter reads as its last value, except where util.ts refuses it.
 */
import { field, optional, withDefault, type Field } from '../../../kit/declare.js';
import { Errors } from '../../shared/errors.js';
import { boolParam, enumParam, intParam, param, type Query } from './util.js';

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
