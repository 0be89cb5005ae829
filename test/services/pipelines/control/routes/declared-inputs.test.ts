/**
 * The pipeline routes' declared bodies and queries (control/routes/bodies.ts, query-fields.ts): the manager's
 * 400 bodies to the byte (recorded before the routes moved onto the kit), the first bad field or parameter
 * only, and the lenient cases Feldera's serde allows (unknown keys, null Option fields, no body).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvc, type Svc } from '../../helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  const r = await svc.call('PUT', '/v0/pipelines/p', { program_code: 'CREATE TABLE t (x INT);' });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await svc.close();
});

const answer = async (method: string, path: string, raw?: string) => {
  const r = await svc.call(method, path, undefined, raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } });
  return { status: r.status, body: r.text };
};

describe('declared pipeline queries', () => {
  const queries: [string, string][] = [
    ['GET', '/v0/pipelines/p?code=maybe'],
    ['GET', '/v0/pipelines/missing?code=maybe'],
    ['POST', '/v0/pipelines/p/stop?force=maybe'],
    ['GET', '/v0/pipelines/p/events?selector=some'],
    ['GET', '/v0/pipelines/p/events?selector=all&selector=status'],
    ['GET', '/v0/pipelines/missing/events?selector=some'],
    ['GET', '/v0/pipelines/p/events/latest?selector=x'],
    ['GET', '/v0/pipelines/p/logs?lines=-1'],
    ['GET', '/v0/pipelines/p/logs?lines=many'],
    ['GET', '/v0/pipelines/p/logs?follow=maybe'],
    ['GET', '/v0/pipelines/p/logs?lines=x&follow=maybe'],
  ];
  for (const [method, path] of queries) {
    it(`${method} ${path}`, async () => {
      expect(await answer(method, path)).toMatchSnapshot();
    });
  }
});

describe('declared pipeline bodies', () => {
  const bodies: [string, string, string][] = [
    ['POST', '/v0/pipelines', ''],
    ['POST', '/v0/pipelines', 'null'],
    ['POST', '/v0/pipelines', '[1]'],
    ['POST', '/v0/pipelines', '"text"'],
    ['POST', '/v0/pipelines', '{'],
    ['POST', '/v0/pipelines', '{}'],
    ['POST', '/v0/pipelines', '{"name":1,"program_code":1}'],
    ['POST', '/v0/pipelines', '{"name":"a"}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":1,"description":1}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","description":1,"runtime_config":1}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":[]}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":{"workers":0},"program_config":1}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":{"workers":2.5}}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":{"resources":1}}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":{"resources":{"memory_mb_max":0}}}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","runtime_config":{"clock_resolution_usecs":"x"}}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","program_config":[]}'],
    ['POST', '/v0/pipelines', '{"name":"a","program_code":"","program_config":{"output_case":"title"}}'],
    ['PUT', '/v0/pipelines/q', '{}'],
    ['PUT', '/v0/pipelines/q', '{"name":2,"program_code":""}'],
    ['PUT', '/v0/pipelines/q', '{"program_code":"","runtime_config":null,"description":null,"program_config":{"output_case":7}}'],
    ['PATCH', '/v0/pipelines/p', ''],
    ['PATCH', '/v0/pipelines/p', '[1]'],
    ['PATCH', '/v0/pipelines/p', '{"name":1,"description":2}'],
    ['PATCH', '/v0/pipelines/p', '{"program_code":false}'],
    ['PATCH', '/v0/pipelines/p', '{"runtime_config":1}'],
    ['PATCH', '/v0/pipelines/p', '{"runtime_config":{"workers":0},"program_config":2}'],
    ['PATCH', '/v0/pipelines/p', '{"program_config":{"output_case":1}}'],
    ['PATCH', '/v0/pipelines/missing', '{"name":1}'],
    ['POST', '/v0/validate_program', ''],
    ['POST', '/v0/validate_program', '[]'],
    ['POST', '/v0/validate_program', '{"program_code":1}'],
    ['POST', '/v0/validate_program', '{"program_code":"","ir":"yes"}'],
    ['POST', '/v0/validate_program', '{"ir":"yes"}'],
    ['POST', '/v0/api_keys', ''],
    ['POST', '/v0/api_keys', '[]'],
    ['POST', '/v0/api_keys', '{"name":7}'],
    ['POST', '/v0/api_keys', '{"name":" "}'],
  ];
  for (const [method, path, raw] of bodies) {
    it(`${method} ${path} ${raw || '(no body)'}`, async () => {
      expect(await answer(method, path, raw)).toMatchSnapshot();
    });
  }

  it('is lenient where serde is: unknown keys and null Option fields pass, PATCH with nulls changes nothing', async () => {
    const made = await answer('POST', '/v0/pipelines', '{"name":"lenient","program_code":"","udf_rust":"","udf_toml":"","description":null,"extra":1}');
    expect(made.status).toBe(201);
    const patched = await answer('PATCH', '/v0/pipelines/lenient', '{"name":null,"description":null,"runtime_config":null,"other":true}');
    expect(patched.status).toBe(200);
    expect(JSON.parse(patched.body)).toMatchObject({ name: 'lenient', description: '' });
    const put = await answer('PUT', '/v0/pipelines/lenient', '{"program_code":"","runtime_config":{"workers":3}}');
    expect(put.status).toBe(200);
    expect(JSON.parse(put.body)).toMatchObject({ name: 'lenient', runtime_config: { workers: 3 } });
  });
});
