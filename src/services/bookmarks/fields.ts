/**
 * LinkAce's (Laravel's) validation rules as declared fields (services/kit/declare.ts), the bookmark service's one
 * checker: each rule is a JSON Schema fragment for openapi.json and a reader that enforces it, in Laravel's words
 * (`:attribute` is the field's name, `check_disabled` read "check disabled", a nested `models.0.url` as it is).
 *
 * Input is read as LinkAce reads it (TrimStrings + ConvertEmptyStringsToNull): top-level strings trimmed, "" is
 * null (`normalizeBody`); in a query an empty parameter is not given at all (`normalizeQuery`). A reader sees only
 * given values: `rule` answers "The :attribute field is required." for a required field that is null or absent
 * and leaves an optional one out; `nullableRule` keeps null (on an update it clears the field).
 */
import { field, optional, withDefault, type Field, type JsonSchema } from '../kit/declare.js';
import { LIMITS, MAX_REFS, VISIBILITIES, type Ref, type Visibility } from './validate.js';
import { enumOf } from './routes/schemas.js';

/** Reads a given value (neither null nor absent) or calls `fail` with a message (":attribute" for the field). */
export type Reader<T> = (value: unknown, fail: (message: string) => undefined) => T | undefined;

export const REQUIRED = 'The :attribute field is required.';

/** A field's name in Laravel's messages: `check_disabled` reads "check disabled", a nested `models.0.url` as it is. */
export function attributeName(field: string): string {
  return field.includes('.') ? field : field.replace(/_/g, ' ');
}

/** A whole number: a JSON integer, or up to 15 digits (an optional minus) in a string; anything else undefined. */
export function toInt(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

const BLOCKED_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'about:', 'blob:', 'place:']);

/** A URL a bookmark may hold: it parses, has a scheme that is not script-like, and http(s) URLs have a host. */
export function isValidUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (BLOCKED_SCHEMES.has(u.protocol)) return false;
  if ((u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ftp:') && !u.hostname) return false;
  return true;
}

/** A repeated query key (`a=1&a=2`) reads as its last value, as PHP reads it. */
export function lastOf(v: unknown): unknown {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/**
 * A query flag as LinkAce reads it, PHP's `(bool)`: any non-empty value but "0" is true ("false" and "off"
 * too); absent, empty and "0" are false. A repeated key reads as its last value.
 */
export function phpFlag(v: unknown): boolean {
  const last = lastOf(v);
  if (last === undefined || last === null || last === false || last === 0) return false;
  const s = String(last);
  return s !== '' && s !== '0';
}

// ---- readers: one rule each, its message written once ----

/** A string of at most `max` characters. */
export function text(max?: number): Reader<string> {
  return (v, fail) => {
    if (typeof v !== 'string') return fail('The :attribute must be a string.');
    if (max !== undefined && [...v].length > max) return fail(`The :attribute must not be greater than ${max} characters.`);
    return v;
  };
}

/** A whole number (toInt) within bounds. */
export function whole(bounds: { min?: number; max?: number } = {}): Reader<number> {
  return (v, fail) => {
    const n = toInt(v);
    if (n === undefined) return fail('The :attribute must be an integer.');
    if (bounds.min !== undefined && n < bounds.min) return fail(`The :attribute must be at least ${bounds.min}.`);
    if (bounds.max !== undefined && n > bounds.max) return fail(`The :attribute must not be greater than ${bounds.max}.`);
    return n;
  };
}

const TRUE_VALUES = new Set<unknown>([true, 1, '1', 'true']);
const FALSE_VALUES = new Set<unknown>([false, 0, '0', 'false']);

/** Laravel's boolean: true, 1, "1", "true" or their false counterparts. */
export const bool: Reader<boolean> = (v, fail) => {
  if (TRUE_VALUES.has(v)) return true;
  if (FALSE_VALUES.has(v)) return false;
  return fail('The :attribute field must be true or false.');
};

/** 1 public, 2 internal or 3 private (a number or digits). */
export const visibilityOf: Reader<Visibility> = (v, fail) => {
  const n = toInt(v);
  if ((VISIBILITIES as readonly number[]).includes(n as number)) return n as Visibility;
  return fail('The :attribute must be either 1 (public), 2 (internal) or 3 (private).');
};

/** One string of a closed list. */
export function choice<T extends string>(values: readonly T[]): Reader<T> {
  return (v, fail) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : fail('The selected :attribute is invalid.'));
}

const urlText = text(LIMITS.url);
/** A URL a bookmark may hold (isValidUrl), of at most LIMITS.url characters. */
export const urlOf: Reader<string> = (v, fail) => {
  const s = urlText(v, fail);
  if (s === undefined) return undefined;
  return isValidUrl(s) ? s : fail('The :attribute must be a valid URL.');
};

export const array: Reader<unknown[]> = (v, fail) => (Array.isArray(v) ? v : fail('The :attribute must be an array.'));

/** An array of positive integer ids (numbers or digits). */
export const ids: Reader<number[]> = (v, fail) => {
  const arr = array(v, fail);
  if (!arr) return undefined;
  const out: number[] = [];
  for (const item of arr) {
    const n = toInt(item);
    if (n === undefined || n < 1) return fail('The :attribute must be an array of ids.');
    out.push(n);
  }
  return out;
};

/**
 * Tags or lists of a link: an array of ids (numbers or digit strings) and names, or a comma-separated string;
 * commas are removed from names, blank names skipped. At most MAX_REFS: each id is looked up and each new name
 * created, so a body of millions would hold the server.
 */
export const refs: Reader<Ref[]> = (v, fail) => {
  const items: unknown[] = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : [v];
  if (items.length > MAX_REFS) return fail(`The :attribute must not have more than ${MAX_REFS} items.`);
  const out: Ref[] = [];
  for (const item of items) {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) out.push({ id: item });
    else if (typeof item === 'string' && /^\d+$/.test(item.trim())) out.push({ id: Number(item.trim()) });
    else if (typeof item === 'string') {
      const name = item.replace(/,/g, '').trim();
      if (!name) continue;
      if ([...name].length > LIMITS.name) return fail(`The :attribute names must not be greater than ${LIMITS.name} characters.`);
      out.push({ name });
    } else return fail('The :attribute must be an array of ids or names.');
  }
  return out;
};

