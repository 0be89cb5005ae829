/**
 * A transaction inside the runtime (runtime.ts, held-input.ts) with a real engine: held input stays in the
 * parsers' compact form (RowBatch) and is not stepped; a bad request is refused at arrival and not held;
 * the commit is one step of everything held (its output emitted once), and a commit the engine refuses
 * leaves the contents as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, RowBatch, type JsonValue } from '../../../../src/engine/index.js';
import { defaultEncoding } from '../../../../src/services/pipelines/shared/encoding.js';
import { FelderaError } from '../../../../src/services/pipelines/shared/errors.js';
import { HeldInput } from '../../../../src/services/pipelines/worker/held-input.js';
import { parseCsvInput } from '../../../../src/services/pipelines/worker/ingress/csv.js';
import { parseJsonInput } from '../../../../src/services/pipelines/worker/ingress/json.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/worker/runtime.js';
import {
  admitToTransaction,
  COLUMN_BYTES,
  CommitCostModel,
  HELD_BYTES_FACTOR,
  KEYED_COLUMN_BYTES,
  KEYED_ROW_BYTES,
  ROW_BYTES,
  VIEW_ROW_BYTES,
} from '../../../../src/services/pipelines/worker/transaction-memory.js';

const root = mkdtempSync(join(tmpdir(), 'ops-txn-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SQL = `CREATE TABLE t (id INT NOT NULL PRIMARY KEY, x INT);
CREATE MATERIALIZED VIEW v AS SELECT id, x * 2 AS twice FROM t;`;

async function runtime(memoryMb: number | null = null): Promise<{ rt: PipelineRuntime; emitted: string[] }> {
  const c = compile(SQL);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  const emitted: string[] = [];
  const rt = new PipelineRuntime(c.program, {
    emit: (relation, _encoding, chunks) => emitted.push(`${relation}:${chunks.map((ch) => ch.data).join('')}`),
    endStreams: () => {},
    log: () => {},
    connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 },
    memoryMb,
  });
  await rt.init();
  rt.resume();
  rt.subscribe('V', defaultEncoding('json'), 1);
  return { rt, emitted };
}

describe('a transaction in the runtime', () => {
  it('holds checked input in RowBatch form, unapplied; the commit is one step of all of it', async () => {
    const { rt, emitted } = await runtime();
    const table = rt.program.tables[0]!;
    const binding = rt.binding(table);
    const ep = rt.httpEndpoint(table, 'csv');
    rt.startTransaction(7);
    expect(rt.ingest(parseCsvInput('1,10\n2,20\n', binding), ep, 10)).toBe('held');
    expect(rt.ingest(parseJsonInput('{"insert": {"id": 3, "x": 30}}', binding, { updateFormat: 'insert_delete', array: false }), ep, 30)).toBe('held');
    // a bad request: refused, nothing of it held
    expect(() => rt.ingest(parseCsvInput('4,40\nfive,50\n', binding), ep, 12)).toThrow(FelderaError);
    expect(rt.transaction).toMatchObject({ id: 7, records: 3, changes: 3 });
    expect(ep.metrics).toMatchObject({ total_records: 3, buffered_records: 3, buffered_bytes: 40, total_bytes: 40 });
    expect(rt.steps).toBe(0);
    expect(rt.circuit.contents('T')).toEqual([]);
    expect(emitted).toEqual([]);

    // the compact form: a run of full rows is one RowBatch change
    const peek = new HeldInput(0);
    peek.hold(parseCsvInput('1,10\n2,20\n', binding), undefined, 0, 0);
    const held = peek.take();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ op: 'batch', rowOp: 'upsert' });
    expect((held[0] as { rows: unknown }).rows).toBeInstanceOf(RowBatch);

    const { completed, refused } = rt.commitTransaction();
    expect(refused).toBeNull();
    expect(completed).toEqual([{ endpoint: ep.endpoint_name, count: 3, step: 1 }]);
    expect(rt.transaction).toBeNull();
    expect(rt.steps).toBe(1);
    expect(emitted).toHaveLength(1);
    expect(rt.circuit.contents('V')).toHaveLength(3);
    expect(ep.metrics).toMatchObject({ buffered_records: 0, buffered_bytes: 0, total_records: 3 });
    expect(rt.bufferedRecords).toBe(0);
    expect(rt.totalInputRecords).toBe(rt.totalProcessedRecords);
    // no transaction: a request is a step again
    expect(rt.ingest(parseCsvInput('4,40\n', binding), ep, 5)).toBe('applied');
    expect(rt.steps).toBe(2);
  });

  it('a commit the engine refuses applies nothing of the transaction', async () => {
    const { rt, emitted } = await runtime();
    const binding = rt.binding(rt.program.tables[0]!);
    rt.apply(parseCsvInput('1,1\n', binding));
    const before = rt.circuit.contents('V');
    rt.startTransaction(1);
    rt.ingest(parseCsvInput('2,2\n', binding));
    rt.ingest(parseCsvInput('3,2147483647\n', binding));
    const { refused } = rt.commitTransaction();
    expect(refused).toBeInstanceOf(FelderaError);
    expect(refused).toMatchObject({ status: 422, code: 'StepRefused' });
    expect(rt.circuit.contents('V')).toEqual(before);
    expect(rt.steps).toBe(1);
    expect(emitted).toHaveLength(1);
    expect(rt.transaction).toBeNull();
    expect(rt.bufferedRecords).toBe(0);
  });
});

describe('what a transaction may hold (transaction-memory.ts)', () => {
  it('estimates a held row at its table and the views: keyed or not, per column, per view, and twice its held bytes', () => {
    const c = compile(`CREATE TABLE k (id INT NOT NULL PRIMARY KEY, a VARCHAR, b DOUBLE);
CREATE TABLE u (x INT);
CREATE MATERIALIZED VIEW v1 AS SELECT id FROM k;
CREATE MATERIALIZED VIEW v2 AS SELECT x FROM u;`);
    if (!c.ok) throw new Error(JSON.stringify(c.errors));
    const model = new CommitCostModel(c.program);
    const batch = (width: number, rows: JsonValue[][]): RowBatch => {
      const b = new RowBatch(width);
      for (const r of rows) {
        for (const v of r) b.push(v);
        b.endRow();
      }
      b.fit();
      return b;
    };
    const kRows = batch(3, [
      [1, 'ab', 0.5],
      [2, 'c', 1],
    ]);
    const uRows = batch(1, [[7]]);
    const views = 2 * VIEW_ROW_BYTES;
    expect(model.cost([{ table: 'K', op: 'batch', rowOp: 'upsert', rows: kRows }])).toBe(2 * (KEYED_ROW_BYTES + 3 * KEYED_COLUMN_BYTES + views) + HELD_BYTES_FACTOR * kRows.byteLength);
    expect(model.cost([{ table: 'U', op: 'batch', rowOp: 'insert', rows: uRows }])).toBe(ROW_BYTES + COLUMN_BYTES + views + HELD_BYTES_FACTOR * 9);
    // a change in row form costs its row and its objects
    const rowForm = model.cost([{ table: 'U', op: 'insert', row: { X: 1 }, weight: 3 }]);
    expect(rowForm).toBeGreaterThan(ROW_BYTES + COLUMN_BYTES + views);
    expect(model.cost([])).toBe(0);
  });

  it('refuses (413 TransactionTooLarge) a request the memory limit cannot commit, holding nothing of it; the transaction goes on', async () => {
    // a limit of 1 MiB: far below what the heap already holds, so any request is too much
    const { rt } = await runtime(1);
    const binding = rt.binding(rt.program.tables[0]!);
    const ep = rt.httpEndpoint(rt.program.tables[0]!, 'csv');
    rt.startTransaction(3);
    let err: unknown;
    try {
      rt.ingest(parseCsvInput('1,10\n', binding), ep, 5);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FelderaError);
    expect(err).toMatchObject({ status: 413, code: 'TransactionTooLarge', details: { transaction_id: 3, transaction_records: 0, memory_mb_max: 1 } });
    expect((err as FelderaError).message).toMatch(/memory limit of 1 MiB \(runtime_config\.resources\.memory_mb_max\)\. Nothing of this request was held; the transaction stays open/);
    expect(rt.transaction).toMatchObject({ id: 3, records: 0, changes: 0, commitCost: 0 });
    expect(ep.metrics).toMatchObject({ total_records: 0, buffered_records: 0, buffered_bytes: 0, total_bytes: 0, num_parse_errors: 0 });
    expect(rt.totalInputRecords).toBe(0);
    expect(rt.bufferedRecords).toBe(0);
    expect(rt.commitTransaction()).toEqual({ completed: [], refused: null });
    expect(rt.steps).toBe(0);
    // no transaction: the bound does not apply, a request is a step
    expect(rt.ingest(parseCsvInput('1,10\n', binding), ep, 5)).toBe('applied');
  });

  it('holds many small requests in a few bytes each (their batches cut to their rows), and adds up their cost', async () => {
    const { rt } = await runtime();
    const binding = rt.binding(rt.program.tables[0]!);
    rt.startTransaction(1);
    for (let i = 0; i < 500; i++) rt.ingest(parseCsvInput(`${i},${i}\n`, binding));
    const held = rt.transaction!;
    const perRow = KEYED_ROW_BYTES + 2 * KEYED_COLUMN_BYTES + VIEW_ROW_BYTES;
    // each one-row batch: tags 2 + numbers 16 bytes (a block's room would be 294,912 bytes)
    expect(held.commitCost).toBe(500 * (perRow + HELD_BYTES_FACTOR * 18));
    const input = held.take();
    expect(input).toHaveLength(500);
    for (const ch of input) expect((ch as { rows: RowBatch }).rows.byteLength).toBe(18);
  });

  it('garbage does not refuse a request: the heap is read again after a full collection before refusing', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const MiB = 1024 * 1024;
    gc();
    const live = getHeapStatistics().used_heap_size;
    // 200 MiB of arrays in the old generation, dropped at once: garbage until a full collection
    const junk: { arrays: number[][] | null } = { arrays: Array.from({ length: 25 }, () => new Array<number>(1_000_000).fill(1.5)) };
    expect(junk.arrays).toHaveLength(25);
    junk.arrays = null;
    expect(getHeapStatistics().used_heap_size - live).toBeGreaterThan(150 * MiB);
    const need = 50 * MiB;
    // room for the live heap, the need and 40 MiB more; not for the garbage
    const memoryMb = Math.ceil((live + need + 40 * MiB) / 0.8 / MiB);
    const info = { transactionId: 1, records: 0, memoryMb };
    expect(() => admitToTransaction(0, need, info)).not.toThrow();
    // 150 MiB more than that is refused, garbage or not (a wide margin: in a worker shared with other test files
    // the live heap can move between the two reads; with 60 MiB the refusal failed once in a full run)
    expect(() => admitToTransaction(need, 150 * MiB, info)).toThrow(expect.objectContaining({ status: 413, code: 'TransactionTooLarge' }));
  });
});
