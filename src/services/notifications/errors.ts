/**
 * The notification service's error answers: its body `{error, message, errors?}` (`sendError`), the 429 of a
 * client whose wrong keys spent its budget, and its error handler (`installErrorHandler`): a ValidationError of
 * a route's declaration is 400 `validation_failed` with the problems per field, an HttpError is sent as decided,
 * a store fault (disk full, damaged file: store-guard.ts) 507 or 503 with its message, a 4xx of fastify or of a
 * body parser with its code, anything else a logged 500 `internal`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError, ValidationError } from '../kit/errors.js';
import type { StoreFault } from '../store-guard.js';

export interface ErrorBody {
  error: string;
  message: string;
  errors?: Record<string, string[]>;
}

export function sendError(reply: FastifyReply, status: number, error: string, message: string, errors?: Record<string, string[]>) {
  const body: ErrorBody = { error, message, ...(errors ? { errors } : {}) };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** 429 for a client whose wrong keys spent its budget (auth-throttle.ts). */
export function tooManyFailures(reply: FastifyReply, retryAfter: number) {
  return sendError(reply.header('retry-after', String(retryAfter)), 429, 'too_many_attempts', `too many wrong API keys from this client: try again in ${retryAfter} s`);
}

/** The codes a 4xx keeps (the body parsers' own, body-parsers.ts); others are named by their status. */
const KEPT_CODES = new Set(['invalid_json', 'json_too_deep']);

export function installErrorHandler(app: FastifyInstance, storeFault: (err: unknown) => StoreFault | null = () => null): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    if (err instanceof ValidationError) return sendError(reply, 400, 'validation_failed', err.message, err.errors);
    if (err instanceof HttpError) return reply.code(err.statusCode).headers(err.headers).type('application/json; charset=utf-8').send(err.body);
    const fault = storeFault(err);
    if (fault) return sendError(reply, fault.status, fault.code, fault.message);
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      reply.log.error(err);
      return sendError(reply, 500, 'internal', 'internal error');
    }
    const code = err.code && KEPT_CODES.has(err.code) ? err.code : status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
    return sendError(reply, status, code, err.message);
  });
}
