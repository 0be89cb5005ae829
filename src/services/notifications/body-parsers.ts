/**
 * The notification service's body parsers (its fastify scope), through the kit: JSON up to its limit, an empty
 * body accepted (clients send the content type on every call), bad JSON a 400 `invalid_json` and a too deep one
 * `json_too_deep` (rendered by errors.ts); forms as one object of strings.
 */
import type { FastifyInstance } from 'fastify';
import { installJsonBody } from '../kit/json-body.js';
import { installFormBody } from '../kit/form-body.js';
import { BODY_LIMITS, BodyLimitError, parseJsonBody } from '../limits.js';

export function installParsers(app: FastifyInstance): void {
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
  installFormBody(app, { bodyLimit: 64 * 1024 });
}
