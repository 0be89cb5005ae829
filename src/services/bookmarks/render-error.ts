/**
 * The bookmark service's error handler, as LinkAce answers: a ValidationError is Laravel's 422 `{message,
 * errors}` (errors.ts), an HttpError is sent as decided, fastify's refusals (media type, body size, other 4xx) in
 * LinkAce's words, anything else a logged 500 `Server Error`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, ValidationError, validationBody } from './errors.js';
import { tooLargeMessage } from '../limits.js';
import { bodyLimitOf } from './body-parsers.js';

export function renderError(err: FastifyError | HttpError | ValidationError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ValidationError) return reply.code(422).send(validationBody(err.errors));
  if (err instanceof HttpError) return reply.code(err.statusCode).headers(err.headers).send(err.body);
  const status = (err as FastifyError).statusCode ?? 500;
  const code = (err as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send({ message: `Unsupported Media Type: ${req.headers['content-type'] ?? 'none'}. Send application/json.` });
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ message: tooLargeMessage(bodyLimitOf(req.routeOptions.url)) });
  if (status >= 400 && status < 500) return reply.code(status).send({ message: err.message });
  req.log.error({ err }, 'bookmarks: unexpected error');
  return reply.code(500).send({ message: 'Server Error' });
}
