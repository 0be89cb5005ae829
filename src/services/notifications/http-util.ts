/**
 * The notification service's HTTP edge: its error renderer (`{error, message, errors?}`; a ValidationError of a
 * route's declaration is 400 `validation_failed`), the API key of a request, its JSON and form parsers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, ValidationError } from '../kit/errors.js';
import { installJsonBody } from '../kit/json-body.js';
import { BODY_LIMITS, BodyLimitError, parseJsonBody } from '../limits.js';
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

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : undefined;
}

export function cookieValue(req: FastifyRequest, name: string): string | undefined {
  const raw = req.headers.cookie;
  if (typeof raw !== 'string') return undefined;
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i === -1) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * JSON and form parsers for this service's scope: an empty body is accepted (clients send the
 * content type on every call), bad JSON is a 400 with our error body; a store fault (disk full, damaged
 * file: `storeFault`, store-guard.ts) answers 507 or 503 with its message.
 */
export function installParsers(app: FastifyInstance, storeFault: (err: unknown) => StoreFault | null = () => null): void {
  installJsonBody(app, {
    bodyLimit: BODY_LIMITS.notificationsJson,
    parse: (text) => parseJsonBody(text.trim()),
    refuse: (e) => {
      const tooDeep = e instanceof BodyLimitError && e.code === 'json_too_deep';
      const err = new Error(tooDeep ? e.message : 'the request body is not valid JSON') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = tooDeep ? 'json_too_deep' : 'invalid_json';
      return err;
    },
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
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
    const code = err.code === 'invalid_json' || err.code === 'json_too_deep' ? err.code : status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
    return sendError(reply, status, code, err.message);
  });
}
