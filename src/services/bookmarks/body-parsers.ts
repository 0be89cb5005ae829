/**
 * The bookmark API's body parsers (its fastify context): JSON through the kit (kit/json-body.ts) with LinkAce's
 * depth rule and a bigger limit for the bulk routes (up to 1,000 models, counted before the body is parsed),
 * forms through the kit with PHP's `name[]` lists. text/plain is not parsed: a non-JSON body is 415, not a
 * misleading "url field is required" (LinkAce 2.1.4+).
 */
import type { FastifyInstance } from 'fastify';
import { HttpError, ValidationError } from '../kit/errors.js';
import { BODY_LIMITS, MAX_JSON_DEPTH, parseJsonBody } from '../limits.js';
import { refuseTooManyModels } from './bodies/bulk.js';
import { installJsonBody } from '../kit/json-body.js';
import { installFormBody } from '../kit/form-body.js';

/** Routes whose JSON bodies may be bigger than the rest (bulk creates of up to 1,000 models). */
const BULK_ROUTE = /^\/api\/v2\/bulk\//;

const isBulk = (routeUrl: string | undefined) => BULK_ROUTE.test(routeUrl ?? '');

/** The body limit of a route (its declared url). */
export const bodyLimitOf = (routeUrl: string | undefined): number => (isBulk(routeUrl) ? BODY_LIMITS.bookmarksBulk : BODY_LIMITS.bookmarksJson);

export function installParsers(app: FastifyInstance): void {
  // fastify applies a route's bodyLimit over the parser's
  app.addHook('onRoute', (r) => {
    if (isBulk(r.url) && r.bodyLimit === undefined) r.bodyLimit = BODY_LIMITS.bookmarksBulk;
  });
  installJsonBody(app, {
    bodyLimit: BODY_LIMITS.bookmarksJson,
    parse: (text, req) => parseJsonBody(text, MAX_JSON_DEPTH, isBulk(req.routeOptions.url) ? (shape) => refuseTooManyModels(shape.topLevelArrays.get('models') ?? 0) : undefined),
    refuse: (e) => (e instanceof HttpError || e instanceof ValidationError ? e : new HttpError(400, { message: (e as Error).message })),
  });
  installFormBody(app, { bodyLimit: BODY_LIMITS.bookmarksJson, bracketArrays: true });
}