/** A query's parts: comma-separated (or repeated) values, trimmed, blanks left out. */
export function queryParts(v: unknown): string[] {
  return (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A query part that is an id: up to 15 digits. */
export const isId = (part: string) => /^\d{1,15}$/.test(part);

/** A query's list of ids: comma-separated (or repeated) digits; no part at all is an empty list. */
export const idList: Reader<number[]> = (v, fail) => {
  const parts = queryParts(v);
  return parts.every(isId) ? parts.map(Number) : fail('The :attribute must be a comma-separated list of ids.');
};

// ---- fields ----

function named<T>(read: Reader<T>, fail: (message: string) => undefined, name: string, value: unknown): T | undefined {
  return read(value, (message) => fail(message.replace(':attribute', attributeName(name))));
}

/** A field read by `read`; null (an empty value) or absent is "required" when `required`, else not given. */
export function rule<T>(schema: JsonSchema, read: Reader<T>, opts: { required?: boolean } = {}): Field<T, false> {
  return field<T>(schema, (value, fail, name) => {
    if (value === undefined || value === null) return opts.required ? named((_v, failed) => failed(REQUIRED), fail, name, value) : undefined;
    return named(read, fail, name, value);
  });
}

/** A field read by `read` that keeps null (an empty value): on an update it clears the field. */
export function nullableRule<T>(schema: JsonSchema, read: Reader<T>): Field<T | null, false> {
  return field<T | null>(schema, (value, fail, name) => (value === null ? null : named(read, fail, name, value)));
}

type Required = { required: true };
/** A required field is always in the checked value ("The :attribute field is required." otherwise); others may be left out. */
type Presence<T, O> = O extends Required ? Field<T, false> : Field<T, true>;
const presence = <T, O extends { required?: boolean }>(f: Field<T, false>, opts: O) => (opts.required ? f : optional(f)) as Presence<T, O>;

/** One of a closed list (422 "The selected :attribute is invalid."). */
export function oneOf<T extends string, O extends { required?: boolean } = object>(values: readonly T[], opts: O = {} as O): Presence<T, O> {
  return presence(rule<T>(enumOf(values), choice(values), opts), opts);
}

/** A whole number (a JSON number or digits), within bounds. */
export function integer<O extends { required?: boolean; min?: number; max?: number } = object>(opts: O = {} as O): Presence<number, O> {
  const schema = { type: 'integer', ...(opts.min !== undefined ? { minimum: opts.min } : {}), ...(opts.max !== undefined ? { maximum: opts.max } : {}) };
  return presence(rule<number>(schema, whole(opts), opts), opts);
}

/** A query flag (phpFlag): never refused, false when absent. */
export function queryFlag(description: string): Field<boolean, false> {
  return withDefault(field<boolean>({ type: 'boolean', description: `${description}; any value but empty or "0" is on (PHP's (bool))` }, phpFlag), false);
}

// ---- input as LinkAce reads it ----

/** A body as LinkAce reads it: top-level strings trimmed, "" is null; anything but an object is {}. */
export function normalizeBody(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const t = typeof v === 'string' ? v.trim() : v;
    out[k] = t === '' ? null : t;
  }
  return out;
}

/** A query as LinkAce reads it: trimmed, and empty parameters left out. */
export function normalizeQuery(raw: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(normalizeBody(raw)).filter(([, v]) => v !== null));
}
