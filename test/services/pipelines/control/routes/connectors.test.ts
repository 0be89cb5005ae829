/**
 * Input connector start and pause on ops serve (today's Feldera `.../tables/{t}/connectors/{c}/start|pause`
 * and `.../stats`): a connector created paused keeps what it read queued until started; pausing a generating
 * connector stops its records and starting it goes on; the paused state is in /stats and the connector's
 * stats, survives a restart of a durable pipeline; bad actions, unknown connectors and pipelines that are not
 * deployed get Feldera's errors.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, shutdown, snapshot, startRunning, startSvc, waitFor, type Svc } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-connectors-'));
const open: Svc[] = [];
let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ connectorRoot: dir });
});
afterAll(async () => {
  await svc.close();
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

const fileConnector = (path: string, name: string, paused: boolean) =>
  `{"name": "${name}", "paused": ${paused}, "transport": {"name": "url_input", "config": {"path": "${pathToFileURL(path).href}"}}, "format": {"name": "json", "config": {"update_format": "raw"}}}`;

function fileProgram(name: string, rows: number): string {
  const path = join(dir, `${name}.json`);
  let text = '';
  for (let i = 1; i <= rows; i++) text += `{"id": ${i}}\n`;
  writeFileSync(path, text);
  return `CREATE TABLE t (id INTEGER) WITH ('connectors' = '[${fileConnector(path, 'src', true)}]');
CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM t;`;
}

async function count(s: Svc, name: string): Promise<number> {
  const rows = (await snapshot(s, name, 'n')).json_data.map((x: any) => x.insert);
  return rows.length === 0 ? 0 : Number(rows[0].C ?? rows[0].c);
}

async function connectorStats(s: Svc, name: string, table = 't', connector = 'src'): Promise<any> {
  const r = await s.call('GET', `/v0/pipelines/${name}/tables/${table}/connectors/${connector}/stats`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

const action = (s: Svc, name: string, what: string, table = 't', connector = 'src') => s.call('POST', `/v0/pipelines/${name}/tables/${table}/connectors/${connector}/${what}`);

describe('input connector start and pause', () => {
  it('a connector created paused keeps its data queued while the pipeline runs; start applies it; pause and start again answer 200', async () => {
    await createCompiled(svc, 'cp', fileProgram('cp', 40));
    await startRunning(svc, 'cp');
    const before = await connectorStats(svc, 'cp');
    expect(before).toMatchObject({ endpoint_name: 'T.src', paused: true, config: { paused: true }, metrics: { buffered_records: 40, total_records: 0, end_of_input: false } });
    expect(await count(svc, 'cp')).toBe(0);
    const stats = (await svc.call('GET', '/v0/pipelines/cp/stats')).json;
    expect(stats.inputs.find((i: any) => i.endpoint_name === 'T.src').paused).toBe(true);
    expect(stats.global_metrics.pipeline_complete).toBe(false);

    const started = await action(svc, 'cp', 'start');
    expect(started.status, started.text).toBe(200);
    expect(started.text).toBe('');
    expect(await count(svc, 'cp')).toBe(40);
    expect(await connectorStats(svc, 'cp')).toMatchObject({ paused: false, metrics: { buffered_records: 0, total_records: 40, end_of_input: true } });
    // its completion token is complete
    const token = (await svc.call('GET', '/v0/pipelines/cp/tables/t/connectors/src/completion_token')).json.token;
    expect((await svc.call('GET', `/v0/pipelines/cp/completion_status?token=${token}`)).json.status).toBe('complete');

    // pause and start again: idempotent, nothing read twice; the table name is case-insensitive
    expect((await action(svc, 'cp', 'pause', 'T')).status).toBe(200);
    expect((await connectorStats(svc, 'cp')).paused).toBe(true);
    expect((await action(svc, 'cp', 'pause')).status).toBe(200);
    expect((await action(svc, 'cp', 'start')).status).toBe(200);
    expect(await count(svc, 'cp')).toBe(40);
    await shutdown(svc, 'cp');
  });

  it('started while the pipeline is paused: its data waits for the pipeline to run', async () => {
    await createCompiled(svc, 'cq', fileProgram('cq', 7));
    expect((await svc.call('POST', '/v0/pipelines/cq/pause', undefined, { raw: 'null', headers: { 'content-type': 'application/json' } })).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/cq')).json.deployment_status === 'Paused', 'Paused');
    expect((await action(svc, 'cq', 'start')).status).toBe(200);
    expect(await count(svc, 'cq')).toBe(0);
    await startRunning(svc, 'cq');
    await waitFor(async () => (await count(svc, 'cq')) === 7, 'the connector data applied');
    await shutdown(svc, 'cq');
  });

  it('pausing a datagen connector stops its records; starting it goes on to the end of its plan', async () => {
    const sql = `CREATE TABLE g (x BIGINT NOT NULL) WITH ('connectors' = '[{"name": "gen", "transport": {"name": "datagen", "config": {"seed": 3, "plan": [{"limit": 3000, "rate": 2000}]}}}]');
CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM g;`;
    await createCompiled(svc, 'dg', sql);
    await startRunning(svc, 'dg');
    await waitFor(async () => (await connectorStats(svc, 'dg', 'g', 'gen')).metrics.total_records > 0, 'some records');
    expect((await action(svc, 'dg', 'pause', 'g', 'gen')).status).toBe(200);
    const paused = await connectorStats(svc, 'dg', 'g', 'gen');
    expect(paused.paused).toBe(true);
    expect(paused.metrics.end_of_input).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    expect((await connectorStats(svc, 'dg', 'g', 'gen')).metrics.total_records).toBe(paused.metrics.total_records);
    expect((await action(svc, 'dg', 'start', 'g', 'gen')).status).toBe(200);
    await waitFor(async () => (await connectorStats(svc, 'dg', 'g', 'gen')).metrics.end_of_input === true, 'the end of the plan', 30_000);
    expect(await count(svc, 'dg')).toBe(3000);
    await shutdown(svc, 'dg');
  });

  it('refuses another action (400), an unknown table or connector (404), a pipeline not deployed (503)', async () => {
    await createCompiled(svc, 'ce', fileProgram('ce', 1));
    const notDeployed = await action(svc, 'ce', 'pause');
    expect(notDeployed.status).toBe(503);
    expect(notDeployed.json.error_code).toBe('PipelineInteractionNotDeployed');
    expect((await svc.call('GET', '/v0/pipelines/ce/tables/t/connectors/src/stats')).status).toBe(503);
    await startRunning(svc, 'ce');
    const bad = await action(svc, 'ce', 'stop');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error_code: 'InvalidConnectorAction', details: { action: 'stop' } });
    for (const [table, connector] of [
      ['t', 'nope'],
      ['w', 'src'],
    ]) {
      const r = await action(svc, 'ce', 'pause', table, connector);
      expect(r.status).toBe(404);
      expect(r.json.error_code).toBe('UnknownInputEndpoint');
      expect((await svc.call('GET', `/v0/pipelines/ce/tables/${table}/connectors/${connector}/stats`)).status).toBe(404);
    }
    expect((await svc.call('POST', '/v0/pipelines/nosuch/tables/t/connectors/src/start')).status).toBe(404);
    await shutdown(svc, 'ce');
  });
});

describe('durable pipelines keep the paused state', () => {
  it('a connector paused (or started) stays so across a restart of the server on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-pipe-connectors-durable-'));
    const root = join(dataDir, 'files');
    const serve = async () => {
      const s = await startSvc({ pipelineApi: 'current', connectorRoot: root }, { dataDir });
      open.push(s);
      return s;
    };
    mkdirSync(root, { recursive: true });
    const path = join(root, 'in.json');
    writeFileSync(path, '{"id": 1}\n{"id": 2}\n{"id": 3}\n');
    const sql = `CREATE TABLE t (id INTEGER) WITH ('connectors' = '[${fileConnector(path, 'src', false)}, ${fileConnector(path, 'later', true)}]');
CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM t;`;
    const a = await serve();
    await createCompiled(a, 'pd', sql);
    await startRunning(a, 'pd');
    await waitFor(async () => (await count(a, 'pd')) === 3, 'src applied');
    expect((await action(a, 'pd', 'pause')).status).toBe(200);
    expect((await connectorStats(a, 'pd', 't', 'later')).paused).toBe(true);
    await a.close();
    open.splice(open.indexOf(a), 1);

    const b = await serve();
    await waitFor(async () => (await b.call('GET', '/v0/pipelines/pd')).json.deployment_status?.toLowerCase() === 'running', 'running again');
    expect((await connectorStats(b, 'pd')).paused).toBe(true);
    expect((await connectorStats(b, 'pd', 't', 'later')).paused).toBe(true);
    expect(await count(b, 'pd')).toBe(3);
    expect((await action(b, 'pd', 'start', 't', 'later')).status).toBe(200);
    await waitFor(async () => (await count(b, 'pd')) === 6, 'later applied');
    await b.close();
    open.splice(open.indexOf(b), 1);

    const c = await serve();
    await waitFor(async () => (await c.call('GET', '/v0/pipelines/pd')).json.deployment_status?.toLowerCase() === 'running', 'running again');
    expect((await connectorStats(c, 'pd', 't', 'later')).paused).toBe(false);
    expect((await connectorStats(c, 'pd')).paused).toBe(true);
    // nothing read twice
    expect(await count(c, 'pd')).toBe(6);
  });
});
