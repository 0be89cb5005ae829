/**
 * A transaction inside the runtime (runtime.ts, held-input.ts) with a real engine: held input stays in the
 * parsers' compact form (RowBatch) and is not stepped; a bad request is refused at arrival and not held;
 * the commit is one step of everything held (its output emitted once), and a commit the engine refuses
 * leaves the contents as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, RowBatch } from '../../../../src/engine/index.js';
import { defaultEncoding } from '../../../../src/services/pipelines/egress/encode.js';
import { ApiError } from '../../../../src/services/pipelines/errors.js';
import { HeldInput } from '../../../../src/services/pipelines/held-input.js';
import { parseCsvInput } from '../../../../src/services/pipelines/ingress/csv.js';
import { parseJsonInput } from '../../../../src/services/pipelines/ingress/json.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/runtime.js';

const root = mkdtempSync(join(tmpdir(), 'ops-txn-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SQL = `CREATE TABLE t (id INT NOT NULL PRIMARY KEY, x INT);
CREATE MATERIALIZED VIEW v AS SELECT id, x * 2 AS twice FROM t;`;

async function runtime(): Promise<{ rt: PipelineRuntime; emitted: string[] }> {
  const c = compile(SQL);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  const emitted: string[] = [];
  const rt = new PipelineRuntime(c.program, {
    emit: (relation, _encoding, chunks) => emitted.push(`${relation}:${chunks.map((ch) => ch.data).join('')}`),
    endStreams: () => {},
    log: () => {},
    connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 },
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
    expect(() => rt.ingest(parseCsvInput('4,40\nfive,50\n', binding), ep, 12)).toThrow(ApiError);
    expect(rt.transaction).toMatchObject({ id: 7, records: 3, changes: 3 });
    expect(ep.metrics).toMatchObject({ total_records: 3, buffered_records: 3, buffered_bytes: 40, total_bytes: 40 });
    expect(rt.steps).toBe(0);
    expect(rt.circuit.contents('T')).toEqual([]);
    expect(emitted).toEqual([]);

    // the compact form: a run of full rows is one RowBatch change
    const peek = new HeldInput(0);
    peek.hold(parseCsvInput('1,10\n2,20\n', binding), undefined, 0);
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
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 422, code: 'StepRefused' });
    expect(rt.circuit.contents('V')).toEqual(before);
    expect(rt.steps).toBe(1);
    expect(emitted).toHaveLength(1);
    expect(rt.transaction).toBeNull();
    expect(rt.bufferedRecords).toBe(0);
  });
});
