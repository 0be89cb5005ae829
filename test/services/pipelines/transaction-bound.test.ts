/**
 * A transaction's held input is bounded by what its commit can apply in the pipeline's memory
 * (transaction-memory.ts): the request that would go past the bound is refused with 413
 * TransactionTooLarge and nothing of it is held, while the transaction stays open, what it held before is
 * committed exactly, stats stay right and the pipeline keeps running. It used to hold on until the commit,
 * whose step then ran the worker out of memory (500 OutOfMemory, a Failed pipeline, its state lost).
 * A small memory limit (64 MiB) keeps the test fast: the bound comes after a few requests of 10,000 rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c, SUM(CAST(id AS BIGINT)) AS s FROM t;`;
const ROWS = 10_000;
/** The body of request k: ids k*ROWS .. (k+1)*ROWS-1. */
const body = (k: number, rows = ROWS) => Array.from({ length: rows }, (_, i) => `${k * ROWS + i},row-${k}`).join('\n');
/** Sum of the ids 0 .. n-1. */
const idSum = (n: number) => (n * (n - 1)) / 2;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'cap', SQL, { runtime_config: { resources: { memory_mb_max: 64 } } });
  await startRunning(svc, 'cap');
});
afterAll(async () => {
  await svc?.close();
});

const action = (a: string) => svc.call('POST', `/v0/pipelines/cap/${a}`);
const globals = async () => (await svc.call('GET', '/v0/pipelines/cap/stats')).json.global_metrics;
const query = async (sql: string) => {
  const r = await svc.call('GET', `/v0/pipelines/cap/query?sql=${encodeURIComponent(sql)}&format=json`);
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text);
};
const running = async () => {
  const p = (await svc.call('GET', '/v0/pipelines/cap')).json;
  return [p.deployment_status, p.deployment_error];
};

describe('a transaction bounded by the pipeline memory', () => {
  it('refuses the request that would go past the bound (413), keeps the transaction and commits what it held', async () => {
    const watch = await WatchReader.open(svc, 'cap', 'n');
    try {
      expect((await action('start_transaction')).json).toEqual({ transaction_id: 1 });
      // requests of 10,000 rows until one is refused (the bound is far below 60 of them in 64 MiB)
      let held = 0;
      let refused: Awaited<ReturnType<typeof ingest>> | null = null;
      for (let k = 0; k < 60 && refused === null; k++) {
        const r = await ingest(svc, 'cap', 't', 'format=csv', body(k));
        if (r.status === 200) held++;
        else refused = r;
      }
      expect(refused, 'no request was refused').not.toBeNull();
      expect(held).toBeGreaterThanOrEqual(1);
      expect(refused!.status).toBe(413);
      expect(refused!.json).toMatchObject({
        error_code: 'TransactionTooLarge',
        message: expect.stringMatching(
          /^The transaction cannot take this request: committing it with what it holds \(\d+ records\) would need more memory than the pipeline can spare.*memory limit of 64 MiB \(runtime_config\.resources\.memory_mb_max\)\. Nothing of this request was held; the transaction stays open/,
        ),
        details: { transaction_id: 1, transaction_records: held * ROWS, memory_mb_max: 64, estimated_commit_bytes: expect.any(Number) },
      });
      expect(refused!.json.message).toContain(`(${held * ROWS} records)`);

      // nothing of the refused request is held or counted; the transaction is open, the pipeline runs
      expect(await running()).toEqual(['Running', null]);
      const open = await globals();
      expect(open).toMatchObject({
        transaction_status: 'TransactionInProgress',
        transaction_id: 1,
        transaction_records: held * ROWS,
        total_input_records: held * ROWS,
        buffered_input_records: held * ROWS,
        total_processed_records: 0,
        total_completed_steps: 0,
      });
      const ep = (await svc.call('GET', '/v0/pipelines/cap/stats')).json.inputs.find((i: any) => i.endpoint_name === 'api-ingress-T');
      expect(ep.metrics).toMatchObject({ total_records: held * ROWS, buffered_records: held * ROWS, num_parse_errors: 0 });
      // the same request again is refused again (no room was made)
      expect((await ingest(svc, 'cap', 't', 'format=csv', body(held))).status).toBe(413);

      // the commit applies exactly what was held, as one step
      const commit = await action('commit_transaction');
      expect(commit.status, commit.text).toBe(200);
      expect(await running()).toEqual(['Running', null]);
      expect(await query('SELECT c, s FROM n')).toEqual({ C: held * ROWS, S: idSum(held * ROWS) });
      expect(await globals()).toMatchObject({
        transaction_status: 'NoTransaction',
        transaction_records: null,
        total_input_records: held * ROWS,
        total_processed_records: held * ROWS,
        buffered_input_records: 0,
        total_completed_steps: 1,
        pipeline_complete: true,
      });
      // one change for the whole transaction (the count of the empty table was 0)
      await watch.until((w) => w.items().length === 2, 'the commit on n');
      expect(watch.items()).toEqual([{ delete: { C: 0, S: null } }, { insert: { C: held * ROWS, S: idSum(held * ROWS) } }]);

      // the refused request, sent outside a transaction, is a step of its own
      const later = await ingest(svc, 'cap', 't', 'format=csv', body(held));
      expect(later.status, later.text).toBe(200);
      expect(await query('SELECT c, s FROM n')).toEqual({ C: (held + 1) * ROWS, S: idSum((held + 1) * ROWS) });
    } finally {
      watch.close();
    }
  });

  it('a single request too big for an empty transaction is refused at once; the empty commit takes no step', async () => {
    const before = await globals();
    expect((await action('start_transaction')).json).toEqual({ transaction_id: 2 });
    const big = await ingest(svc, 'cap', 't', 'format=csv', body(100, 20 * ROWS));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error_code: 'TransactionTooLarge', details: { transaction_id: 2, transaction_records: 0 } });
    // an ad-hoc INSERT held by the transaction is bounded the same way (its refusal is an ad-hoc query's 400)
    const ins = await svc.call('GET', `/v0/pipelines/cap/query?sql=${encodeURIComponent(`INSERT INTO t SELECT id + 10000000, name FROM t`)}&format=json`);
    expect(ins.status, ins.text).toBe(400);
    expect(ins.json).toMatchObject({ error_code: 'AdHocQueryError', message: expect.stringContaining('The transaction cannot take this request') });
    // a small request still fits
    const small = await ingest(svc, 'cap', 't', 'format=json', '{"insert": {"id": -1, "name": "small"}}');
    expect(small.status, small.text).toBe(200);
    expect((await globals()).transaction_records).toBe(1);
    expect((await action('commit_transaction')).status).toBe(200);
    const after = await globals();
    expect(after.total_completed_steps).toBe(before.total_completed_steps + 1);
    expect(after.total_processed_records).toBe(before.total_processed_records + 1);
    expect(await query("SELECT COUNT(*) AS c FROM t WHERE name = 'small' OR id >= 1000000")).toEqual({ C: 1 });
    expect(await running()).toEqual(['Running', null]);
  });
});
