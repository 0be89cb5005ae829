/**
 * Transactions on ops serve (today's Feldera /start_transaction, /commit_transaction): ingress while one is
 * open is checked when it arrives and held, not stepped (watch streams, snapshots and ad-hoc queries see the
 * state before it; its completion tokens are in progress); the commit applies all of it as one step (one
 * frame on a watch stream) and completes the tokens; stats follow the cycle; Feldera's errors; a commit the
 * engine refuses applies nothing; pause keeps a transaction open, a stop or shutdown drops it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-txn-'));
let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ connectorRoot: dir });
});
afterAll(async () => {
  await svc.close();
});

const SQL = `CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE u (x INTEGER) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT id, name FROM t;
CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c, SUM(id) AS s FROM t;
CREATE MATERIALIZED VIEW w AS SELECT x * 2 AS twice FROM u;`;

const action = (name: string, a: string) => svc.call('POST', `/v0/pipelines/${name}/${a}`);
const globals = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.global_metrics;
const query = async (name: string, sql: string): Promise<any[]> => {
  const r = await svc.call('GET', `/v0/pipelines/${name}/query?sql=${encodeURIComponent(sql)}&format=json`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
};
const tokenStatus = async (name: string, token: string) => (await svc.call('GET', `/v0/pipelines/${name}/completion_status?token=${encodeURIComponent(token)}`)).json;
const snapshotRows = async (name: string, rel: string): Promise<any[]> => {
  const r = await svc.call('POST', `/v0/pipelines/${name}/egress/${rel}?format=json&mode=snapshot&query=table`);
  expect(r.status, r.text).toBe(200);
  return r.text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l) => JSON.parse(l).json_data ?? []);
};
/** The chunks of a watch stream that carry data (one per step here: the steps are small). */
const dataChunks = (w: WatchReader) => w.chunks.filter((c) => (c.json_data ?? []).length > 0);

