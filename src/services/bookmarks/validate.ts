/**
 * A small validator with Laravel's rules and messages, so 422 bodies read as LinkAce's do:
 * `{message, errors: {field: [messages]}}`. Strings are trimmed and "" becomes null first
 * (LinkAce's TrimStrings + ConvertEmptyStringsToNull).
 */
import { ValidationError, type FieldErrors } from './errors.js';

export type Input = Record<string, unknown>;

export const LIMITS = { url: 2048, title: 255, description: 20_000, name: 255, note: 20_000, icon: 255 } as const;

/*
 * The closed sets of values requests may carry. Check below refuses anything else (422), and the declarations
 * (bodies/, routes/queries.ts) and routes/schemas.ts build openapi.json's enums from these same lists (enumOf),
 * so the document cannot drift from what is enforced.
 * (The order_by lists live beside their queries: store/links.ts LINK_ORDER, store/collections.ts, ...)
 */
/** 1 public, 2 internal (logged-in users), 3 private. */
export const VISIBILITIES = [1, 2, 3] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const ORDER_DIRS = ['asc', 'desc'] as const;
export type OrderDir = (typeof ORDER_DIRS)[number];
/** How bulk edits attach tags and lists. */
export const ATTACH_MODES = ['append', 'replace'] as const;
/** What bulk delete removes. */
export const BULK_DELETE_TYPES = ['links', 'lists', 'tags'] as const;
/** v1 export formats. */
export const EXPORT_FORMATS = ['html', 'json'] as const;
/** Link health in answers: 1 ok, 2 moved, 3 broken (checker.ts). */
export const LINK_STATUSES = [1, 2, 3] as const;

/** The most tags (or lists) one link may be given in one request or one imported bookmark. */
export const MAX_REFS = 1000;

/** Trims top-level strings and turns "" into null. Non-objects become {}. */
export function normalizeInput(raw: unknown): Input {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Input = {};
  for (const [k, v] of Object.entries(raw as Input)) out[k] = normalizeValue(v);
  return out;
}

function normalizeValue(v: unknown): unknown {
  if (typeof v === 'string') {
    const t = v.trim();
    return t === '' ? null : t;
  }
  return v;
}

