/**
 * A route declared once (services/kit): method, path, what it does, its body and query declarations
 * (kit/declare.ts) and its handler. From the declaration come
 *   - the route's schema (summary, tags, the body's and the query's JSON Schema, whatever `doc` adds), so a
 *     service that serves an OpenAPI document (@fastify/swagger) lists the route as it is checked;
 *   - the checks: `input.body` and `input.query` are the declaration's checked, typed values. They are checked
 *     where the handler first reads them, so a route may answer "not found" or "forbidden" before it looks at
 *     input, as the real systems do. A problem throws a ValidationError that the service's error handler renders.
 * Fastify's own schema validator is not used on these routes (it would answer in its own words and coerce
 * values first); the declaration's checker is the validator.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import type { Declared } from './declare.js';

export interface RouteInput<Body, Query> {
  /** The body, checked against the route's declaration on first read. */
  readonly body: Body;
  /** The query, checked against the route's declaration on first read. */
  readonly query: Query;
}

export interface RouteDeclaration<Body, Query, Params> {
  method: HTTPMethods | HTTPMethods[];
  url: string;
  summary?: string;
  tags?: string[];
  body?: Declared<Body>;
  query?: Declared<Query>;
  /** More of the route's documentation: path parameters, answers, ... (never checked). */
  doc?: FastifySchema;
  handler(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply, input: RouteInput<Body, Query>): unknown;
}

/** The schema a declaration documents its route with. */
export function routeSchema<B, Q, P>(d: Pick<RouteDeclaration<B, Q, P>, 'summary' | 'tags' | 'body' | 'query' | 'doc'>): FastifySchema {
  return {
    ...(d.tags ? { tags: d.tags } : {}),
    ...(d.summary ? { summary: d.summary } : {}),
    ...d.doc,
    ...(d.body ? { body: d.body.schema } : {}),
    ...(d.query ? { querystring: d.query.schema } : {}),
  } as FastifySchema;
}

/** The checked input of one request: each part checked once, when first read. */
export function inputOf<B, Q>(req: FastifyRequest, body?: Declared<B>, query?: Declared<Q>): RouteInput<B, Q> {
  let checkedBody: { value: B } | undefined;
  let checkedQuery: { value: Q } | undefined;
  return {
    get body(): B {
      checkedBody ??= { value: body ? body.check(req.body) : (undefined as B) };
      return checkedBody.value;
    },
    get query(): Q {
      checkedQuery ??= { value: query ? query.check(req.query) : (undefined as Q) };
      return checkedQuery.value;
    },
  };
}

const passThrough = () => () => true;
const plainJson = () => (data: unknown) => JSON.stringify(data);

export function declareRoute<Body = undefined, Query = undefined, Params = Record<string, string>>(app: FastifyInstance, d: RouteDeclaration<Body, Query, Params>): void {
  app.route<{ Params: Params }>({
    method: d.method,
    url: d.url,
    schema: routeSchema(d),
    // the declaration checks (inputOf); answers are documented, not filtered
    validatorCompiler: passThrough,
    serializerCompiler: plainJson,
    handler: (req, reply) => d.handler(req, reply, inputOf(req, d.body, d.query)),
  });
}
