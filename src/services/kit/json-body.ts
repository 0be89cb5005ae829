/**
 * A service's JSON body parser, installed once in its fastify context (services/kit): `application/json`
 * bodies up to `bodyLimit` bytes are read as text and parsed by the service (`parse`, its depth and size rules);
 * an empty or blank body is no body (undefined: clients send the content type on every call); what `parse`
 * throws becomes the service's error (`refuse`, rendered by its error handler). `text/plain` is not parsed
 * (fastify's default would hand it over as a string): a route wanting JSON answers 415 to it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface JsonBodyRules {
  bodyLimit: number;
  parse(text: string, req: FastifyRequest): unknown;
  refuse(err: unknown): Error;
}

export function installJsonBody(app: FastifyInstance, rules: JsonBodyRules): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: rules.bodyLimit }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, rules.parse(text, req));
    } catch (e) {
      done(rules.refuse(e), undefined);
    }
  });
}
