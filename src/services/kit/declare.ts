/**
 * One declaration of a request's input (a body or a query), from which come its checker, its TypeScript type
 * and its JSON Schema (the OpenAPI entry) (services/kit).
 *
 * A `Field<T>` is a JSON Schema fragment and a reader that turns a present value into a `T` or reports why
 * not, in the service's own words (the kit has no messages: each service writes its fields, so its answers stay
 * those of the real system). `objectOf` puts fields together as an object:
 *   1. input that is not an object: `notObject` under the field `body` (a query is always an object);
 *   2. unknown keys, when `unknownField` is given: one message a key, before anything else;
 *   3. every declared field in declared order: an absent (undefined) optional field is not read, an absent field
 *      with a default (`withDefault`) has it;
 *   4. `refine`, rules across fields, on the fields that were read without a problem.
 * (`normalize`, when given, first turns the object into what the service reads: LinkAce trims strings.)
 * Problems are collected, then thrown together as one ValidationError (kit/errors.ts). The value has the
 * declared keys that are not undefined. `precheck` may refuse keys before all of this and stop there.
 * `collect` does the same into a caller's Problems without throwing (but for `precheck`), so an action can add
 * the problems only it can see (a database rule) and answer all of them at once; with a `prefix` (`models.0.`)
 * each field is named and reported as `prefix + name`. Its value is complete only when no problem was added.
 * `alsoDocuments` lists in a declaration's schema the fields of declarations its handler checks later (a real
 * system that reads its query in stages, each after an answer that may come first).
 */
import { Problems } from './errors.js';

export type JsonSchema = Record<string, unknown>;

export interface Field<T, Optional extends boolean = boolean> {
  readonly schema: JsonSchema;
  /** Absent values (undefined) are left out without being read. */
  readonly optional: Optional;
  /** The value of an absent field (it is then not read, and always in the checked value). */
  readonly default?: T;
  /** The value, or undefined after calling `fail` (once or more). A required field reads undefined too. */
  read(value: unknown, fail: (message: string) => undefined, name: string): T | undefined;
}

export function field<T>(schema: JsonSchema, read: Field<T>['read']): Field<T, false> {
  return { schema, optional: false, read };
}

export function optional<T>(f: Field<T>): Field<T, true> {
  return { ...f, optional: true };
}

/** A field that may be absent and then has `value`. */
export function withDefault<T>(f: Field<T>, value: T): Field<T, false> {
  return { schema: { ...f.schema, default: value }, optional: false, default: value, read: f.read };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fields = Record<string, Field<any>>;

type ValueOf<F> = F extends Field<infer T> ? T : never;

/** The checked value of an object of fields: required fields are there, optional ones may be missing. */
export type Infer<F extends Fields> = { [K in keyof F as F[K] extends Field<unknown, false> ? K : never]: ValueOf<F[K]> } & {
  [K in keyof F as F[K] extends Field<unknown, false> ? never : K]?: ValueOf<F[K]>;
};

/** A checked input: its JSON Schema and its checker (throws ValidationError). */
export interface Declared<T> {
  readonly schema: JsonSchema;
  check(input: unknown): T;
  /** Adds the input's problems to `problems` (nested fields named `prefix + name`); throws only for `precheck`. */
  collect(input: unknown, problems: Problems, prefix?: string): T;
}

export interface ObjectRules<T> {
  /** The input as the service reads it, before anything is checked (trimmed strings, ...; it may make any input an object). */
  normalize?: (input: unknown) => unknown;
  /** The message (under `body`) for input that is not a JSON object. */
  notObject?: string;
  /** The message for a key that is not declared; without it, unknown keys pass. */
  unknownField?: (allowed: string[]) => string;
  /** Keys refused before anything else is read: their problems alone are answered. */
  precheck?: (input: Record<string, unknown>, problems: Problems) => void;
  /** Rules across fields, given the value of the fields read without a problem and the raw input. */
  refine?: (value: Partial<T>, input: Record<string, unknown>, problems: Problems) => void;
  /** Extra schema keywords (description, minProperties, ...). */
  schema?: JsonSchema;
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function objectOf<F extends Fields>(fields: F, rules: ObjectRules<Infer<F>> = {}): Declared<Infer<F>> {
  const names = Object.keys(fields);
  const required = names.filter((n) => !fields[n]!.optional && fields[n]!.default === undefined);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(names.map((n) => [n, fields[n]!.schema])),
    ...(required.length ? { required } : {}),
    ...(rules.unknownField ? { additionalProperties: false } : {}),
    ...rules.schema,
  };
  const declared: Declared<Infer<F>> = {
    schema,
    check(given: unknown): Infer<F> {
      const problems = new Problems();
      const value = declared.collect(given, problems);
      problems.throwIfAny();
      return value;
    },
    collect(given: unknown, problems: Problems, prefix = ''): Infer<F> {
      let input = rules.normalize ? rules.normalize(given) : given;
      if (!isObject(input)) {
        if (rules.notObject === undefined && (input === undefined || input === null)) input = {};
        else {
          problems.add(`${prefix}body`, rules.notObject ?? 'must be a JSON object');
          return {} as Infer<F>;
        }
      }
      const raw = input as Record<string, unknown>;
      if (rules.precheck) {
        rules.precheck(raw, problems);
        problems.throwIfAny();
      }
      if (rules.unknownField) {
        const message = rules.unknownField(names);
        for (const key of Object.keys(raw)) if (!(key in fields)) problems.add(prefix + key, message);
      }
      const value: Record<string, unknown> = {};
      for (const name of names) {
        const f = fields[name]!;
        const key = prefix + name;
        if (raw[name] === undefined && f.default !== undefined) value[name] = f.default;
        if (raw[name] === undefined && (f.optional || f.default !== undefined)) continue;
        const read = f.read(
          raw[name],
          (message) => {
            problems.add(key, message);
            return undefined;
          },
          key,
        );
        if (read !== undefined && !problems.has(key)) value[name] = read;
      }
      rules.refine?.(value as Partial<Infer<F>>, raw, problems);
      return value as Infer<F>;
    },
  };
  return declared;
}

/**
 * `first`, whose schema also lists the properties of `later`: declarations the handler checks after it, in the
 * order the real system reads them, so that the route's OpenAPI entry names every parameter it reads.
 */
export function alsoDocuments<T>(first: Declared<T>, ...later: Declared<unknown>[]): Declared<T> {
  const properties = Object.assign({}, ...[first, ...later].map((d) => d.schema.properties as JsonSchema | undefined));
  return { schema: { ...first.schema, properties }, check: (input) => first.check(input), collect: (input, problems, prefix) => first.collect(input, problems, prefix) };
}
