/**
 * The protocol per client on a default `ops serve` (client-api.ts): today's Python SDK's and fda's requests,
 * sent exactly as they send them, get today's statuses, shapes and lower-case names; v0.24's SDK's requests
 * and the CLI's keep the description's; `--feldera` (felderaApi) forces one for everyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerApi, clientApiOf } from '../../../src/services/pipelines/control/client-api.js';
import { felderaApi } from '../../../src/commands/serve/run.js';
import { isolatedEnv, startServe } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (x INT, "Quoted" INT);\nCREATE MATERIALIZED VIEW v AS SELECT x, "Quoted" FROM t;';
/** The headers every call of the Python SDK carries (python/feldera/rest/_httprequests.py). */
const SDK = { 'user-agent': 'feldera-python-sdk/v1' };

/** Today's SDK's create_pipeline body (feldera_client.py create_pipeline). */
function todayBody(name: string) {
  return { name, program_code: SQL, udf_rust: '', udf_toml: '', program_config: {}, runtime_config: {}, description: '', tags: [] };
}

/** v0.24's SDK's create body (v0.24.0 feldera_client.py). */
function v024Body(name: string) {
  return { name, program_code: SQL, program_config: {}, runtime_config: {}, description: '' };
}

describe('clientApiOf: the marks of a client', () => {
  it("tells today's clients by a tenant header, a selector or today's body fields, and nothing else", () => {
    expect(clientApiOf({ headers: { 'feldera-tenant': 'acme' }, query: {} })).toBe('current');
    expect(clientApiOf({ headers: SDK, query: { selector: 'status' } })).toBe('current');
    expect(clientApiOf({ headers: SDK, query: {}, body: todayBody('p') })).toBe('current');
    expect(clientApiOf({ headers: {}, query: {}, body: { name: 'p', program_code: '', tags: [] } })).toBe('current');
    // the user agent is the same for both SDKs; v0.24's body has none of today's fields
    expect(clientApiOf({ headers: SDK, query: {}, body: v024Body('p') })).toBeNull();
    expect(clientApiOf({ headers: SDK, query: { code: 'false' } })).toBeNull();
    expect(clientApiOf({ headers: {}, query: {}, body: ['tags'] })).toBeNull();
  });

  it('answers the forced API first, then the mark, then the pipeline kind, then v0.24', () => {
    const marked = { headers: {}, query: { selector: 'all' } };
    const bare = { headers: {}, query: {} };
    expect(answerApi('v0.24', marked, 'current')).toBe('v0.24');
    expect(answerApi(undefined, marked, 'v0.24')).toBe('current');
    expect(answerApi(undefined, bare, 'current')).toBe('current');
    expect(answerApi(undefined, bare, undefined)).toBe('v0.24');
  });
});

describe('felderaApi: ops serve --feldera and its two older aliases', () => {
  it('auto forces nothing; current and v0.24 force both halves; an older flag wins for its half', () => {
    expect(felderaApi({ feldera: 'auto' })).toEqual({});
    expect(felderaApi({})).toEqual({});
    expect(felderaApi({ feldera: 'current' })).toEqual({ outputCase: 'lower', pipelineApi: 'current' });
    expect(felderaApi({ feldera: 'v0.24' })).toEqual({ outputCase: 'upper', pipelineApi: 'v0.24' });
    expect(felderaApi({ pipelineApi: 'current', outputCase: 'lower' })).toEqual({ outputCase: 'lower', pipelineApi: 'current' });
    expect(felderaApi({ feldera: 'current', outputCase: 'upper' })).toEqual({ outputCase: 'upper', pipelineApi: 'current' });
  });
});

