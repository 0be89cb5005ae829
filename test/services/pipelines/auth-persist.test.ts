/** Auth off by default and on with --pipelines-auth; definitions persist across restarts. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pipelineBody, startSvc, waitFor } from './helpers.js';

describe('auth', () => {
  it('is off by default: requests need no Authorization header and no key is handed out', async () => {
    const svc = await startSvc();
    try {
      expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
      expect(await svc.sa.handle.localCredentials?.()).toEqual({});
    } finally {
      await svc.close();
    }
  });

  it('on: every request needs Bearer apikey:...; keys can be created, listed and deleted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-pipe-auth-'));
    let svc = await startSvc({ pipelinesAuth: true }, { dataDir });
    const { pipeApiKey } = (await svc.sa.handle.localCredentials!()) as { pipeApiKey: string };
    expect(pipeApiKey).toMatch(/^apikey:[A-Za-z0-9]{128}$/);
    try {
      const none = await svc.call('GET', '/v0/pipelines');
      expect(none.status).toBe(401);
      expect(none.json).toMatchObject({ error_code: 'Unauthorized' });
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await svc.call('GET', '/v0/pipelines', undefined, { headers: { authorization: 'Bearer apikey:nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.json.error_code).toBe('InvalidApiKey');
      expect((await svc.call('PUT', '/v0/pipelines/x', pipelineBody('x', 'CREATE TABLE t (x INT);'))).status).toBe(401);
      expect((await svc.call('GET', '/v0/nothing')).status).toBe(401);

      svc.headers.authorization = `Bearer ${pipeApiKey}`;
      expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
      const created = await svc.call('POST', '/v0/api_keys', { name: 'ci' });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ name: 'ci', api_key_id: expect.any(String), api_key: expect.stringMatching(/^apikey:/) });
      expect((await svc.call('POST', '/v0/api_keys', { name: 'ci' })).status).toBe(409);
      expect((await svc.call('GET', '/v0/api_keys')).json.map((k: any) => k.name).sort()).toEqual(['ci', 'ops-local']);
      const ci = { authorization: `Bearer ${created.json.api_key}` };
      expect((await svc.call('GET', '/v0/pipelines', undefined, { headers: ci })).status).toBe(200);
      expect((await svc.call('DELETE', '/v0/api_keys/ci')).status).toBe(200);
      expect((await svc.call('GET', '/v0/pipelines', undefined, { headers: ci })).status).toBe(401);

      // The local key survives a restart of the server
      await svc.close();
      svc = await startSvc({ pipelinesAuth: true }, { dataDir });
      expect(((await svc.sa.handle.localCredentials!()) as { pipeApiKey: string }).pipeApiKey).toBe(pipeApiKey);
      svc.headers.authorization = `Bearer ${pipeApiKey}`;
      expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('persistence', () => {
  it('definitions persist across restarts; a pipeline that was running comes back Running by itself, with its rows', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-pipe-persist-'));
    let svc = await startSvc({}, { dataDir });
    const sql = 'CREATE TABLE t (x INTEGER);\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;';
    const put = await svc.call('PUT', '/v0/pipelines/keepme', pipelineBody('keepme', sql));
    await svc.call('PUT', '/v0/pipelines/keepme', pipelineBody('keepme', sql + '\n'));
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/keepme')).json.program_status === 'Success', 'compiled');
    await svc.call('POST', '/v0/pipelines/keepme/start');
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/keepme')).json.deployment_status === 'Running', 'Running');
    expect((await svc.call('POST', '/v0/pipelines/keepme/ingress/t?format=json', undefined, { raw: '{"insert":{"x":4}}' })).status).toBe(200);
    const before = (await svc.call('GET', '/v0/pipelines/keepme')).json;
    await svc.close();

    svc = await startSvc({}, { dataDir });
    try {
      const after = (await svc.call('GET', '/v0/pipelines/keepme')).json;
      expect(after).toMatchObject({
        id: put.json.id,
        version: 2,
        program_version: 2,
        program_code: sql + '\n',
        program_status: 'Success',
        created_at: before.created_at,
        deployment_desired_status: 'Running',
      });
      expect(after.program_info).toEqual(before.program_info);
      await waitFor(async () => (await svc.call('GET', '/v0/pipelines/keepme')).json.deployment_status === 'Running', 'Running again');
      const r = await svc.call('POST', '/v0/pipelines/keepme/ingress/t?format=json', undefined, { raw: '{"insert":{"x":5}}' });
      expect(r.status).toBe(200);
      const q = await svc.call('GET', `/v0/pipelines/keepme/query?sql=${encodeURIComponent('SELECT x FROM v ORDER BY x')}&format=json`);
      expect(
        q.text
          .trim()
          .split('\n')
          .map((l) => Object.values(JSON.parse(l))[0]),
      ).toEqual([4, 5]);
    } finally {
      await svc.close();
    }
  });

  it('a compilation interrupted by a restart starts again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-pipe-persist-'));
    let svc = await startSvc({ pipelinesCompileDelayMs: 60_000 }, { dataDir });
    await svc.call('PUT', '/v0/pipelines/halfway', pipelineBody('halfway', 'CREATE TABLE t (x INTEGER);'));
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/halfway')).json.program_status === 'CompilingRust', 'CompilingRust');
    await svc.close();
    svc = await startSvc({}, { dataDir });
    try {
      await waitFor(async () => (await svc.call('GET', '/v0/pipelines/halfway')).json.program_status === 'Success', 'Success after restart');
    } finally {
      await svc.close();
    }
  });
});
