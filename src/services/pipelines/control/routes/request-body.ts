/**
 * A pipeline route's body, as the manager reads it (the service hands every body over unparsed: index.ts):
 * its text, or its JSON, parsed by the services' one depth-then-parse reader (services/limits.ts) and refused
 * in the manager's words, 400 InvalidRequestBody `Json deserialize error: ...`. No body, or a blank one, is null
 * (clients send `null` or nothing on action endpoints). The declarations of bodies.ts read through `jsonOfBody`.
 */
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../shared/errors.js';
import { BodyLimitError, MAX_JSON_DEPTH, parseJsonBody } from '../../../limits.js';

/** The body's bytes as text ('' when there is none). */
export function bodyText(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  return typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
}

export const rawBody = (req: FastifyRequest): string => bodyText(req.body);

/** A body parsed as JSON, or null when there is none. */
export function jsonOfBody(raw: unknown): unknown {
  return readJson(raw)?.value ?? null;
}

/**
 * The JSON body's text once it is known to be JSON (checked as jsonOfBody checks it), or null when there is
 * none: for a body read again where its numbers must keep every digit (engine parseJsonText).
 */
export const jsonBodyText = (req: FastifyRequest): string | null => readJson(req.body)?.text ?? null;

function readJson(raw: unknown): { text: string; value: unknown } | null {
  const text = bodyText(raw).trim();
  if (text === '') return null;
  try {
    return { text, value: parseJsonBody(text, MAX_JSON_DEPTH) };
  } catch (err) {
    if (!(err instanceof BodyLimitError)) throw err;
    throw Errors.badBody(
      err.code === 'json_too_deep' ? `Json deserialize error: the body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` : `Json deserialize error: ${err.detail ?? err.message}`,
    );
  }
}
