/** Helpers shared by the route modules: the caller and a path's id. */
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access.js';
import { HttpError, notFound } from '../errors.js';
import { isId } from '../fields.js';

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

/** The numeric `{id}` of a path; anything else is not found. */
export function idOf(req: FastifyRequest, model: string): number {
  const raw = (req.params as Record<string, string>).id ?? '';
  if (!isId(raw)) throw notFound(model, raw);
  return Number(raw);
}
