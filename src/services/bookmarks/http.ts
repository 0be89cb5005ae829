/** Body parsers, the error handler and the JSON-404 of the bookmark API's fastify context. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, ValidationError, validationBody } from './errors.js';
import { BODY_LIMITS, MAX_JSON_DEPTH, parseJsonBody, tooLargeMessage } from '../limits.js';
import { refuseTooManyModels } from './validate.js';
import { installJsonBody } from '../kit/json-body.js';

/** Routes whose JSON bodies may be bigger than the rest (bulk creates of up to 1,000 models). */
const BULK_ROUTE = /^\/api\/v2\/bulk\//;

export function installParsers(app: FastifyInstance): void {
  // text/plain is not parsed: a non-JSON body is 415, not a misleading "url field is required" (LinkAce 2.1.4+).
  // The bulk routes take a bigger body than the parser's default; fastify applies a route's bodyLimit.
  app.addHook('onRoute', (r) => {
    if (BULK_ROUTE.test(r.url) && r.bodyLimit === undefined) r.bodyLimit = BODY_LIMITS.bookmarksBulk;
  });
  installJsonBody(app, {
    bodyLimit: BODY_LIMITS.bookmarksJson,
    parse: (text, req) => {
      const bulk = BULK_ROUTE.test(req.routeOptions.url ?? '');
      return parseJsonBody(text, MAX_JSON_DEPTH, bulk ? (shape) => refuseTooManyModels(shape.topLevelArrays.get('models') ?? 0) : undefined);
    },
    refuse: (e) => (e instanceof HttpError || e instanceof ValidationError ? e : new HttpError(400, { message: (e as Error).message })),
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMITS.bookmarksJson }, (_req, body, done) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(String(body))) {
      const key = k.endsWith('[]') ? k.slice(0, -2) : k;
      if (k.endsWith('[]')) ((out[key] ??= []) as unknown[]).push(v);
      else out[key] = v;
    }
    done(null, out);
  });
}

export function errorHandler(err: FastifyError | HttpError | ValidationError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ValidationError) return reply.code(422).send(validationBody(err.errors));
  if (err instanceof HttpError) return reply.code(err.statusCode).headers(err.headers).send(err.body);
  const status = (err as FastifyError).statusCode ?? 500;
  const code = (err as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send({ message: `Unsupported Media Type: ${req.headers['content-type'] ?? 'none'}. Send application/json.` });
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return reply.code(413).send({ message: tooLargeMessage(BULK_ROUTE.test(req.routeOptions.url ?? '') ? BODY_LIMITS.bookmarksBulk : BODY_LIMITS.bookmarksJson) });
  if (status >= 400 && status < 500) return reply.code(status).send({ message: err.message });
  req.log.error({ err }, 'bookmarks: unexpected error');
  return reply.code(500).send({ message: 'Server Error' });
}

/** Remembers the routes of this context (call before registering them) for 404/405 answers. */
export type KnownRoutes = Map<string, { pattern: RegExp; methods: Set<string> }>;

export function trackRoutes(app: FastifyInstance): KnownRoutes {
  const routes: KnownRoutes = new Map();
  app.addHook('onRoute', (r) => {
    if (r.url === '/api/*' || !r.url.startsWith('/api/')) return;
    let entry = routes.get(r.url);
    if (!entry) {
      const source = r.url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      routes.set(r.url, (entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() }));
    }
    for (const m of Array.isArray(r.method) ? r.method : [r.method]) if (m !== 'HEAD') entry.methods.add(m);
  });
  return routes;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function notFoundRoutes(app: FastifyInstance, known: KnownRoutes): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.raw.url ?? '').split('?')[0]!;
    const allowed = new Set<string>();
    for (const r of known.values()) if (r.pattern.test(path)) for (const m of r.methods) allowed.add(m);
    const route = path.replace(/^\//, '');
    if (allowed.size) {
      if (allowed.has('GET')) allowed.add('HEAD');
      const list = METHOD_ORDER.filter((m) => allowed.has(m));
      return reply
        .code(405)
        .header('allow', list.join(', '))
        .send({ message: `The ${req.method} method is not supported for route ${route}. Supported methods: ${list.join(', ')}.` });
    }
    return reply.code(404).send({ message: `The route ${route} could not be found.` });
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/api/*', handler, schema: { hide: true } as never });
}
