/** services/kit/form-body.ts: a form body as one object of strings; `name[]` lists when asked (real fastify, real HTTP). */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFormBody, parseForm } from '../../../src/services/kit/form-body.js';

describe('parseForm', () => {
  it("keeps a repeated key's last value", () => {
    expect(parseForm('a=1&a=2&b=x+y')).toEqual({ a: '2', b: 'x y' });
  });

  it('leaves `name[]` as it is unless bracket arrays are asked for', () => {
    expect(parseForm('t[]=a&t[]=b')).toEqual({ 't[]': 'b' });
    expect(parseForm('t[]=a&t[]=b', true)).toEqual({ t: ['a', 'b'] });
  });

  it('a list replaces a plain value of the same name (it used to push onto a string)', () => {
    expect(parseForm('t=a&t[]=b&t[]=c', true)).toEqual({ t: ['b', 'c'] });
  });
});

describe('installFormBody', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = Fastify();
    installFormBody(app, { bodyLimit: 64, bracketArrays: true });
    app.post('/echo', async (req) => req.body);
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (body: string) => fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

  it('hands the route the parsed form', async () => {
    const r = await post('name=x&tags[]=a&tags[]=b');
    expect(await r.json()).toEqual({ name: 'x', tags: ['a', 'b'] });
  });

  it('refuses a body over its limit (413)', async () => {
    expect((await post(`name=${'x'.repeat(100)}`)).status).toBe(413);
  });
});
