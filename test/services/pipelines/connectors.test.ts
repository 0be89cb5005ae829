/** Connectors declared in the program: url_input (http, file) with json and csv, failure at start, file output. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles, type FileServer } from './fixtures.js';
import { bag, createCompiled, ingest, shutdown, snapshot, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
let files: FileServer;
const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-conn-'));
beforeAll(async () => {
  svc = await startSvc({ connectorRoot: dir });
  files = await serveFiles({
    '/people.json': '{"insert": {"id": 1, "name": "ann"}}\n{"insert": {"id": 2, "name": "bob"}}\n',
    '/people.csv': '3,carl\n4,"dora, the explorer"\n',
    '/bad.csv': '5,eve\nsix,frank\n',
  });
});
afterAll(async () => {
  await svc.close();
  await files.close();
});

const conn = (transport: string, path: string, format: string, extra = '') =>
  `'[{"name": "src", "transport": {"name": "${transport}", "config": {"path": "${path}"}}, "format": {"name": "${format}"${extra}}}]'`;

describe('input connectors', () => {
  it('reads http json, http csv and file: sources when the pipeline starts', async () => {
    const local = join(dir, 'people-local.json');
    writeFileSync(local, '[{"id": 7, "name": "gil"}]');
    const sql = `CREATE TABLE a (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/people.json`, 'json')});
CREATE TABLE b (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/people.csv`, 'csv')});
CREATE TABLE c (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', pathToFileURL(local).href, 'json', ', "config": {"update_format": "raw", "array": true}')});
CREATE MATERIALIZED VIEW everyone AS SELECT id, name FROM a UNION ALL SELECT id, name FROM b UNION ALL SELECT id, name FROM c;`;
    await createCompiled(svc, 'conn', sql);
    // Nothing is read before start
    expect(files.hits.get('/people.json')).toBeUndefined();
    await startRunning(svc, 'conn');
    const stats = await waitFor(async () => {
      const s = (await svc.call('GET', '/v0/pipelines/conn/stats')).json;
      return s.global_metrics.pipeline_complete ? s : undefined;
    }, 'pipeline_complete');
    expect(stats.global_metrics).toMatchObject({ total_input_records: 5, total_processed_records: 5 });
    expect(stats.inputs.map((i: any) => [i.endpoint_name, i.metrics.total_records])).toEqual([
      ['A.src', 2],
      ['B.src', 2],
      ['C.src', 1],
    ]);
    const snap = await snapshot(svc, 'conn', 'everyone');
    expect(snap.json_data.map((x: any) => x.insert)).toEqual([
      { ID: 1, NAME: 'ann' },
      { ID: 2, NAME: 'bob' },
      { ID: 3, NAME: 'carl' },
      { ID: 4, NAME: 'dora, the explorer' },
      { ID: 7, NAME: 'gil' },
    ]);
    await shutdown(svc, 'conn');
  });

  it("a watcher opened while paused (the Python SDK's pause, listen, start) sees the connectors' data", async () => {
    const sql = `CREATE TABLE a (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/people.json`, 'json')});
CREATE VIEW names AS SELECT name FROM a;`;
    await createCompiled(svc, 'sdkflow', sql);
    expect((await svc.call('POST', '/v0/pipelines/sdkflow/pause', undefined, { raw: 'null', headers: { 'content-type': 'application/json' } })).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/sdkflow')).json.deployment_status === 'Paused', 'Paused');
    const before = (await svc.call('GET', '/v0/pipelines/sdkflow/stats')).json.global_metrics;
    expect(before).toMatchObject({ total_processed_records: 0, buffered_input_records: 2, pipeline_complete: false });
    const w = await WatchReader.open(svc, 'sdkflow', 'names', 'format=json&backpressure=true&array=false');
    await startRunning(svc, 'sdkflow');
    await w.until((r) => r.items().length === 2, 'the connector data');
    expect(bag(w.items())).toEqual([{ insert: { NAME: 'ann' } }, { insert: { NAME: 'bob' } }]);
    await shutdown(svc, 'sdkflow');
  });

  it('an unreachable source fails the start: Failed with a deployment_error naming the table and cause; /shutdown clears it', async () => {
    const sql = `CREATE TABLE good (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/people.json`, 'json')});
CREATE TABLE missing (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/nope.json`, 'json')});`;
    await createCompiled(svc, 'unreach', sql);
    expect((await svc.call('POST', '/v0/pipelines/unreach/start')).status).toBe(202);
    const p = await waitFor(async () => {
      const r = (await svc.call('GET', '/v0/pipelines/unreach')).json;
      return r.deployment_error ? r : undefined;
    }, 'deployment_error');
    expect(p.deployment_status).toBe('Failed');
    expect(p.deployment_desired_status).toBe('Running');
    expect(p.deployment_error.error_code).toBe('InitializationError');
    expect(p.deployment_error.message).toContain("table 'MISSING'");
    expect(p.deployment_error.message).toContain('HTTP status 404');
    expect(p.deployment_error.details).toMatchObject({ table: 'MISSING', endpoint_name: 'MISSING.src' });
    expect((await svc.call('GET', '/v0/pipelines/unreach/stats')).json.error_code).toBe('PipelineNotRunningOrPaused');

    // A refused connection is reported with its cause too
    const dead = await serveFiles({});
    const deadUrl = dead.url;
    await dead.close();
    await svc.call('PUT', '/v0/pipelines/refused', {
      name: 'refused',
      description: '',
      runtime_config: {},
      program_config: {},
      program_code: `CREATE TABLE t (id INTEGER) WITH ('connectors' = ${conn('url_input', `${deadUrl}/x.json`, 'json')});`,
    });
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/refused')).json.program_status === 'Success', 'compiled');
    await svc.call('POST', '/v0/pipelines/refused/start');
    const r = await waitFor(async () => (await svc.call('GET', '/v0/pipelines/refused')).json.deployment_error, 'deployment_error');
    expect(r.message).toMatch(/table 'T'.*ECONNREFUSED/);

    // Bad data in a source also fails the start, naming the line
    await svc.call('PUT', '/v0/pipelines/baddata', {
      name: 'baddata',
      description: '',
      runtime_config: {},
      program_config: {},
      program_code: `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('connectors' = ${conn('url_input', `${files.url}/bad.csv`, 'csv')});`,
    });
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/baddata')).json.program_status === 'Success', 'compiled');
    await svc.call('POST', '/v0/pipelines/baddata/start');
    const bd = await waitFor(async () => (await svc.call('GET', '/v0/pipelines/baddata')).json.deployment_error, 'deployment_error');
    expect(bd.message).toMatch(/table 'T'.*line 2/);

    // /shutdown acknowledges the error; after fixing the program the pipeline starts
    expect((await svc.call('POST', '/v0/pipelines/unreach/start')).json.error_code).toBe('IllegalPipelineStateTransition');
    expect((await svc.call('POST', '/v0/pipelines/unreach/shutdown')).status).toBe(202);
    expect((await svc.call('GET', '/v0/pipelines/unreach')).json).toMatchObject({ deployment_status: 'Shutdown', deployment_error: null });
  });
});

describe('a slow source', () => {
  it('keeps the pipeline Initializing (stats answer 503 Initializing); shutdown then stops it cleanly', async () => {
    const sql = `CREATE TABLE t (id INTEGER) WITH ('connectors' = ${conn('url_input', `${files.url}/hold/t.json`, 'json')});`;
    await createCompiled(svc, 'slowsrc', sql);
    await svc.call('POST', '/v0/pipelines/slowsrc/start');
    await waitFor(async () => files.hits.get('/hold/t.json') === 1, 'the source to be requested');
    expect((await svc.call('GET', '/v0/pipelines/slowsrc')).json.deployment_status).toBe('Initializing');
    const stats = await svc.call('GET', '/v0/pipelines/slowsrc/stats');
    expect(stats.status).toBe(503);
    expect(stats.json.error_code).toBe('Initializing');
    expect((await svc.call('POST', '/v0/pipelines/slowsrc/shutdown')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/slowsrc')).json.deployment_status === 'Shutdown', 'Shutdown');
    // starting again works once the source answers
    await svc.call('POST', '/v0/pipelines/slowsrc/start');
    await waitFor(async () => (files.hits.get('/hold/t.json') ?? 0) === 2, 'the second request');
    files.release();
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/slowsrc')).json.deployment_status === 'Running', 'Running');
    await shutdown(svc, 'slowsrc');
  });
});

describe('output file connector', () => {
  it("appends each step's changes to the view's file (json lines and csv)", async () => {
    const jsonOut = join(dir, 'out.jsonl');
    const csvOut = join(dir, 'out.csv');
    const sql = `CREATE TABLE t (id INTEGER, name VARCHAR);
CREATE VIEW vj WITH ('connectors' = ${conn('file_output', jsonOut, 'json')}) AS SELECT id, name FROM t WHERE id > 1;
CREATE VIEW vc WITH ('connectors' = ${conn('file_output', csvOut, 'csv')}) AS SELECT id FROM t;`;
    await createCompiled(svc, 'outfile', sql);
    await startRunning(svc, 'outfile');
    expect((await ingest(svc, 'outfile', 't', 'format=json', '{"insert":{"id":1,"name":"a"}}\n{"insert":{"id":2,"name":"b"}}')).status).toBe(200);
    expect((await ingest(svc, 'outfile', 't', 'format=json', '{"delete":{"id":2,"name":"b"}}')).status).toBe(200);
    const stats = (await svc.call('GET', '/v0/pipelines/outfile/stats')).json;
    expect(stats.outputs.map((o: any) => [o.endpoint_name, o.metrics.transmitted_records])).toEqual([
      ['VC.src', 3],
      ['VJ.src', 2],
    ]);
    await shutdown(svc, 'outfile');
    expect(readFileSync(jsonOut, 'utf8')).toBe('{"insert":{"ID":2,"NAME":"b"}}\n{"delete":{"ID":2,"NAME":"b"}}\n');
    const csv = readFileSync(csvOut, 'utf8').split('\n').filter(Boolean);
    expect(csv.sort()).toEqual(['1,1', '2,-1', '2,1']);
  });

  it('a sink that cannot be opened keeps the pipeline from starting', async () => {
    const sql = `CREATE TABLE t (id INTEGER);
CREATE VIEW v WITH ('connectors' = ${conn('file_output', join(dir, 'no-such-dir', 'out.json'), 'json')}) AS SELECT id FROM t;`;
    await createCompiled(svc, 'badsink', sql);
    await svc.call('POST', '/v0/pipelines/badsink/start');
    const err = await waitFor(async () => (await svc.call('GET', '/v0/pipelines/badsink')).json.deployment_error, 'deployment_error');
    expect(err.message).toMatch(/view 'V'.*the directory of .* does not exist under the connector root/);
    expect((await svc.call('GET', '/v0/pipelines/badsink')).json.deployment_status).toBe('Failed');
  });
});
