/** Helpers shared by the route modules: the caller, inputs, ids, flags. */
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access.js';
import { HttpError, notFound } from '../errors.js';
import { Check, normalizeInput, type Input } from '../validate.js';

declare module 'fastify' {
  interface FastifyRequest {
    bmCaller: Caller | null;
  }
}

export function callerOf(req: FastifyRequest): Caller {
  const c = req.bmCaller;
  if (!c) throw new HttpError(401, { message: 'Unauthenticated.' });
  return c;
}

export function queryOf(req: FastifyRequest): Input {
  return normalizeInput(req.query);
}

/** The numeric `{id}` of a path; anything else is not found. */
export function idOf(req: FastifyRequest, model: string): number {
  const raw = (req.params as Record<string, string>).id ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound(model, raw);
  return Number(raw);
}

/**
 * A query flag as LinkAce reads it, PHP's `(bool)`: any non-empty value but "0" is true ("false" and "off"
 * too); absent, empty and "0" are false. A repeated key reads as its last value.
 */
export function flag(v: unknown): boolean {
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  if (last === undefined || last === null || last === false || last === 0) return false;
  const s = String(last);
  return s !== '' && s !== '0';
}

/** A comma-separated (or repeated) list of ids from a query value. */
export function idList(c: Check, input: Input, field: string): number[] | undefined {
  const v = input[field] ?? input[`${field}[]`];
  if (v === undefined || v === null) return undefined;
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((x) => String(x).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,15}$/.test(p)) {
      c.fail(field, 'The :attribute must be a comma-separated list of ids.');
      return undefined;
    }
    out.push(Number(p));
  }
  return out;
}