export function isPlainObject(v: unknown): v is Input {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A field's name in Laravel's messages: `check_disabled` reads "check disabled", a nested `models.0.url` as it is. */
export function attributeName(field: string): string {
  return field.includes('.') ? field : field.replace(/_/g, ' ');
}

const TRUE_VALUES = new Set<unknown>([true, 1, '1', 'true']);
const FALSE_VALUES = new Set<unknown>([false, 0, '0', 'false']);

export class Check {
  readonly errors: FieldErrors = {};

  constructor(
    readonly input: Input,
    private readonly prefix = '',
  ) {}

  private key(field: string): string {
    return this.prefix + field;
  }

  fail(field: string, message: string): void {
    const k = this.key(field);
    (this.errors[k] ??= []).push(message.replace(':attribute', attributeName(k)));
  }

  failed(field: string): boolean {
    return this.key(field) in this.errors;
  }

  present(field: string): boolean {
    return this.input[field] !== undefined;
  }

  /** Missing or null -> "required" when required. Returns whether a non-null value is there. */
  private need(field: string, required: boolean | undefined): boolean {
    const v = this.input[field];
    if (v === undefined || v === null) {
      if (required) this.fail(field, 'The :attribute field is required.');
      return false;
    }
    return true;
  }

  string(field: string, opts: { required?: boolean; max?: number } = {}): string | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const v = this.input[field];
    if (typeof v !== 'string') {
      this.fail(field, 'The :attribute must be a string.');
      return undefined;
    }
    if (opts.max !== undefined && [...v].length > opts.max) {
      this.fail(field, `The :attribute must not be greater than ${opts.max} characters.`);
      return undefined;
    }
    return v;
  }

  integer(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const n = toInt(this.input[field]);
    if (n === undefined) {
      this.fail(field, 'The :attribute must be an integer.');
      return undefined;
    }
    if (opts.min !== undefined && n < opts.min) {
      this.fail(field, `The :attribute must be at least ${opts.min}.`);
      return undefined;
    }
    if (opts.max !== undefined && n > opts.max) {
      this.fail(field, `The :attribute must not be greater than ${opts.max}.`);
      return undefined;
    }
    return n;
  }

  boolean(field: string, opts: { required?: boolean } = {}): boolean | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const v = this.input[field];
    if (TRUE_VALUES.has(v)) return true;
    if (FALSE_VALUES.has(v)) return false;
    this.fail(field, 'The :attribute field must be true or false.');
    return undefined;
  }

  visibility(field = 'visibility', opts: { required?: boolean } = {}): Visibility | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const n = toInt(this.input[field]);
    if ((VISIBILITIES as readonly number[]).includes(n as number)) return n as Visibility;
    this.fail(field, 'The :attribute must be either 1 (public), 2 (internal) or 3 (private).');
    return undefined;
  }

  oneOf<T extends string>(field: string, values: readonly T[], opts: { required?: boolean } = {}): T | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const v = this.input[field];
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    this.fail(field, 'The selected :attribute is invalid.');
    return undefined;
  }

  url(field: string, opts: { required?: boolean } = {}): string | null | undefined {
    const v = this.string(field, { required: opts.required, max: LIMITS.url });
    if (typeof v !== 'string') return v;
    if (!isValidUrl(v)) {
      this.fail(field, 'The :attribute must be a valid URL.');
      return undefined;
    }
    return v;
  }

  array(field: string, opts: { required?: boolean } = {}): unknown[] | null | undefined {
    if (!this.need(field, opts.required)) return this.input[field] as null | undefined;
    const v = this.input[field];
    if (!Array.isArray(v)) {
      this.fail(field, 'The :attribute must be an array.');
      return undefined;
    }
    return v;
  }

  /** Tags or lists of a link: an array of ids (numbers or digit strings) and names, or a comma-separated string. */
  refs(field: string): Ref[] | null | undefined {
    if (!this.need(field, false)) return this.input[field] as null | undefined;
    const v = this.input[field];
    const items: unknown[] = typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : [v];
    // each id is looked up and each new name created: a body of millions would hold the server
    if (items.length > MAX_REFS) {
      this.fail(field, `The :attribute must not have more than ${MAX_REFS} items.`);
      return undefined;
    }
    const refs: Ref[] = [];
    for (const item of items) {
      if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) refs.push({ id: item });
      else if (typeof item === 'string' && /^\d+$/.test(item.trim())) refs.push({ id: Number(item.trim()) });
      else if (typeof item === 'string') {
        const name = item.replace(/,/g, '').trim();
        if (!name) continue;
        if ([...name].length > LIMITS.name) {
          this.fail(field, `The :attribute names must not be greater than ${LIMITS.name} characters.`);
          return undefined;
        }
        refs.push({ name });
      } else {
        this.fail(field, 'The :attribute must be an array of ids or names.');
        return undefined;
      }
    }
    return refs;
  }

  /** An array of positive integer ids. */
  ids(field: string, opts: { required?: boolean } = {}): number[] | null | undefined {
    const arr = this.array(field, opts);
    if (!arr) return arr;
    const out: number[] = [];
    for (const item of arr) {
      const n = toInt(item);
      if (n === undefined || n < 1) {
        this.fail(field, 'The :attribute must be an array of ids.');
        return undefined;
      }
      out.push(n);
    }
    return out;
  }

  done(): void {
    if (Object.keys(this.errors).length) throw new ValidationError(this.errors);
  }
}

/** The most models one bulk request takes (LinkAce's bulk requests cap them at 1,000). */
export const MAX_BULK_MODELS = 1000;

/** Refuses a bulk body of more than MAX_BULK_MODELS models (422 naming the cap), before anything else. */
export function refuseTooManyModels(count: number): void {
  if (count > MAX_BULK_MODELS) throw new ValidationError({ models: [`The models must not have more than ${MAX_BULK_MODELS} items.`] });
}

export type Ref = { id: number } | { name: string };

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
