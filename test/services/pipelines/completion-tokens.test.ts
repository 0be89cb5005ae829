/**
 * Today's completion tokens on ops serve: every ingress answers {token}; /completion_status answers
 * complete with the step that applied it (the stats' total_completed_steps agree); tokens of an earlier
 * start are 410; bad tokens and a missing one 400; declared connectors' tokens; a pipeline not deployed;
 * and a client that goes about it as Feldera's Python SDK does (push, read the token, poll the status).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, snapshot, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-tokens-'));
let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ connectorRoot: dir });
});
afterAll(async () => {
  await svc.close();
});

const SQL = `CREATE TABLE t (id INTEGER, name VARCHAR);
CREATE TABLE u (x INTEGER);
CREATE MATERIALIZED VIEW v AS SELECT id, name FROM t;`;

function decode(token: string): { u: string; e: number; c: number } {
  expect(token).toMatch(/^[A-Za-z0-9_-]+$/); // URL-safe base64, no padding
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
}

async function status(name: string, token: string) {
  return svc.call('GET', `/v0/pipelines/${name}/completion_status?token=${encodeURIComponent(token)}`);
}

async function completedSteps(name: string): Promise<number> {
  return (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.global_metrics.total_completed_steps;
}

describe('completion tokens on ingress', () => {
  it('JSON, CSV and array ingress each answer 200 {token}, complete at once with the step that applied it', async () => {
    await createCompiled(svc, 'tok', SQL);
    await startRunning(svc, 'tok');
    const json = await ingest(svc, 'tok', 't', 'format=json&update_format=insert_delete', '{"insert": {"id": 1, "name": "a"}}\n{"insert": {"id": 2, "name": "b"}}');
    expect(json.status, json.text).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(json.json)).toEqual(['token']);
    const t1 = decode(json.json.token);
    expect(t1.c).toBe(2);
    // the incarnation is the run's, as stats report it
    expect(t1.u).toBe((await svc.call('GET', '/v0/pipelines/tok/stats')).json.global_metrics.incarnation_uuid);
    const s1 = await status('tok', json.json.token);
    expect(s1.status).toBe(200);
    expect(s1.json).toEqual({ status: 'complete', step: 1 });
    expect(await completedSteps('tok')).toBe(1);

    const csv = await ingest(svc, 'tok', 't', 'format=csv', '3,c\n4,d\n5,e\n');
    expect(csv.status, csv.text).toBe(200);
    const t2 = decode(csv.json.token);
    // the same table's HTTP input: the same endpoint, further along
    expect(t2).toEqual({ u: t1.u, e: t1.e, c: 5 });
    expect((await status('tok', csv.json.token)).json).toEqual({ status: 'complete', step: 2 });

    const arr = await ingest(svc, 'tok', 'U', 'format=json&update_format=raw&array=true', '[{"x": 1}, {"x": 2}]');
    expect(arr.status, arr.text).toBe(200);
    const t3 = decode(arr.json.token);
    // another table: another endpoint, its own count
    expect(t3.u).toBe(t1.u);
    expect(t3.e).not.toBe(t1.e);
    expect(t3.c).toBe(2);
    expect((await status('tok', arr.json.token)).json).toEqual({ status: 'complete', step: 3 });
    expect(await completedSteps('tok')).toBe(3);

    // an earlier token still names the step that applied it
    expect((await status('tok', json.json.token)).json).toEqual({ status: 'complete', step: 1 });

    // an empty request takes no step: its token is complete at the position already reached
    const empty = await ingest(svc, 'tok', 't', 'format=json', '');
    expect(empty.status, empty.text).toBe(200);
    expect(decode(empty.json.token).c).toBe(5);
    expect((await status('tok', empty.json.token)).json).toEqual({ status: 'complete', step: 2 });
    expect(await completedSteps('tok')).toBe(3);

    // a refused request answers its error, no token, and takes no step
    const bad = await ingest(svc, 'tok', 't', 'format=json', '{"insert": {"id": "x"}}');
    expect(bad.status).toBe(400);
    expect(bad.json.token).toBeUndefined();
    expect(await completedSteps('tok')).toBe(3);
  });

  it('refuses what is not a token of this run: undecodable or missing 400, an earlier start 410, an unknown endpoint 410', async () => {
    const garbage = await status('tok', 'not a token!');
    expect(garbage.status).toBe(400);
    expect(garbage.json).toMatchObject({ error_code: 'InvalidParam' });
    expect(garbage.json.message).toMatch(/^Invalid parameter: invalid completion token: completion token is not a valid base64 string/);
    expect('details' in garbage.json).toBe(true);

    const notJson = await status('tok', Buffer.from('hello').toString('base64url'));
    expect(notJson.status).toBe(400);
    expect(notJson.json.message).toMatch(/invalid completion token: error parsing completion token/);

    const wrongFields = await status('tok', Buffer.from(JSON.stringify({ u: 'x', e: 0, c: 1 })).toString('base64url'));
    expect(wrongFields.status).toBe(400);
    expect(wrongFields.json.message).toMatch(/field 'u'/);

    const missing = await svc.call('GET', '/v0/pipelines/tok/completion_status');
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error_code: 'MissingUrlEncodedParam', message: "Missing URL-encoded parameter 'token'." });

    const r = await ingest(svc, 'tok', 't', 'format=json', '{"insert": {"id": 9, "name": "z"}}');
    const mine = decode(r.json.token);
    const noSuchEndpoint = Buffer.from(JSON.stringify({ u: mine.u, e: 999, c: 1 })).toString('base64url');
    const unknown = await status('tok', noSuchEndpoint);
    expect(unknown.status).toBe(410);
    expect(unknown.json).toMatchObject({ error_code: 'UnknownEndpointInCompletionToken', details: { endpoint_id: 999 } });

    await shutdown(svc, 'tok');
    // not deployed: today's manager's answer
    const down = await status('tok', r.json.token);
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ error_code: 'PipelineInteractionNotDeployed', details: { pipeline_name: 'tok', status: 'stopped' } });
    const downConn = await svc.call('GET', '/v0/pipelines/tok/tables/t/connectors/unnamed-0/completion_token');
    expect(downConn.status).toBe(503);
    expect((await status('nope', r.json.token)).json).toMatchObject({ error_code: 'UnknownPipelineName' });

    // every start is a new incarnation: the old token is gone, a new one works
    await startRunning(svc, 'tok');
    const old = await status('tok', r.json.token);
    expect(old.status).toBe(410);
    expect(old.json).toMatchObject({ error_code: 'PipelineRestarted' });
    expect(old.json.message).toContain(mine.u);
    const again = await ingest(svc, 'tok', 't', 'format=json', '{"insert": {"id": 10, "name": "y"}}');
    const next = decode(again.json.token);
    expect(next.u).not.toBe(mine.u);
    expect(next.c).toBe(1);
    expect((await status('tok', again.json.token)).json).toEqual({ status: 'complete', step: 1 });
    await shutdown(svc, 'tok');
  });

  it("a client written as Feldera's Python SDK (push_to_pipeline, then wait_for_token) gets its token and finishes", async () => {
    await createCompiled(svc, 'sdk', SQL);
    await startRunning(svc, 'sdk');
    // push_to_pipeline: force and array as the strings "false"/"true", update_format raw, application/json
    const res = await fetch(`${svc.base}/v0/pipelines/sdk/ingress/t?force=false&format=json&array=true&update_format=raw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { id: 1, name: 'ann' },
        { id: 2, name: 'bob' },
      ]),
    });
    expect(res.status).toBe(200);
    const resp = (await res.json()) as { token?: string };
    // "response did not contain a completion token" otherwise
    expect(typeof resp.token).toBe('string');
    // wait_for_token: completion_token_processed until status.lower() == "complete"
    let polls = 0;
    for (;;) {
      polls++;
      const s = await fetch(`${svc.base}/v0/pipelines/sdk/completion_status?${new URLSearchParams({ token: resp.token! })}`);
      expect(s.ok).toBe(true);
      const body = (await s.json()) as { status?: string };
      expect(body.status).toBeDefined();
      if (body.status!.toLowerCase() === 'complete') break;
      // a guard against a token that never completes, at a bound no load reaches (the step of two rows
      // completes within a poll or two here): 600 polls of 100 ms, under this test's timeout of 90 s
      expect(polls).toBeLessThan(600);
      await new Promise((r) => setTimeout(r, 100));
    }
    const snap = await snapshot(svc, 'sdk', 'v');
    expect(snap.json_data.map((x: any) => x.insert)).toEqual([
      { ID: 1, NAME: 'ann' },
      { ID: 2, NAME: 'bob' },
    ]);
    await shutdown(svc, 'sdk');
  }, 90_000);
});

describe('completion tokens of declared input connectors', () => {
  const conn = (path: string, name?: string) =>
    `{${name ? `"name": "${name}", ` : ''}"transport": {"name": "url_input", "config": {"path": "${pathToFileURL(path).href}"}}, "format": {"name": "json", "config": {"update_format": "raw"}}}`;

  it('in progress while the pipeline is paused before it first runs, complete once it ran; named and unnamed-N connectors', async () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, '{"id": 1, "name": "a"}\n{"id": 2, "name": "b"}\n{"id": 3, "name": "c"}\n');
    writeFileSync(b, '{"id": 4, "name": "d"}\n');
    const sql = `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('connectors' = '[${conn(a, 'src')}, ${conn(b)}]');
CREATE MATERIALIZED VIEW v AS SELECT id, name FROM t;`;
    await createCompiled(svc, 'ctok', sql);
    expect((await svc.call('POST', '/v0/pipelines/ctok/pause', undefined, { raw: 'null', headers: { 'content-type': 'application/json' } })).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/ctok')).json.deployment_status === 'Paused', 'Paused');
    const stats = (await svc.call('GET', '/v0/pipelines/ctok/stats')).json;
    expect(stats.inputs.map((i: any) => i.endpoint_name)).toEqual(['T.src', 'T.unnamed-1']);

    // table names resolve as in other URLs (case-insensitive)
    const src = await svc.call('GET', '/v0/pipelines/ctok/tables/t/connectors/src/completion_token');
    expect(src.status, src.text).toBe(200);
    expect(decode(src.json.token).c).toBe(3);
    const unnamed = await svc.call('GET', '/v0/pipelines/ctok/tables/T/connectors/unnamed-1/completion_token');
    expect(unnamed.status, unnamed.text).toBe(200);
    expect(decode(unnamed.json.token).e).not.toBe(decode(src.json.token).e);
    expect((await status('ctok', src.json.token)).json).toEqual({ status: 'inprogress', step: null });
    expect((await status('ctok', unnamed.json.token)).json).toEqual({ status: 'inprogress', step: null });

    await startRunning(svc, 'ctok');
    const done = await status('ctok', src.json.token);
    expect(done.json.status).toBe('complete');
    const both = await status('ctok', unnamed.json.token);
    expect(both.json.status).toBe('complete');
    // one step per connector's data, and the stats count them
    expect([done.json.step, both.json.step].sort()).toEqual([1, 2]);
    expect(await completedSteps('ctok')).toBe(2);
    // a token taken now is complete at once
    const later = await svc.call('GET', '/v0/pipelines/ctok/tables/t/connectors/src/completion_token');
    expect((await status('ctok', later.json.token)).json).toEqual(done.json);

    const noConn = await svc.call('GET', '/v0/pipelines/ctok/tables/t/connectors/nope/completion_token');
    expect(noConn.status).toBe(404);
    expect(noConn.json).toMatchObject({ error_code: 'UnknownInputEndpoint', message: "unknown input endpoint name 'T.nope'" });
    const noTable = await svc.call('GET', '/v0/pipelines/ctok/tables/w/connectors/src/completion_token');
    expect(noTable.status).toBe(404);
    expect(noTable.json).toMatchObject({ error_code: 'UnknownInputEndpoint' });
    await shutdown(svc, 'ctok');
  });
});

describe("today's API mode (--pipeline-api current)", () => {
  it('answers ingress with a token too', async () => {
    const cur = await startSvc({ pipelineApi: 'current' });
    try {
      await createCompiled(cur, 'curtok', SQL);
      expect((await cur.call('POST', '/v0/pipelines/curtok/start')).status).toBe(202);
      await waitFor(async () => (await cur.call('GET', '/v0/pipelines/curtok')).json.deployment_status === 'Running', 'Running');
      const r = await ingest(cur, 'curtok', 't', 'format=json', '{"insert": {"id": 1, "name": "a"}}');
      expect(r.status, r.text).toBe(200);
      const s = await cur.call('GET', `/v0/pipelines/curtok/completion_status?token=${r.json.token}`);
      expect(s.json).toEqual({ status: 'complete', step: 1 });
      await cur.call('POST', '/v0/pipelines/curtok/stop');
    } finally {
      await cur.close();
    }
  });
});
