/**
 * LinkAce's (Laravel's) validation rules as declared fields (services/kit/declare.ts): a JSON Schema fragment
 * for openapi.json and the rule of validate.ts's Check that enforces it, so each message is written once, in
 * validate.ts, and a route's document says what its checks do. Declarations of this service read their input
 * as LinkAce does (`normalizeInput`: trimmed strings, "" is null; in a query, null is not given).
 */
import { field, optional, type Field, type JsonSchema } from '../kit/declare.js';
import { Check, normalizeInput } from './validate.js';
import { enumOf } from './routes/schemas.js';

/** A field checked by one of Check's rules; null (an empty value) reads as not given. */
export function rule<T>(schema: JsonSchema, apply: (c: Check, name: string) => T | null | undefined): Field<T, false> {
  return field<T>(schema, (value, fail, name) => {
    const c = new Check({ [name]: value });
    const out = apply(c, name);
    for (const message of c.errors[name] ?? []) fail(message);
    return out ?? undefined;
  });
}

/** A field checked by one of Check's rules that keeps null (an empty value): on an update it clears the field. */
export function nullableRule<T>(schema: JsonSchema, apply: (c: Check, name: string) => T | null | undefined): Field<T | null, false> {
  return field<T | null>(schema, (value, fail, name) => {
    const c = new Check({ [name]: value });
    const out = apply(c, name);
    for (const message of c.errors[name] ?? []) fail(message);
    return out;
  });
}

type Required = { required: true };
/** A required field is always in the checked value ("The :attribute field is required." otherwise); others may be left out. */
type Presence<T, O> = O extends Required ? Field<T, false> : Field<T, true>;
const presence = <T, O extends { required?: boolean }>(f: Field<T, false>, opts: O) => (opts.required ? f : optional(f)) as Presence<T, O>;

/** One of a closed list (422 "The selected :attribute is invalid."). */
export function oneOf<T extends string, O extends { required?: boolean } = object>(values: readonly T[], opts: O = {} as O): Presence<T, O> {
  return presence(
    rule<T>(enumOf(values), (c, name) => c.oneOf(name, values, opts)),
    opts,
  );
}

/** A whole number (a JSON number or digits), within bounds. */
export function integer<O extends { required?: boolean; min?: number; max?: number } = object>(opts: O = {} as O): Presence<number, O> {
  const schema = { type: 'integer', ...(opts.min !== undefined ? { minimum: opts.min } : {}), ...(opts.max !== undefined ? { maximum: opts.max } : {}) };
  return presence(
    rule<number>(schema, (c, name) => c.integer(name, opts)),
    opts,
  );
}

/** A body as LinkAce reads it: trimmed top-level strings, "" is null, anything but an object is {}. */
export const normalizeBody = normalizeInput;

/** A query as LinkAce reads it: trimmed, and empty parameters left out. */
export function normalizeQuery(raw: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(normalizeInput(raw)).filter(([, v]) => v !== null));
}
