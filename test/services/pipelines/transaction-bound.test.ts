/**
 * A transaction's held input is bounded by what its commit can apply in the pipeline's memory
 * (transaction-memory.ts): the request that would go past the bound is refused with 413
 * TransactionTooLarge and nothing of it is held, while the transaction stays open, what it held before is
 * committed exactly, stats stay right and the pipeline keeps running. It used to hold on until the commit,
 * whose step then ran the worker out of memory (500 OutOfMemory, a Failed pipeline, its state lost).
 * ops pipe ingest stops at the batch refused so, the batches before it held. A small memory limit (64 MiB)
 * keeps the test fast: the bound comes after a few requests of 10,000 rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
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
  for (const name of ['cap', 'cap2', 'cap3']) {
    await createCompiled(svc, name, SQL, { runtime_config: { resources: { memory_mb_max: 64 } } });
    await startRunning(svc, name);
  }
});
afterAll(async () => {
  await svc?.close();
});

const action = (name: string, a: string) => svc.call('POST', `/v0/pipelines/${name}/${a}`);
const globals = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.global_metrics;
/**
 * The view n's row, from a snapshot of n alone. (Not an ad-hoc query: one copies every materialized table
 * into a circuit of its own, too much for a 64 MiB pipeline holding these tables.)
 */
const countOf = async (name: string): Promise<{ C: number; S: number | null }> => {
  const r = await svc.call('POST', `/v0/pipelines/${name}/egress/n?format=json&mode=snapshot&query=table`);
  expect(r.status, r.text).toBe(200);
  const rows = r.text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l) => JSON.parse(l).json_data ?? [])
    .map((c: { insert: { C: number; S: number | null } }) => c.insert);
  expect(rows).toHaveLength(1);
  return rows[0]!;
};
const running = async (name: string) => {
  const p = (await svc.call('GET', `/v0/pipelines/${name}`)).json;
  return [p.deployment_status, p.deployment_error];
};

describe('a transaction bounded by the pipeline memory', () => {
  it('refuses the request that would go past the bound (413), keeps the transaction and commits what it held', async () => {
    const watch = await WatchReader.open(svc, 'cap', 'n');
    try {
      expect((await action('cap', 'start_transaction')).json).toEqual({ transaction_id: 1 });
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
      expect(await running('cap')).toEqual(['Running', null]);
      const open = await globals('cap');
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
      // a bigger request is refused too: the refusal made no room and held nothing
      const bigger = await ingest(svc, 'cap', 't', 'format=csv', body(held, 2 * ROWS));
      expect(bigger.status).toBe(413);
      expect(bigger.json.details.transaction_records).toBe(held * ROWS);
      expect((await globals('cap')).transaction_records).toBe(held * ROWS);

      // the commit applies exactly what was held, as one step
      const commit = await action('cap', 'commit_transaction');
      expect(commit.status, commit.text).toBe(200);
      expect(await running('cap')).toEqual(['Running', null]);
      expect(await countOf('cap')).toEqual({ C: held * ROWS, S: idSum(held * ROWS) });
      expect(await globals('cap')).toMatchObject({
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
      expect(await countOf('cap')).toEqual({ C: (held + 1) * ROWS, S: idSum((held + 1) * ROWS) });
    } finally {
      watch.close();
    }
  });

  it('a request too big for an empty transaction is refused at once; an ad-hoc INSERT is bounded the same way', async () => {
    // a fresh pipeline with 20,000 rows applied
    for (const k of [0, 1]) expect((await ingest(svc, 'cap2', 't', 'format=csv', body(k))).status).toBe(200);
    const before = await globals('cap2');
    expect((await action('cap2', 'start_transaction')).json).toEqual({ transaction_id: 1 });
    const big = await ingest(svc, 'cap2', 't', 'format=csv', body(100, 20 * ROWS));
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject({ error_code: 'TransactionTooLarge', details: { transaction_id: 1, transaction_records: 0 } });
    // a small request still fits
    const small = await ingest(svc, 'cap2', 't', 'format=json', '{"insert": {"id": -1, "name": "small"}}');
    expect(small.status, small.text).toBe(200);
    // the transaction filled up to its bound (ids from 1,000,000 on)
    let held = 0;
    for (let k = 100; k < 160; k++) {
      const r = await ingest(svc, 'cap2', 't', 'format=csv', body(k));
      if (r.status !== 200) {
        expect(r.status).toBe(413);
        break;
      }
      held++;
    }
    expect((await globals('cap2')).transaction_records).toBe(1 + held * ROWS);
    // an ad-hoc INSERT of twice a refused request's rows, held by the transaction: refused as an ad-hoc query (400)
    const sql = 'INSERT INTO t SELECT id + 10000000, name FROM t';
    const ins = await svc.call('GET', `/v0/pipelines/cap2/query?sql=${encodeURIComponent(sql)}&format=json`);
    expect(ins.status, ins.text).toBe(400);
    expect(ins.json).toMatchObject({ error_code: 'AdHocQueryError', message: expect.stringContaining('The transaction cannot take this request') });
    expect((await globals('cap2')).transaction_records).toBe(1 + held * ROWS);

    expect((await action('cap2', 'commit_transaction')).status).toBe(200);
    const after = await globals('cap2');
    expect(after.total_completed_steps).toBe(before.total_completed_steps + 1);
    expect(after.total_processed_records).toBe(before.total_processed_records + 1 + held * ROWS);
    const ids = held * ROWS;
    // ids 0..19,999, -1, and 1,000,000 .. 1,000,000 + held*ROWS - 1
    expect(await countOf('cap2')).toEqual({ C: 2 * ROWS + 1 + ids, S: idSum(2 * ROWS) - 1 + 100 * ROWS * ids + idSum(ids) });
    expect(await running('cap2')).toEqual(['Running', null]);
  });

  it('ops pipe ingest in a transaction stops at the batch it has no room for; the batches before it are held and committed', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: svc.base });
    expect((await opsIn(['pipe', 'txn', 'start', 'cap3'], { env })).exitCode).toBe(0);
    const csv = Array.from({ length: 30 }, (_, k) => body(k) + '\n').join('');
    const ing = await opsIn(['pipe', 'ingest', 'cap3', 't', '-', '--format', 'csv', '--batch-size', String(ROWS)], { env, input: csv });
    expect(ing.exitCode).toBe(1);
    expect(ing.stderr).toMatch(/the batch of .* was refused: The transaction cannot take this request/);
    const accepted = Number(/(\d+) records were accepted before it/.exec(ing.stderr)?.[1]);
    expect(accepted).toBeGreaterThanOrEqual(ROWS);
    expect(accepted % ROWS).toBe(0);
    expect(accepted).toBeLessThan(30 * ROWS);
    const status = await opsIn(['pipe', 'txn', 'status', 'cap3', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ transaction_status: 'TransactionInProgress', transaction_records: accepted });
    const commit = await opsIn(['pipe', 'txn', 'commit', 'cap3', '--wait'], { env });
    expect(commit.exitCode, commit.stderr).toBe(0);
    expect(await countOf('cap3')).toEqual({ C: accepted, S: idSum(accepted) });
    expect(await running('cap3')).toEqual(['Running', null]);
  });
});
