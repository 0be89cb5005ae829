/**
 * The pipeline API's answers against today's Feldera contract (feldera-answers.contract.json, the response types
 * of openapi.json v0.337 written as a subset): a default `ops serve` driven with today's Python SDK's requests
 * (create, compile, selectors, update, patch, start, pause, resume, stop, clear, a failed compilation, errors,
 * delete), then every other operation of the pipeline API that ops serves (ingress, egress, completion tokens,
 * stats and one connector's stats, metrics, logs, update_runtime, start_compaction, ad-hoc queries, checkpoints, the clock, transactions, monitor events, program validation,
 * API keys): every JSON answer checked (each line of a stream), and every operation of the contract exercised.
 * The checker is shown to refuse v0.24's shape, which it exists to catch.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvc, waitFor, WatchReader, type Res, type Svc } from '../services/pipelines/helpers.js';
import { AnswerChecker } from './openapi-check.js';

const contract = new AnswerChecker(JSON.parse(readFileSync(join(import.meta.dirname, 'feldera-answers.contract.json'), 'utf8')));
const SDK = { 'user-agent': 'feldera-python-sdk/v1' };
const SQL = `CREATE TYPE addr AS (street VARCHAR, zip INT);
CREATE TABLE t (x INT NOT NULL PRIMARY KEY, d DECIMAL(10, 2), home addr, tags VARCHAR ARRAY, m MAP<VARCHAR, INT>, ts TIMESTAMP)
  WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT x, home, tags FROM t;`;
const body = (name: string, code = SQL) => ({ name, program_code: code, udf_rust: '', udf_toml: '', program_config: {}, runtime_config: {}, description: '', tags: [] });

describe("the pipeline API's answers to today's clients follow today's openapi.json", () => {
  let svc: Svc;
  const seen = new Set<string>();
  const problems: string[] = [];
  /** A call as today's SDK makes it, its answer checked against the contract. */
  const call = async (method: string, path: string, json?: unknown): Promise<Res> => {
    const r = await svc.call(method, path, json, { headers: SDK });
    const op = contract.operationOf(method, path);
    if (op) seen.add(op);
    problems.push(...contract.check({ method, path, status: r.status, body: r.text, contentType: r.headers.get('content-type') ?? undefined }));
    return r;
  };
  const until = (name: string, field: string, values: string[]) =>
    waitFor(async () => {
      const p = (await call('GET', `/v0/pipelines/${name}?selector=status`)).json;
      return values.includes(p[field]) ? p : undefined;
    }, `${name} ${field} ${values.join('|')}`);

  const files = mkdtempSync(join(tmpdir(), 'ops-contract-'));
  beforeAll(async () => {
    svc = await startSvc({ connectorRoot: files });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('a lifecycle of requests as the SDK sends them: every answer within the contract', async () => {
    await call('GET', '/v0/config');
    expect((await call('POST', '/v0/pipelines', body('p'))).status).toBe(201);
    await call('GET', '/v0/pipelines/p?selector=all'); // while compiling: program_info null
    await until('p', 'program_status', ['Success']);
    const all = (await call('GET', '/v0/pipelines/p?selector=all')).json;
    expect(all.program_info.udf_stubs).toBe('');
    expect(all.runtime_config.storage === null || typeof all.runtime_config.storage === 'object').toBe(true);
    const status = (await call('GET', '/v0/pipelines/p?selector=status')).json;
    for (const k of ['runtime_config', 'program_code', 'udf_rust', 'udf_toml', 'program_error', 'program_info']) expect(status, k).not.toHaveProperty(k);
    await call('GET', '/v0/pipelines/p?selector=status_with_connectors');
    await call('GET', '/v0/pipelines?selector=status');
    await call('GET', '/v0/pipelines?selector=all');
    await call('GET', '/v0/pipelines/p');
    expect((await call('PUT', '/v0/pipelines/p', { ...body('p'), description: 'changed', runtime_config: { workers: 2, storage: true } })).status).toBe(200);
    expect((await call('PATCH', '/v0/pipelines/p', { description: 'patched', tags: null, udf_rust: null, udf_toml: null, program_code: null, program_config: null, runtime_config: null })).status).toBe(200);
    await until('p', 'program_status', ['Success']);
    await call('POST', '/v0/pipelines/p/dismiss_error');
    await call('POST', '/v0/pipelines/p/start?dismiss_error=false&initial=paused');
    await until('p', 'deployment_status', ['Paused']);
    await call('GET', '/v0/pipelines/p?selector=all');
    await call('POST', '/v0/pipelines/p/resume');
    await until('p', 'deployment_status', ['Running']);
    await call('POST', '/v0/pipelines/p/pause');
    await until('p', 'deployment_status', ['Paused']);
    await call('POST', '/v0/pipelines/p/stop?force=true');
    await until('p', 'deployment_status', ['Stopped']);
    await call('POST', '/v0/pipelines/p/clear');
    await until('p', 'storage_status', ['Cleared']);

    // a program that does not compile: program_error with its messages
    await call('PUT', '/v0/pipelines/bad', body('bad', 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELEC x FROM t;'));
    const bad = await until('bad', 'program_status', ['SqlError']);
    expect(bad.program_status).toBe('SqlError');
    const badAll = (await call('GET', '/v0/pipelines/bad?selector=all')).json;
    expect(badAll.program_error.sql_compilation.messages.length).toBeGreaterThan(0);
    expect((await call('POST', '/v0/pipelines/bad/start?dismiss_error=false&initial=running')).status).toBe(400);

    // errors are ErrorResponses
    expect((await call('GET', '/v0/pipelines/nope?selector=status')).status).toBe(404);
    expect((await call('GET', '/v0/pipelines/p?selector=everything')).status).toBe(400);
    expect((await call('POST', '/v0/pipelines', { name: 'x' })).status).toBe(400);
    expect((await call('DELETE', '/v0/pipelines/bad')).status).toBe(200);
    expect((await call('DELETE', '/v0/pipelines/p')).status).toBe(200);

    expect(problems).toEqual([]);
  }, 120_000);

  it('every other pipeline-API answer, as today\'s SDK and fda call them, is within the contract', async () => {
    writeFileSync(join(files, 'in.json'), '{"insert": {"x": 10, "s": "file"}}\n');
    const connector = (transport: string, path: string) => `'[{"name": "c1", "transport": {"name": "${transport}", "config": {"path": "${path}"}}, "format": {"name": "json"}}]'`;
    const sql = `CREATE TABLE t (x INT NOT NULL PRIMARY KEY, s VARCHAR) WITH ('materialized' = 'true', 'connectors' = ${connector('url_input', pathToFileURL(join(files, 'in.json')).href)});
CREATE MATERIALIZED VIEW v WITH ('connectors' = ${connector('file_output', join(files, 'out.json'))}) AS SELECT x, s FROM t;
CREATE MATERIALIZED VIEW recent AS SELECT x FROM t WHERE NOW() > TIMESTAMP '2000-01-01 00:00:00';`;
    const runtime = { workers: 1, storage: true, dev_tweaks: { now_http_driven: true } };
    expect((await call('PUT', '/v0/pipelines/io', { ...body('io', sql), runtime_config: runtime })).status).toBe(201);
    await until('io', 'program_status', ['Success']);
    await call('POST', '/v0/pipelines/io/start?initial=running');
    await until('io', 'deployment_status', ['Running']);

    // egress as the SDK's listen() opens it, read while rows arrive: each chunk line is a Chunk
    const watch = await WatchReader.open(svc, 'io', 'v', 'format=json&backpressure=true&array=false', undefined);
    const pushed = await call('POST', '/v0/pipelines/io/ingress/t?format=json&update_format=insert_delete&array=true', [{ insert: { x: 1, s: 'a' } }, { insert: { x: 2, s: null } }]);
    expect(pushed.status).toBe(200);
    await watch.until((w) => w.items().length >= 2, 'two rows on the egress stream'); // the file's row may come first
    watch.close();
    expect(watch.chunks.every((c) => (c as { snapshot?: boolean }).snapshot === false)).toBe(true); // today's chunks say it
    seen.add(contract.operationOf('POST', '/v0/pipelines/io/egress/v')!);
    problems.push(...contract.check({ method: 'POST', path: '/v0/pipelines/io/egress/v', status: watch.status, body: watch.raw }));
    expect(watch.raw.split('\n').filter(Boolean).length).toBeGreaterThan(0);

    const status = await call('GET', `/v0/pipelines/io/completion_status?token=${encodeURIComponent(pushed.json.token)}`);
    expect([200, 202]).toContain(status.status);
    await call('GET', '/v0/pipelines/io/completion_status?token=not-a-token');
    await call('GET', '/v0/pipelines/io/tables/t/connectors/api-ingress/completion_token');
    const stats = await call('GET', '/v0/pipelines/io/stats');
    expect(stats.json.inputs.length).toBeGreaterThan(0);
    expect((await call('GET', '/v0/pipelines/io/tables/t/connectors/c1/stats')).status).toBe(200);
    expect((await call('GET', '/v0/pipelines/io/views/v/connectors/c1/stats')).status).toBe(200);
    expect((await call('GET', '/v0/pipelines/io/tables/t/connectors/nope/stats')).status).toBe(404);
    await call('GET', '/v0/pipelines/io/metrics');
    await call('GET', '/v0/pipelines/io/metrics?format=json');
    await call('GET', '/v0/pipelines/io/logs');
    for (const format of ['text', 'json', 'hash', 'arrow_ipc', 'parquet']) await call('GET', `/v0/pipelines/io/query?sql=${encodeURIComponent('SELECT * FROM v')}&format=${format}`);
    await call('GET', `/v0/pipelines/io/query?sql=${encodeURIComponent('SELECT nope FROM v')}&format=json`);

    expect((await call('POST', '/v0/pipelines/io/checkpoint')).status).toBe(200);
    await waitFor(async () => (await call('GET', '/v0/pipelines/io/checkpoint_status')).json?.success != null, 'a checkpoint');
    expect((await call('GET', '/v0/pipelines/io/checkpoints')).json.length).toBeGreaterThan(0);
    expect((await call('POST', '/v0/pipelines/io/clock/advance', { delta_ms: 1000 })).status).toBe(200);
    expect((await call('POST', '/v0/pipelines/io/start_transaction')).status).toBe(200);
    await call('POST', '/v0/pipelines/io/start_transaction'); // a second one: 409
    expect((await call('POST', '/v0/pipelines/io/commit_transaction')).status).toBe(200);
    await call('POST', '/v0/pipelines/io/commit_transaction'); // none in progress: 4xx

    const events = (await call('GET', '/v0/pipelines/io/events?selector=status')).json;
    expect(events.length).toBeGreaterThan(0);
    await call('GET', `/v0/pipelines/io/events/${events[0].event_id}?selector=all`);
    await call('GET', '/v0/pipelines/io/events/latest');

    await call('POST', '/v0/validate_program', { program_code: sql, udf_rust: '', udf_toml: '', program_config: {} });
    await call('POST', '/v0/validate_program', { program_code: 'CREATE VIEW v AS SELEC 1;' });
    await call('POST', '/v0/validate_program', { nothing: true });

    const key = await call('POST', '/v0/api_keys', { name: 'ci' });
    expect(key.status).toBe(201);
    expect(key.json.id).toBe(key.json.api_key_id); // today's id beside v0.24's api_key_id
    await call('POST', '/v0/api_keys', { name: 'ci' }); // 409
    await call('GET', '/v0/api_keys');
    // one key: today's answer is a list of it; a request without today's mark gets v0.24's object
    const TENANT = { headers: { ...SDK, 'feldera-tenant': 'default' } };
    const one = await svc.call('GET', '/v0/api_keys/ci', undefined, TENANT);
    expect(one.json).toEqual([{ id: key.json.id, name: 'ci', role: 'write', scopes: ['Read', 'Write'] }]);
    problems.push(...contract.check({ method: 'GET', path: '/v0/api_keys/ci', status: one.status, body: one.text }));
    seen.add('GET /v0/api_keys/{api_key_name}');
    expect((await svc.call('GET', '/v0/api_keys/ci')).json).toMatchObject({ id: key.json.id, name: 'ci', scopes: ['Read', 'Write'] });
    expect((await call('DELETE', '/v0/api_keys/ci')).status).toBe(200);
    await call('GET', '/v0/api_keys/ci'); // 404

    expect((await call('POST', '/v0/pipelines/io/start_compaction')).status).toBe(200);
    const updated = await call('POST', '/v0/pipelines/io/update_runtime');
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'io', program_status: 'Success', deployment_status: 'Running' });

    await call('POST', '/v0/pipelines/io/stop?force=true');
    await until('io', 'deployment_status', ['Stopped']);
    await call('GET', '/v0/pipelines/io/stats'); // stopped: an ErrorResponse
    expect((await call('POST', '/v0/pipelines/io/start_compaction')).status).toBe(503); // not deployed
    await call('DELETE', '/v0/pipelines/io');

    expect(problems).toEqual([]);
    expect(contract.operations().filter((op) => !seen.has(op))).toEqual([]);
  }, 120_000);

  it("refuses v0.24's shape: Shutdown, program_status objects and storage: false are outside today's contract", async () => {
    await svc.call('PUT', '/v0/pipelines/old', { name: 'old', program_code: 'CREATE TABLE t (x INT) WITH (\'materialized\' = \'true\');', runtime_config: {}, program_config: {}, description: '' });
    const old = await svc.call('GET', '/v0/pipelines/old');
    expect(old.json.deployment_status).toBe('Shutdown');
    const found = contract.check({ method: 'GET', path: '/v0/pipelines/old', status: 200, body: old.text });
    expect(found.join('\n')).toMatch(/deployment_status/);
    expect(found.join('\n')).toMatch(/storage_status/);
    expect(contract.check({ method: 'GET', path: '/v0/pipelines/old', status: 302, body: '{}' })[0]).toMatch(/status 302/);
    // and the differences this test was written for: udf_stubs, a field's `unused`, storage as a boolean
    const today = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/old?selector=all');
      return r.json.program_status === 'Success' ? r.json : undefined;
    }, 'old compiled');
    expect(contract.check({ method: 'GET', path: '/v0/pipelines/old', status: 200, body: JSON.stringify(today) })).toEqual([]);
    const broken = structuredClone(today);
    delete broken.program_info.udf_stubs;
    delete broken.program_info.schema.inputs[0].fields[0].unused;
    broken.runtime_config.storage = false;
    const said = contract.check({ method: 'GET', path: '/v0/pipelines/old', status: 200, body: JSON.stringify(broken) }).join('\n');
    for (const what of ['udf_stubs', 'unused', 'storage']) expect(said).toContain(what);
  });
});
