/**
 * Today's one-connector stats, as today's SDK's input_connector_stats / output_connector_stats call them:
 * `GET .../tables/{table}/connectors/{connector}/stats` and `.../views/{view}/connectors/{connector}/stats` answer
 * the endpoint `{relation}.{connector}` of /stats (relation names matched as SQL identifiers), 404
 * UnknownInputEndpoint / UnknownOutputEndpoint for a name the pipeline has not, 503 when it is not deployed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-conn-stats-'));
const conn = (transport: string, path: string, format: string) => `'[{"name": "c1", "transport": {"name": "${transport}", "config": {"path": "${path}"}}, "format": {"name": "${format}"}}]'`;

describe('one connector’s stats', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ connectorRoot: dir });
    const input = join(dir, 'in.json');
    writeFileSync(input, '{"insert": {"x": 1}}\n{"insert": {"x": 2}}\n');
    const sql = `CREATE TABLE t (x INT) WITH ('connectors' = ${conn('url_input', pathToFileURL(input).href, 'json')});
CREATE VIEW v WITH ('connectors' = ${conn('file_output', join(dir, 'out.json'), 'json')}) AS SELECT x FROM t;`;
    await createCompiled(svc, 'cs', sql, { udf_rust: '', udf_toml: '', tags: [] });
    await startRunning(svc, 'cs');
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/cs/stats')).json.global_metrics.pipeline_complete, 'input read');
  });
  afterAll(async () => {
    await svc.close();
  });

  it("an input connector: its endpoint of /stats, the table's name in any case", async () => {
    const r = await svc.call('GET', '/v0/pipelines/cs/tables/T/connectors/c1/stats');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ endpoint_name: 't.c1', paused: false, metrics: { total_records: 2, end_of_input: true } });
    const all = (await svc.call('GET', '/v0/pipelines/cs/stats')).json;
    expect(r.json).toEqual(all.inputs.find((i: { endpoint_name: string }) => i.endpoint_name === 't.c1'));
  });

  it('an output connector: its endpoint of /stats', async () => {
    const r = await waitFor(async () => {
      const s = await svc.call('GET', '/v0/pipelines/cs/views/v/connectors/c1/stats');
      return s.status === 200 && s.json.metrics.transmitted_records === 2 ? s : undefined;
    }, 'two records written');
    expect(r.json.endpoint_name).toBe('v.c1');
  });

  it('an unknown connector, table or view: 404 with Feldera’s code and message', async () => {
    const a = await svc.call('GET', '/v0/pipelines/cs/tables/t/connectors/nope/stats');
    expect(a.status).toBe(404);
    expect(a.json).toMatchObject({ error_code: 'UnknownInputEndpoint', message: "unknown input endpoint name 't.nope'" });
    const b = await svc.call('GET', '/v0/pipelines/cs/views/nope/connectors/c1/stats');
    expect(b.status).toBe(404);
    expect(b.json).toMatchObject({ error_code: 'UnknownOutputEndpoint', message: "unknown output endpoint name 'nope.c1'" });
    // a table is not a view
    expect((await svc.call('GET', '/v0/pipelines/cs/views/t/connectors/c1/stats')).json.error_code).toBe('UnknownOutputEndpoint');
  });

  it('a pipeline that is not deployed: 503', async () => {
    await svc.call('POST', '/v0/pipelines/cs/stop?force=true');
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/cs')).json.deployment_status === 'Stopped', 'stopped');
    const r = await svc.call('GET', '/v0/pipelines/cs/tables/t/connectors/c1/stats');
    expect(r.status).toBe(503);
    expect(r.json.error_code).toBe('PipelineInteractionNotDeployed');
  });
});
