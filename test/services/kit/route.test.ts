/**
 * services/kit/route.ts over real fastify: the declared route's OpenAPI entry (@fastify/swagger), its checks
 * where the handler reads its input (after a 404 it may answer first), and the service's own error renderer.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, objectOf, optional } from '../../../src/services/kit/declare.js';
import { HttpError, ValidationError } from '../../../src/services/kit/errors.js';
import { declareRoute } from '../../../src/services/kit/route.js';

const count = field<number>({ type: 'integer', minimum: 1 }, (v, fail) => (typeof v === 'string' && /^[1-9]\d*$/.test(v) ? Number(v) : fail('must be a whole number')));
const note = objectOf(
  { text: field<string>({ type: 'string', maxLength: 5 }, (v, fail) => (typeof v === 'string' && v.length <= 5 ? v : fail('must be a string of 5 at most'))) },
  { notObject: 'must be a JSON object' },
);

let app: FastifyInstance;
const seen: unknown[] = [];

beforeAll(async () => {
  app = Fastify();
  await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } } });
  // the service's renderer: the kit decides no body
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof ValidationError) return reply.code(422).send({ problems: err.errors });
    if (err instanceof HttpError) return reply.code(err.statusCode).send(err.body);
    return reply.code(500).send({ oops: true });
  });
  declareRoute<ReturnType<typeof note.check>, { limit?: number }, { id: string }>(app, {
    method: 'PUT',
    url: '/notes/:id',
    tags: ['Notes'],
    summary: 'Replace a note',
    body: note,
    query: objectOf({ limit: optional(count) }),
    handler: async (req, _reply, input) => {
      if (req.params.id !== '1') throw new HttpError(404, { missing: req.params.id });
      seen.push(input.query);
      return { id: 1, text: input.body.text, limit: input.query.limit ?? null };
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

describe('declareRoute', () => {
  it('checks the body and the query and hands the handler typed values', async () => {
    const ok = await app.inject({ method: 'PUT', url: '/notes/1?limit=3', payload: { text: 'hi' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: 1, text: 'hi', limit: 3 });
  });

  it('answers problems through the service renderer, in the checker words (not fastify/ajv ones)', async () => {
    const bad = await app.inject({ method: 'PUT', url: '/notes/1', payload: { text: 'too long' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ problems: { text: ['must be a string of 5 at most'] } });
    const badQuery = await app.inject({ method: 'PUT', url: '/notes/1?limit=0', payload: { text: 'a' } });
    expect(badQuery.json()).toEqual({ problems: { limit: ['must be a whole number'] } });
    const none = await app.inject({ method: 'PUT', url: '/notes/1' });
    expect(none.json()).toEqual({ problems: { body: ['must be a JSON object'] } });
  });

  it('checks input where the handler reads it: a missing note is 404 whatever the body', async () => {
    const r = await app.inject({ method: 'PUT', url: '/notes/2', payload: { text: 'too long' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ missing: '2' });
  });

  it('lists the route in the OpenAPI document with the declared body and query', () => {
    const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const put = doc.paths['/notes/{id}']!.put!;
    expect(put.summary).toBe('Replace a note');
    expect(put.tags).toEqual(['Notes']);
    expect(put.requestBody).toMatchObject({
      content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string', maxLength: 5 } }, required: ['text'] } } },
    });
    expect(put.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'query', name: 'limit', schema: { type: 'integer', minimum: 1 } })]));
  });
});
