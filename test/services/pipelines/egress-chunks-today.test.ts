/**
 * Egress chunks per client kind: today's Feldera writes `"snapshot": bool` in every chunk (its openapi.json's Chunk
 * requires it; false outside a send_snapshot's snapshot), v0.24 wrote none. A pipeline today's client created (or
 * a request with today's mark) gets the field on every frame, keep-alives included; a v0.24 client's pipeline keeps
 * v0.24's frames; `--feldera current` gives it to every client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = "CREATE TABLE t (x INT) WITH ('materialized' = 'true');\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;";
const TODAY = { udf_rust: '', udf_toml: '', tags: [] };

async function rowsOn(svc: Svc, pipeline: string, query = 'format=json&backpressure=true&array=false'): Promise<WatchReader> {
  const w = await WatchReader.open(svc, pipeline, 'v', query);
  expect(w.status).toBe(200);
  expect((await ingest(svc, pipeline, 't', 'format=json', '{"insert": {"x": 1}}')).status).toBe(200);
  await w.until((r) => r.items().length >= 1, `a row on ${pipeline}'s stream`);
  w.close();
  return w;
}

describe('egress chunks carry `snapshot` for today’s clients only', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'today', SQL, TODAY);
    await createCompiled(svc, 'old', SQL);
    await startRunning(svc, 'today');
    await startRunning(svc, 'old');
  });
  afterAll(async () => {
    await svc.close();
  });

  it("a today's pipeline: every chunk says snapshot: false", async () => {
    const w = await rowsOn(svc, 'today');
    expect(w.chunks.length).toBeGreaterThan(0);
    for (const c of w.chunks) expect(c).toMatchObject({ sequence_number: expect.any(Number), snapshot: false });
    expect(w.items()).toEqual([{ insert: { x: 1 } }]);
  });

  it("a v0.24 client's pipeline: chunks as v0.24 wrote them, without the field", async () => {
    const w = await rowsOn(svc, 'old');
    for (const c of w.chunks) expect(c).not.toHaveProperty('snapshot');
  });

  it("a request with today's mark (Feldera-Tenant) on the v0.24 pipeline gets the field", async () => {
    svc.headers = { 'feldera-tenant': 'default' };
    try {
      const w = await rowsOn(svc, 'old');
      for (const c of w.chunks) expect(c).toHaveProperty('snapshot', false);
    } finally {
      svc.headers = {};
    }
  });
});

describe('--feldera current: every client gets the field', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: 'current' });
    await createCompiled(svc, 'old', SQL);
    const r = await svc.call('POST', '/v0/pipelines/old/start');
    expect(r.status).toBe(202);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('chunks of a pipeline a v0.24 client created say snapshot: false', async () => {
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/old')).json.deployment_status === 'Running', 'old Running');
    const w = await rowsOn(svc, 'old');
    for (const c of w.chunks) expect(c).toHaveProperty('snapshot', false);
  });
});