describe('a transaction through its cycle', () => {
  it('holds JSON and CSV ingress unseen, then applies all of it as one step; stats and tokens follow', async () => {
    await createCompiled(svc, 'tx', SQL);
    await startRunning(svc, 'tx');
    const watchV = await WatchReader.open(svc, 'tx', 'v');
    const watchN = await WatchReader.open(svc, 'tx', 'n');
    try {
      // a step before the transaction: seen at once
      const before = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 1, "name": "before"}}');
      expect(before.status, before.text).toBe(200);
      await watchN.until((w) => dataChunks(w).length === 1, 'the first step on n');
      const idle = await globals('tx');
      expect(idle).toMatchObject({ transaction_status: 'NoTransaction', transaction_id: 0, transaction_msecs: null, transaction_records: null, total_completed_steps: 1 });
      expect(idle.transaction_initiators).toEqual({ transaction_id: null, initiated_by_api: null, initiated_by_connectors: {} });

      const start = await action('tx', 'start_transaction');
      expect(start.status, start.text).toBe(200);
      expect(start.headers.get('content-type')).toMatch(/^application\/json/);
      expect(start.json).toEqual({ transaction_id: 1 });
      const open = await globals('tx');
      expect(open).toMatchObject({ transaction_status: 'TransactionInProgress', transaction_id: 1, transaction_records: 0 });
      expect(open.transaction_initiators).toEqual({ transaction_id: 1, initiated_by_api: 'Started', initiated_by_connectors: {} });
      expect(typeof open.transaction_msecs).toBe('number');

      // JSON, CSV and a JSON array into another table, each answered with its token
      const j = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 2, "name": "a"}}\n{"insert": {"id": 3, "name": "b"}}');
      expect(j.status, j.text).toBe(200);
      const c = await ingest(svc, 'tx', 't', 'format=csv', '4,c\n5,d\n6,e\n');
      expect(c.status, c.text).toBe(200);
      const a = await ingest(svc, 'tx', 'u', 'format=json&update_format=raw&array=true', '[{"x": 10}, {"x": 20}]');
      expect(a.status, a.text).toBe(200);
      // a delete of the row from before the transaction: held too
      const d = await ingest(svc, 'tx', 't', 'format=json', '{"delete": {"id": 1}}');
      expect(d.status, d.text).toBe(200);

      // a bad request inside the transaction: refused at once, nothing of it kept (its good row neither)
      const bad = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 7, "name": "ok"}}\n{"insert": {"id": "seven"}}');
      expect(bad.status).toBe(400);
      expect(bad.json.error_code).toBe('ParseErrors');
      const badCsv = await ingest(svc, 'tx', 't', 'format=csv', '8,x\n,missing-key\n');
      expect(badCsv.status).toBe(400);
      // a NULL key; an update of a table without a key (refused by the engine's own check, which a step runs)
      const nullKey = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 8, "name": "ok"}}\n{"insert": {"id": null, "name": "n"}}');
      expect(nullKey.status, nullKey.text).toBe(400);
      expect(nullKey.json.details.errors[0]).toMatchObject({ event_number: 2, field: 'ID' });
      const noKey = await ingest(svc, 'tx', 'u', 'format=json', '{"update": {"x": 1}}');
      expect(noKey.status, noKey.text).toBe(400);
      expect(noKey.json.details.errors[0].description).toMatch(/primary key/);

      // nothing visible: snapshot, ad-hoc query, no new step, tokens in progress
      expect(await snapshotRows('tx', 'v')).toEqual([{ insert: { ID: 1, NAME: 'before' } }]);
      expect(await query('tx', 'SELECT COUNT(*) AS c FROM t')).toEqual([{ C: 1 }]);
      expect(await query('tx', 'SELECT COUNT(*) AS c FROM u')).toEqual([{ C: 0 }]);
      const held = await globals('tx');
      expect(held).toMatchObject({
        transaction_status: 'TransactionInProgress',
        transaction_id: 1,
        transaction_records: 8,
        total_completed_steps: 1,
        total_input_records: 9,
        total_processed_records: 1,
        buffered_input_records: 8,
        pipeline_complete: false,
      });
      expect(held.buffered_input_bytes).toBeGreaterThan(0);
      for (const r of [j, c, a, d]) expect(await tokenStatus('tx', r.json.token)).toEqual({ status: 'inprogress', step: null });
      // the token from before is complete
      expect(await tokenStatus('tx', before.json.token)).toEqual({ status: 'complete', step: 1 });

      const commit = await action('tx', 'commit_transaction');
      expect(commit.status, commit.text).toBe(200);
      expect(commit.json).toBe('Transaction commit initiated');

      // one step: every token completes at it, the watch streams get one frame each
      const after = await globals('tx');
      expect(after).toMatchObject({
        transaction_status: 'NoTransaction',
        transaction_id: 0,
        transaction_records: null,
        transaction_msecs: null,
        total_completed_steps: 2,
        total_input_records: 9,
        total_processed_records: 9,
        buffered_input_records: 0,
        buffered_input_bytes: 0,
        pipeline_complete: true,
      });
      for (const r of [j, c, a, d]) expect(await tokenStatus('tx', r.json.token)).toEqual({ status: 'complete', step: 2 });
      await watchN.until((w) => dataChunks(w).length === 2, 'the commit on n');
      // the count went from 1 to 5 in one change: no frame for any request on its own
      expect(dataChunks(watchN)[1]!.json_data).toEqual([{ delete: { C: 1, S: 1 } }, { insert: { C: 5, S: 20 } }]);
      await watchV.until((w) => dataChunks(w).length === 2, 'the commit on v');
      expect(dataChunks(watchV)[1]!.json_data).toHaveLength(6);
      expect(dataChunks(watchV)[1]!.json_data).toEqual(expect.arrayContaining([{ delete: { ID: 1, NAME: 'before' } }, { insert: { ID: 2, NAME: 'a' } }, { insert: { ID: 6, NAME: 'e' } }]));
      expect(await query('tx', 'SELECT twice FROM w ORDER BY twice')).toEqual([{ TWICE: 20 }, { TWICE: 40 }]);
      // the refused requests left nothing
      expect(await query('tx', 'SELECT id FROM t WHERE id >= 7')).toEqual([]);

      // after the commit, ingress is a step of its own again
      const next = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 9, "name": "next"}}');
      expect(next.status, next.text).toBe(200);
      expect(await tokenStatus('tx', next.json.token)).toEqual({ status: 'complete', step: 3 });
      await watchN.until((w) => dataChunks(w).length === 3, 'the next step on n');
    } finally {
      watchV.close();
      watchN.close();
    }
  });

  it("errors as Feldera's: a second start 409, a commit without one 400, ids count up, a stale id is not the current one", async () => {
    const first = await action('tx', 'start_transaction');
    expect(first.status).toBe(200);
    const id = first.json.transaction_id;
    expect(id).toBe(2);
    const again = await action('tx', 'start_transaction');
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error_code: 'TransactionInProgress', message: 'Cannot perform this operation while there is a transaction in progress', details: null });
    // the Python SDK's commit_transaction(id) compares the id it holds with stats' transaction_id
    expect((await globals('tx')).transaction_id).toBe(id);
    expect((await globals('tx')).transaction_id).not.toBe(1);
    expect((await action('tx', 'commit_transaction')).status).toBe(200);
    // an empty transaction takes no step
    expect((await globals('tx')).total_completed_steps).toBe(3);

    const none = await action('tx', 'commit_transaction');
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ error_code: 'NoTransactionInProgress', message: 'This operation requires an active transaction, but none is currently in progress', details: null });
    // the SDK's wait: the stats' id is no longer the committed one
    expect((await globals('tx')).transaction_id).toBe(0);
    expect((await action('tx', 'start_transaction')).json).toEqual({ transaction_id: 3 });
    expect((await action('tx', 'commit_transaction')).status).toBe(200);

    const unknown = await action('nosuch', 'start_transaction');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error_code).toBe('UnknownPipelineName');
  });

  it('an ad-hoc INSERT inside a transaction is held as ingress is', async () => {
    expect((await action('tx', 'start_transaction')).status).toBe(200);
    const ins = await svc.call('GET', `/v0/pipelines/tx/query?sql=${encodeURIComponent("INSERT INTO t VALUES (20, 'ins'), (21, 'ins')")}&format=json`);
    expect(ins.status, ins.text).toBe(200);
    expect(ins.text.trim()).toBe('{"count":2}');
    expect(await query('tx', "SELECT COUNT(*) AS c FROM t WHERE name = 'ins'")).toEqual([{ C: 0 }]);
    expect((await globals('tx')).transaction_records).toBe(2);
    expect((await action('tx', 'commit_transaction')).status).toBe(200);
    expect(await query('tx', "SELECT COUNT(*) AS c FROM t WHERE name = 'ins'")).toEqual([{ C: 2 }]);
  });

  it('a commit the engine refuses applies nothing and ends the transaction; its tokens are then complete', async () => {
    const steps = (await globals('tx')).total_completed_steps;
    expect((await action('tx', 'start_transaction')).status).toBe(200);
    const ok = await ingest(svc, 'tx', 'u', 'format=json&update_format=raw', '{"x": 1}');
    expect(ok.status, ok.text).toBe(200);
    // alone each request is fine at arrival; x * 2 overflows INTEGER in w only when the step runs
    const big = await ingest(svc, 'tx', 'u', 'format=json&update_format=raw', '{"x": 2147483647}');
    expect(big.status, big.text).toBe(200);
    const commit = await action('tx', 'commit_transaction');
    expect(commit.status).toBe(422);
    expect(commit.json.error_code).toBe('StepRefused');
    expect(commit.json.message).toMatch(/^The transaction was refused, nothing of it was applied: /);
    expect(commit.json.details).toMatchObject({ view: 'W', type: 'INTEGER' });
    const g = await globals('tx');
    expect(g).toMatchObject({ transaction_status: 'NoTransaction', transaction_id: 0, total_completed_steps: steps, buffered_input_records: 0, pipeline_complete: true });
    expect(await query('tx', 'SELECT x FROM u ORDER BY x')).toEqual([{ X: 10 }, { X: 20 }]);
    // processed (refused): nothing of them is still to come
    expect((await tokenStatus('tx', big.json.token)).status).toBe('complete');
    const st = await svc.call('GET', '/v0/pipelines/tx');
    expect(st.json.deployment_status).toBe('Running');
  });

  it('stats go TransactionInProgress -> CommitInProgress -> NoTransaction, never back, while a big commit runs', async () => {
    expect((await action('tx', 'start_transaction')).status).toBe(200);
    const rows = Array.from({ length: 30_000 }, (_, i) => `${1000 + i},big`).join('\n');
    expect((await ingest(svc, 'tx', 't', 'format=csv', rows)).status).toBe(200);
    const order = ['TransactionInProgress', 'CommitInProgress', 'NoTransaction'];
    let settled = false;
    const commit = action('tx', 'commit_transaction').finally(() => (settled = true));
    const seen: string[] = [];
    while (!settled) {
      const g = await globals('tx');
      seen.push(g.transaction_status);
      if (g.transaction_status === 'CommitInProgress') expect(g).toMatchObject({ transaction_records: 30_000, transaction_initiators: { initiated_by_api: 'Committed' } });
    }
    expect((await commit).status).toBe(200);
    seen.push((await globals('tx')).transaction_status);
    expect(seen.at(-1)).toBe('NoTransaction');
    for (let i = 1; i < seen.length; i++) expect(order.indexOf(seen[i]!)).toBeGreaterThanOrEqual(order.indexOf(seen[i - 1]!));
    expect(await query('tx', "SELECT COUNT(*) AS c FROM t WHERE name = 'big'")).toEqual([{ C: 30_000 }]);
  });

  it('pause keeps the transaction open and a commit while paused applies it; shutdown drops an open one', async () => {
    expect((await action('tx', 'start_transaction')).status).toBe(200);
    const r = await ingest(svc, 'tx', 't', 'format=json', '{"insert": {"id": 30, "name": "paused"}}');
    expect(r.status, r.text).toBe(200);
    expect((await action('tx', 'pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/tx')).json.deployment_status === 'Paused', 'tx Paused');
    expect((await globals('tx')).transaction_status).toBe('TransactionInProgress');
    expect((await action('tx', 'commit_transaction')).status).toBe(200);
    expect(await query('tx', 'SELECT name FROM t WHERE id = 30')).toEqual([{ NAME: 'paused' }]);
    expect((await globals('tx')).transaction_status).toBe('NoTransaction');

    // an open transaction's input goes with the run
    expect((await action('tx', 'start_transaction')).status).toBe(200);
    const lost = await ingest(svc, 'tx', 't', 'format=json&force=true', '{"insert": {"id": 31, "name": "lost"}}');
    expect(lost.status, lost.text).toBe(200);
    await shutdown(svc, 'tx');
    const down = await action('tx', 'commit_transaction');
    expect(down.status).toBe(503);
    expect(down.json.error_code).toBe('PipelineInteractionNotDeployed');
    expect((await action('tx', 'start_transaction')).status).toBe(503);
    await startRunning(svc, 'tx');
    const g = await globals('tx');
    expect(g).toMatchObject({ transaction_status: 'NoTransaction', transaction_id: 0 });
    expect(await query('tx', 'SELECT COUNT(*) AS c FROM t')).toEqual([{ C: 0 }]);
    // a new run numbers its transactions from 1 again
    expect((await action('tx', 'start_transaction')).json).toEqual({ transaction_id: 1 });
    expect((await action('tx', 'commit_transaction')).status).toBe(200);
    await shutdown(svc, 'tx');
  });
});

