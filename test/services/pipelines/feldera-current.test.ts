/**
 * Today's Feldera API beside v0.24's: /stop (force), /resume, /clear, /dismiss_error, /start?initial=paused,
 * GET /v0/config, and `ops serve --pipeline-api current` (today's status names, program_error,
 * storage_status), with `ops pipe` run against it unchanged.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, startServe } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, pipelineBody, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (x INT);\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;';

async function status(svc: Svc, name: string): Promise<any> {
  return (await svc.call('GET', `/v0/pipelines/${name}`)).json;
}

async function until(svc: Svc, name: string, deployment: string): Promise<any> {
  return waitFor(async () => {
    const p = await status(svc, name);
    return p.deployment_status === deployment ? p : undefined;
  }, `${name} ${deployment}`);
}

async function post(svc: Svc, name: string, action: string, expected: number): Promise<any> {
  const r = await svc.call('POST', `/v0/pipelines/${name}/${action}`);
  expect(r.status, r.text).toBe(expected);
  return r.json;
}

describe("today's lifecycle calls on the default (v0.24) server", () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('start?initial=paused, /resume, /stop?force=false answer 202 and keep v0.24 names', async () => {
    await createCompiled(svc, 'old', SQL);
    expect((await status(svc, 'old')).deployment_status).toBe('Shutdown');
    await post(svc, 'old', 'start?initial=paused', 202);
    await until(svc, 'old', 'Paused');
    await post(svc, 'old', 'resume', 202);
    await until(svc, 'old', 'Running');
    await post(svc, 'old', 'stop?force=false', 202);
    const p = await until(svc, 'old', 'Shutdown');
    expect(p.deployment_desired_status).toBe('Shutdown');
    expect(p).not.toHaveProperty('storage_status');
  });

  it("GET /v0/config answers Feldera's Configuration object", async () => {
    const r = await svc.call('GET', '/v0/config');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ edition: 'Open source', version: expect.any(String), posthog: '', build_source: 'source', license_validity: null });
    expect(Object.keys(r.json.build_info)).toEqual(expect.arrayContaining(['build_timestamp', 'build_cpu', 'build_os', 'rustc_version']));
  });

  it('an unknown action names every action', async () => {
    await createCompiled(svc, 'acts', SQL);
    const r = await svc.call('POST', '/v0/pipelines/acts/restart');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error_code: 'InvalidPipelineAction' });
    expect(r.json.message).toContain("'dismiss_error'");
  });
});

describe('ops serve --pipeline-api current', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: 'current', outputCase: 'lower' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it("reports today's names: Stopped, program_status as a string with program_error, storage_status", async () => {
    const p = await createCompiled(svc, 'now', SQL);
    expect(p).toMatchObject({
      program_status: 'Success',
      program_error: { sql_compilation: { exit_code: 0, messages: [] }, rust_compilation: null, system_error: null },
      deployment_status: 'Stopped',
      deployment_desired_status: 'Stopped',
      storage_status: 'Cleared',
    });
    expect(p.program_info.schema.inputs[0].name).toBe('t');
    const bad = await svc.call('PUT', '/v0/pipelines/bad', pipelineBody('bad', 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELEC x FROM t;'));
    expect(bad.status).toBe(201);
    const failed = await waitFor(async () => {
      const q = await status(svc, 'bad');
      return q.program_status === 'SqlError' ? q : undefined;
    }, 'SqlError');
    expect(failed.program_error.sql_compilation.exit_code).toBe(1);
    expect(failed.program_error.sql_compilation.messages[0]).toMatchObject({ start_line_number: 2, warning: false });
  });

  it('start, pause, resume, stop?force=true, clear: each answers 202 and moves the pipeline; clear and resume refuse the wrong state', async () => {
    await createCompiled(svc, 'cycle', SQL);
    expect((await svc.call('POST', '/v0/pipelines/cycle/resume')).json).toMatchObject({ error_code: 'IllegalPipelineStateTransition' });
    await post(svc, 'cycle', 'start', 202);
    await until(svc, 'cycle', 'Running');
    const clearRunning = await svc.call('POST', '/v0/pipelines/cycle/clear');
    expect(clearRunning.status).toBe(400);
    expect(clearRunning.json.message).toContain('stopped');
    await post(svc, 'cycle', 'pause', 202);
    await until(svc, 'cycle', 'Paused');
    await post(svc, 'cycle', 'resume', 202);
    await until(svc, 'cycle', 'Running');
    expect((await ingest(svc, 'cycle', 't', 'format=json', '{"insert": {"x": 1}}')).status).toBe(200);
    await post(svc, 'cycle', 'stop?force=true', 202);
    const stopped = await until(svc, 'cycle', 'Stopped');
    expect(stopped.deployment_desired_status).toBe('Stopped');
    await post(svc, 'cycle', 'clear', 202);
    expect((await status(svc, 'cycle')).storage_status).toBe('Cleared');
    // a second /stop on a stopped pipeline is fine
    await post(svc, 'cycle', 'stop?force=true', 202);
  });

  it("has every field of today's pipeline object; the combined status split into resources and runtime as the manager splits it", async () => {
    await createCompiled(svc, 'split', SQL);
    const fields = ['tags', 'platform_version', 'udf_rust', 'udf_toml', 'refresh_version', 'storage_status_details', 'deployment_id', 'deployment_initial', 'deployment_desired_status_since'];
    const stopped = await status(svc, 'split');
    for (const f of fields) expect(stopped).toHaveProperty(f);
    expect(stopped).toMatchObject({
      deployment_status: 'Stopped',
      deployment_id: null,
      deployment_initial: null,
      deployment_resources_status: 'Stopped',
      deployment_resources_desired_status: 'Stopped',
      deployment_runtime_status: null,
      deployment_runtime_desired_status: null,
      deployment_runtime_status_since: null,
    });
    await post(svc, 'split', 'start?initial=paused', 202);
    const paused = await until(svc, 'split', 'Paused');
    expect(paused).toMatchObject({
      deployment_initial: 'Paused',
      deployment_resources_status: 'Provisioned',
      deployment_resources_desired_status: 'Provisioned',
      deployment_runtime_status: 'Paused',
      deployment_runtime_desired_status: 'Paused',
    });
    expect(paused.deployment_id).toMatch(/^[0-9a-f-]{36}$/);
    await post(svc, 'split', 'resume', 202);
    const running = await until(svc, 'split', 'Running');
    // resumed: the runtime runs; the deployment, and the state it was started towards, are the same
    expect(running).toMatchObject({ deployment_id: paused.deployment_id, deployment_initial: 'Paused', deployment_runtime_status: 'Running', deployment_runtime_desired_status: 'Running' });
    await post(svc, 'split', 'stop?force=true', 202);
    await until(svc, 'split', 'Stopped');
    await post(svc, 'split', 'start', 202);
    const again = await until(svc, 'split', 'Running');
    expect(again.deployment_initial).toBe('Running');
    expect(again.deployment_id).not.toBe(paused.deployment_id);
    await post(svc, 'split', 'stop?force=true', 202);
  });

  it('PATCH as the Python SDK sends it (every field, null where unchanged) changes only what is given', async () => {
    const before = await createCompiled(svc, 'patchme', SQL);
    const body = { program_code: null, udf_rust: null, udf_toml: null, program_config: null, runtime_config: null, description: 'new words', tags: null };
    const r = await svc.call('PATCH', '/v0/pipelines/patchme', body);
    expect(r.status, r.text).toBe(200);
    const after = await status(svc, 'patchme');
    expect(after).toMatchObject({ description: 'new words', program_code: before.program_code, program_version: before.program_version, runtime_config: before.runtime_config });
    expect((await svc.call('PATCH', '/v0/pipelines/patchme', { description: 7 })).status).toBe(400);
  });

  it('ops pipe runs unchanged against it (an SDK-style session): create, start, push, listen, query, snapshot, stop', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: svc.base });
    const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-current-'));
    const sqlFile = join(dir, 'p.sql');
    writeFileSync(sqlFile, SQL);
    const created = await opsIn(['--json', 'pipe', 'create', 'cli', sqlFile, '--start'], { env });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'cli', deployment_status: 'Running', program_status: 'Success' });
    const listen = await WatchReader.open(svc, 'cli', 'v', 'format=json');
    const rows = join(dir, 'rows.ndjson');
    writeFileSync(rows, '{"insert": {"x": 2}}\n{"insert": {"x": 1}}\n');
    const ing = await opsIn(['pipe', 'ingest', 'cli', 't', rows, '--wait'], { env });
    expect(ing.exitCode, ing.stderr).toBe(0);
    await listen.until((w) => w.items().length === 2, 'the pushed rows on the listener');
    expect(listen.items()).toEqual([{ insert: { x: 1 } }, { insert: { x: 2 } }]);
    const q = await opsIn(['--json', 'pipe', 'query', 'cli', 'SELECT SUM(x) AS total FROM v'], { env });
    expect(q.exitCode, q.stderr).toBe(0);
    expect(JSON.parse(q.stdout)).toEqual([{ total: 3 }]);
    const snap = await opsIn(['--json', 'pipe', 'snapshot', 'cli', 'v'], { env });
    expect(snap.exitCode, snap.stderr).toBe(0);
    expect(JSON.parse(snap.stdout)).toEqual([{ x: 1 }, { x: 2 }]);
    const stop = await opsIn(['pipe', 'stop', 'cli'], { env });
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect((await status(svc, 'cli')).deployment_status).toBe('Stopped');
    await listen.until((w) => w.ended, 'the listener ends at stop');
  });
});

describe('a failed pipeline under --pipeline-api current', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: 'current', pipelinesWorkerFault: 'throw' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('is Stopped with its deployment_error; /start refuses, /stop keeps the error, /dismiss_error clears it', async () => {
    await createCompiled(svc, 'boom', SQL);
    await post(svc, 'boom', 'start', 202);
    await until(svc, 'boom', 'Running');
    await ingest(svc, 'boom', 'T', 'format=json', '{"insert": {"x": 1}}');
    const failed = await waitFor(async () => {
      const p = await status(svc, 'boom');
      return p.deployment_error ? p : undefined;
    }, 'the deployment error');
    expect(failed).toMatchObject({ deployment_status: 'Stopped', deployment_desired_status: 'Stopped' });
    expect(failed.deployment_error.error_code).toEqual(expect.any(String));
    expect((await svc.call('POST', '/v0/pipelines/boom/start')).json).toMatchObject({ error_code: 'IllegalPipelineStateTransition' });
    await post(svc, 'boom', 'stop?force=true', 202);
    expect((await status(svc, 'boom')).deployment_error).not.toBeNull();
    await post(svc, 'boom', 'dismiss_error', 200);
    const after = await status(svc, 'boom');
    expect(after).toMatchObject({ deployment_status: 'Stopped', deployment_error: null });
    // without an error, dismissing does nothing
    await post(svc, 'boom', 'dismiss_error', 200);
    await post(svc, 'boom', 'start', 202);
    await until(svc, 'boom', 'Running');
  });
});

describe('the ops serve flags', () => {
  it('--output-case lower --pipeline-api current reach the pipeline service; a bad value is a usage error', async () => {
    const server = await startServe(['--output-case', 'lower', '--pipeline-api', 'current']);
    try {
      const base = `${server.url}/v0`;
      const put = await fetch(`${base}/pipelines/flags`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pipelineBody('flags', SQL)) });
      expect(put.status).toBe(201);
      const p = await waitFor(async () => {
        const r = (await (await fetch(`${base}/pipelines/flags`)).json()) as any;
        return r.program_status === 'Success' ? r : undefined;
      }, 'compiled');
      expect(p).toMatchObject({ deployment_status: 'Stopped', storage_status: 'Cleared' });
      expect(p.program_info.schema.inputs[0].name).toBe('t');
    } finally {
      await server.stop();
    }
    const bad = await opsIn(['serve', '--output-case', 'middle'], { env: isolatedEnv() });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('upper');
  });
});