describe('a default server answers each client in its own protocol', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
  });
  afterAll(async () => {
    await svc.close();
  });

  const get = async (path: string) => (await svc.call('GET', path, undefined, { headers: SDK })).json;
  const post = async (path: string, expected: number) => {
    const r = await svc.call('POST', path, undefined, { headers: SDK });
    expect(r.status, r.text).toBe(expected);
  };
  const until = (name: string, field: string, value: string, query = '?selector=status') =>
    waitFor(async () => {
      const p = await get(`/v0/pipelines/${name}${query}`);
      return p[field] === value ? p : undefined;
    }, `${name} ${field} ${value}`);

  it("today's SDK: create, compile, start, push, query, listen and stop, as the SDK sends them", async () => {
    expect((await svc.call('GET', '/v0/config', undefined, { headers: SDK })).json.edition).toBe('Open source');
    const created = await svc.call('POST', '/v0/pipelines', todayBody('sdk'), { headers: SDK });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ deployment_status: 'Stopped', storage_status: 'Cleared' });
    await until('sdk', 'program_status', 'Success');
    const all = await get('/v0/pipelines/sdk?selector=all');
    // names as today's Feldera stores them: unquoted lower case, quoted as written
    expect(all.program_info.schema.inputs[0]).toMatchObject({ name: 't', fields: [{ name: 'x' }, { name: 'Quoted', case_sensitive: true }] });
    expect(all.program_info.schema.outputs[0].name).toBe('v');
    expect(all.program_error).toEqual({ sql_compilation: { exit_code: 0, messages: [] }, rust_compilation: null, system_error: null });

    await post('/v0/pipelines/sdk/dismiss_error', 200);
    await post('/v0/pipelines/sdk/start?dismiss_error=false&initial=paused', 202);
    await until('sdk', 'deployment_status', 'Paused');
    const listen = await WatchReader.open(svc, 'sdk', 'v', 'format=json&backpressure=true&array=false');
    await post('/v0/pipelines/sdk/resume', 202);
    await until('sdk', 'deployment_status', 'Running');
    const pushed = await svc.call('POST', '/v0/pipelines/sdk/ingress/t?force=false&format=json&array=true&update_format=raw', undefined, {
      headers: { ...SDK, 'content-type': 'application/json' },
      raw: '[{"x": 1, "Quoted": 2}]',
    });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.json).toHaveProperty('token');
    await listen.until((w) => w.items().length === 1, 'the pushed row on the listener');
    expect(listen.items()).toEqual([{ insert: { x: 1, Quoted: 2 } }]);
    const q = await svc.call('GET', `/v0/pipelines/sdk/query?sql=${encodeURIComponent('SELECT * FROM v')}&format=json`, undefined, { headers: SDK });
    expect(q.text.trim()).toBe('{"x":1,"Quoted":2}');

    await post('/v0/pipelines/sdk/stop?force=true', 202);
    const stopped = await until('sdk', 'deployment_status', 'Stopped');
    expect(stopped.deployment_desired_status).toBe('Stopped');
    // GETs without a selector (the SDK's get_runtime_config, fda's waits) get the pipeline's own kind
    expect((await get('/v0/pipelines/sdk')).deployment_status).toBe('Stopped');
    expect((await get('/v0/pipelines')).find((p: { name: string }) => p.name === 'sdk').deployment_status).toBe('Stopped');
    await listen.until((w) => w.ended, 'the listener ends at stop');
  });

  it("fda's create (tags always sent) makes a today's pipeline; its bare status GET gets today's shape", async () => {
    const body = { name: 'fda', program_code: SQL, udf_rust: null, udf_toml: null, description: null, tags: [], program_config: { profile: 'optimized', cache: true }, runtime_config: null };
    const r = await svc.call('POST', '/v0/pipelines', body);
    expect(r.status, r.text).toBe(201);
    const p = await waitFor(async () => {
      const g = (await svc.call('GET', '/v0/pipelines/fda')).json;
      return g.program_status === 'Success' ? g : undefined;
    }, 'fda compiled');
    expect(p).toMatchObject({ deployment_status: 'Stopped', storage_status: 'Cleared' });
    expect(p.program_info.schema.inputs[0].name).toBe('t');
  });

  it("v0.24's SDK: its pipelines keep the description's upper-case names and v0.24 statuses", async () => {
    const put = await svc.call('PUT', '/v0/pipelines/old', v024Body('old'), { headers: SDK });
    expect(put.status, put.text).toBe(201);
    const p = await until('old', 'program_status', 'Success', '');
    expect(p).toMatchObject({ deployment_status: 'Shutdown', deployment_desired_status: 'Shutdown' });
    expect(p).not.toHaveProperty('storage_status');
    expect(p.program_info.schema.inputs[0].name).toBe('T');
    await post('/v0/pipelines/old/start', 202);
    await until('old', 'deployment_status', 'Running', '');
    await post('/v0/pipelines/old/shutdown', 202);
    await until('old', 'deployment_status', 'Shutdown', '');
    // a today's client asking after it gets today's statuses (its names stay its creator's)
    const seen = await get('/v0/pipelines/old?selector=status');
    expect(seen).toMatchObject({ deployment_status: 'Stopped', program_status: 'Success' });
  });
});

describe('ops serve --feldera v0.24 answers every client as v0.24', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc(felderaApi({ feldera: 'v0.24' }));
  });
  afterAll(async () => {
    await svc.close();
  });

  it("today's SDK's requests get v0.24's statuses and upper-case names", async () => {
    expect((await svc.call('POST', '/v0/pipelines', todayBody('forced'), { headers: SDK })).status).toBe(201);
    const p = await waitFor(async () => {
      const g = (await svc.call('GET', '/v0/pipelines/forced?selector=all', undefined, { headers: SDK })).json;
      return g.program_status === 'Success' ? g : undefined;
    }, 'forced compiled');
    expect(p.deployment_status).toBe('Shutdown');
    expect(p.program_info.schema.inputs[0].name).toBe('T');
  });
});

describe('ops serve --feldera current', () => {
  it("answers a request with no mark (v0.24's SDK's create, a bare GET) in today's protocol; a bad value is a usage error", async () => {
    const server = await startServe(['--feldera', 'current']);
    try {
      const base = `${server.url}/v0`;
      const put = await fetch(`${base}/pipelines/sw`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(v024Body('sw')) });
      expect(put.status).toBe(201);
      const p = await waitFor(async () => {
        const r = (await (await fetch(`${base}/pipelines/sw`)).json()) as any;
        return r.program_status === 'Success' ? r : undefined;
      }, 'compiled');
      expect(p).toMatchObject({ deployment_status: 'Stopped', storage_status: 'Cleared' });
      expect(p.program_info.schema.inputs[0].name).toBe('t');
    } finally {
      await server.stop();
    }
    const bad = await opsIn(['serve', '--feldera', 'newest'], { env: isolatedEnv() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('auto');
  });
});