describe('a transaction opened before the first run', () => {
  it("takes in the declared connectors' data: nothing of it is applied until the commit, which is one step", async () => {
    const a = join(dir, 'a.json');
    writeFileSync(a, '{"id": 1, "name": "a"}\n{"id": 2, "name": "b"}\n');
    const conn = `{"name": "src", "transport": {"name": "url_input", "config": {"path": "${pathToFileURL(a).href}"}}, "format": {"name": "json", "config": {"update_format": "raw"}}}`;
    await createCompiled(svc, 'txc', `CREATE TABLE t (id INTEGER, name VARCHAR) WITH ('materialized' = 'true', 'connectors' = '[${conn}]');`);
    expect((await svc.call('POST', '/v0/pipelines/txc/start?initial=paused')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/txc')).json.deployment_status === 'Paused', 'txc Paused');
    expect((await action('txc', 'start_transaction')).json).toEqual({ transaction_id: 1 });
    const token = (await svc.call('GET', '/v0/pipelines/txc/tables/t/connectors/src/completion_token')).json.token;
    await startRunning(svc, 'txc');
    const g = await globals('txc');
    expect(g).toMatchObject({ transaction_status: 'TransactionInProgress', transaction_records: 2, total_completed_steps: 0, pipeline_complete: false });
    expect(await query('txc', 'SELECT COUNT(*) AS c FROM t')).toEqual([{ C: 0 }]);
    expect(await tokenStatus('txc', token)).toEqual({ status: 'inprogress', step: null });
    expect((await action('txc', 'commit_transaction')).status).toBe(200);
    expect(await tokenStatus('txc', token)).toEqual({ status: 'complete', step: 1 });
    expect(await query('txc', 'SELECT COUNT(*) AS c FROM t')).toEqual([{ C: 2 }]);
    expect(await globals('txc')).toMatchObject({ total_completed_steps: 1, pipeline_complete: true, buffered_input_records: 0 });
    await shutdown(svc, 'txc');
  });
});
