/**
 * LinkAce's (Laravel's) validation rules as declared fields (services/kit/declare.ts): a JSON Schema fragment
 * for openapi.json and the rule of validate.ts's Check that enforces it, so each message is written once, in
 * validate.ts, and a route's document says what its checks do. Declarations of this service read their input
 * as LinkAce does (`normalizeInput`: trimmed strings, "" is null; in a query, null is not given).
 */
import { field, type Field, type JsonSchema } from '../kit/declare.js';
import { Check, normalizeInput, type Input } from './validate.js';

/** A field checked by one of Check's rules; null (an empty value) reads as not given. */
export function rule<T>(schema: JsonSchema, apply: (c: Check, name: string) => T | null | undefined): Field<T> {
  return field<T>(schema, (value, fail, name) => {
    const c = new Check({ [name]: value });
    const out = apply(c, name);
    for (const message of c.errors[name] ?? []) fail(message);
    return out ?? undefined;
  });
}

/** A query as LinkAce reads it: trimmed, and empty parameters left out. */
export function normalizeQuery(raw: Input): Input {
  return Object.fromEntries(Object.entries(normalizeInput(raw)).filter(([, v]) => v !== null));
}
