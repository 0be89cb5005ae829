/** services/kit/json-body.ts over real fastify: blank bodies, the service's parse and refusal, text/plain refused. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/services/kit/errors.js';
import { installJsonBody } from '../../../src/services/kit/json-body.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  installJsonBody(app, {
    bodyLimit: 64,
    parse: (text) => {
      const v: unknown = JSON.parse(text);
      if (Array.isArray(v)) throw new HttpError(422, { why: 'no arrays here' });
      return v;
    },
    refuse: (e) => (e instanceof HttpError ? e : new HttpError(400, { why: 'not JSON' })),
  });
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) =>
    err instanceof HttpError ? reply.code(err.statusCode).send(err.body) : reply.code(err.statusCode ?? 500).send({ fastify: err.code }),
  );
  app.post('/echo', async (req) => ({ body: req.body === undefined ? 'none' : req.body }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

const post = (payload: string, type = 'application/json') => app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': type }, payload });

describe('installJsonBody', () => {
  it('hands the parsed value over; a blank body is no body', async () => {
    expect((await post('{"a":1}')).json()).toEqual({ body: { a: 1 } });
    expect((await post('  \n ')).json()).toEqual({ body: 'none' });
  });

  it("answers what parse throws as the service's refusal", async () => {
    const bad = await post('{"a":');
    expect([bad.statusCode, bad.json()]).toEqual([400, { why: 'not JSON' }]);
    const refused = await post('[1]');
    expect([refused.statusCode, refused.json()]).toEqual([422, { why: 'no arrays here' }]);
  });

  it('refuses text/plain (415) and a body over the limit (413)', async () => {
    expect((await post('{}', 'text/plain')).statusCode).toBe(415);
    expect((await post(JSON.stringify({ a: 'x'.repeat(100) }))).statusCode).toBe(413);
  });
});
