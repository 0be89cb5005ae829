/**
 * Query parameters of the pipeline routes as declared fields (services/kit/declare.ts): JSON Schema for the
 * route's schema, the handler's types, and the manager's checks and words. Feldera deserializes a query with
 * serde and stops at the first bad parameter, so these fields do not collect problems: each throws the
 * manager's 400 ApiError (util.ts: ``Query deserialize error: unknown variant `x`, ...``) as it reads, in the
 * declared order. A repeated parameter reads as its last value, except where util.ts refuses it.
 */
import { field, withDefault, type Field } from '../../../kit/declare.js';
import { boolParam, enumParam, type Query } from './util.js';

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
