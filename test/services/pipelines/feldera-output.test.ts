/**
 * Output as Feldera emits it: each step's changes sorted by row (NULL first), program_info's
 * `materialized` only where the program says so, and the server-wide `--output-case`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepOrder } from '../../../src/services/pipelines/worker/egress/order.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';
import { col } from './unit/schema.js';

describe('step order', () => {
  it('sorts by the columns in order, NULL first, DECIMAL by value, then deletes before inserts', () => {
    const cols = [col('A', 'INTEGER'), col('D', 'DECIMAL(5, 2)'), col('S', 'VARCHAR')];
    const rows = [
      { row: { A: 2, D: '10.00', S: 'x' }, weight: 1 },
      { row: { A: null, D: '1.00', S: 'z' }, weight: 1 },
      { row: { A: 2, D: '9.50', S: 'y' }, weight: -1 },
      { row: { A: 1, D: null, S: 'b' }, weight: 2 },
      { row: { A: 1, D: null, S: 'b' }, weight: -1 },
      { row: { A: 1, D: null, S: null }, weight: 1 },
    ];
    expect(stepOrder(rows, cols)).toEqual([
      { row: { A: null, D: '1.00', S: 'z' }, weight: 1 },
      { row: { A: 1, D: null, S: null }, weight: 1 },
      { row: { A: 1, D: null, S: 'b' }, weight: -1 },
      { row: { A: 1, D: null, S: 'b' }, weight: 2 },
      { row: { A: 2, D: '9.50', S: 'y' }, weight: -1 },
      { row: { A: 2, D: '10.00', S: 'x' }, weight: 1 },
    ]);
  });

  it('sorts a numeric first column (its fast path) with ties broken by the other columns and the weight', () => {
    const cols = [col('ID', 'BIGINT', false), col('S', 'VARCHAR')];
    const want = [];
    for (let id = -3; id < 200; id++) for (const s of [null, 'a', 'b']) want.push({ row: { ID: id * 1.5, S: s }, weight: s === 'a' ? -1 : 1 });
    want.splice(5, 0, { row: { ID: -3 * 1.5 + 1.5, S: 'a' }, weight: 2 }); // after the same row's delete
    // a fixed shuffle (reversed, then interleaved)
    const rev = [...want].reverse();
    const shuffled = [...rev.filter((_, i) => i % 2 === 0), ...rev.filter((_, i) => i % 2 === 1)];
    expect(stepOrder(shuffled, cols)).toEqual(want);
  });

  it('returns sorted input as it is', () => {
    const rows = [
      { row: { A: 1 }, weight: 1 },
      { row: { A: 2 }, weight: 1 },
    ];
    expect(stepOrder(rows, [col('A', 'INTEGER')])).toBe(rows);
  });
});

describe('output like Feldera', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('each step of a watch stream comes sorted by row, NULL first, deletes and inserts interleaved by row', async () => {
    await createCompiled(svc, 'sorted', 'CREATE TABLE t (id INT, s VARCHAR);\nCREATE MATERIALIZED VIEW v AS SELECT id, s FROM t;');
    await startRunning(svc, 'sorted');
    const json = await WatchReader.open(svc, 'sorted', 'V', 'format=json');
    const csv = await WatchReader.open(svc, 'sorted', 'V', 'format=csv');
    const insert = await ingest(
      svc,
      'sorted',
      'T',
      'format=json',
      [{ insert: { id: 3, s: 'c' } }, { insert: { id: 1, s: 'b' } }, { insert: { id: null, s: 'n' } }, { insert: { id: 1, s: 'a' } }, { insert: { id: 2, s: null } }]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    expect(insert.status, insert.text).toBe(200);
    await json.until((w) => w.items().length === 5, 'the first step');
    expect(json.items()).toEqual([{ insert: { ID: null, S: 'n' } }, { insert: { ID: 1, S: 'a' } }, { insert: { ID: 1, S: 'b' } }, { insert: { ID: 2, S: null } }, { insert: { ID: 3, S: 'c' } }]);
    const update = await ingest(
      svc,
      'sorted',
      'T',
      'format=json',
      [{ insert: { id: 0, s: 'z' } }, { delete: { id: 3, s: 'c' } }, { delete: { id: 1, s: 'a' } }, { insert: { id: 2, s: 'q' } }].map((e) => JSON.stringify(e)).join('\n'),
    );
    expect(update.status, update.text).toBe(200);
    await json.until((w) => w.items().length === 9, 'the second step');
    expect(json.items().slice(5)).toEqual([{ insert: { ID: 0, S: 'z' } }, { delete: { ID: 1, S: 'a' } }, { insert: { ID: 2, S: 'q' } }, { delete: { ID: 3, S: 'c' } }]);
    await csv.until((w) => w.chunks.filter((c) => c.text_data).length === 2, 'two csv steps');
    expect(csv.chunks.map((c) => c.text_data).filter(Boolean)).toEqual([',n,1\n1,a,1\n1,b,1\n2,,1\n3,c,1\n', '0,z,1\n1,a,-1\n2,q,1\n3,c,-1\n']);
    json.close();
    csv.close();
    await shutdown(svc, 'sorted');
  });

  it("program_info marks a table materialized only with 'materialized' = 'true', views only when CREATE MATERIALIZED VIEW", async () => {
    const p = await createCompiled(
      svc,
      'mat',
      `CREATE TABLE plain_t (a INT);
       CREATE TABLE keyed_t (a INT NOT NULL PRIMARY KEY);
       CREATE TABLE mat_t (a INT) WITH ('materialized' = 'true');
       CREATE TABLE off_t (a INT) WITH ('materialized' = 'false');
       CREATE VIEW plain_v AS SELECT a FROM plain_t;
       CREATE MATERIALIZED VIEW mat_v AS SELECT a FROM mat_t;`,
    );
    const flag = (rels: { name: string; materialized: boolean }[]) => Object.fromEntries(rels.map((r) => [r.name, r.materialized]));
    expect(flag(p.program_info.schema.inputs)).toEqual({ PLAIN_T: false, KEYED_T: false, MAT_T: true, OFF_T: false });
    expect(flag(p.program_info.schema.outputs)).toEqual({ PLAIN_V: false, MAT_V: true });
  });
});

describe('ops serve --output-case', () => {
  const SQL = 'CREATE TABLE t1 (c1 INT);\nCREATE VIEW v1 AS SELECT c1 FROM t1;';
  const names = (p: any) => [...p.program_info.schema.inputs, ...p.program_info.schema.outputs].flatMap((r: any) => [r.name, ...r.fields.map((f: any) => f.name)]);

  it('lower: unquoted names come out lower case unless the pipeline says output_case upper; a restart under another case recompiles', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-output-case-'));
    let svc = await startSvc({ outputCase: 'lower' }, { dataDir });
    try {
      expect(names(await createCompiled(svc, 'low', SQL))).toEqual(['t1', 'c1', 'v1', 'c1']);
      expect(names(await createCompiled(svc, 'up', SQL, { program_config: { output_case: 'upper' } }))).toEqual(['T1', 'C1', 'V1', 'C1']);
      await startRunning(svc, 'low');
      const w = await WatchReader.open(svc, 'low', 'V1', 'format=json');
      expect((await ingest(svc, 'low', 'T1', 'format=json', '{"insert": {"C1": 5}}')).status).toBe(200);
      await w.until((r) => r.items().length === 1, 'the row');
      expect(w.items()).toEqual([{ insert: { c1: 5 } }]);
      // shutdown ends the stream from the server's side
      await shutdown(svc, 'low');
      await w.until((r) => r.ended, 'the end of the stream');
    } finally {
      await svc.close();
    }
    // the default server cases the same stored program upper again
    svc = await startSvc({}, { dataDir });
    try {
      const p = await waitFor(async () => {
        const r = (await svc.call('GET', '/v0/pipelines/low')).json;
        return r.program_status === 'Success' && r.program_info.schema.inputs[0].name === 'T1' ? r : undefined;
      }, 'recompiled upper case');
      expect(names(p)).toEqual(['T1', 'C1', 'V1', 'C1']);
      expect(names((await svc.call('GET', '/v0/pipelines/up')).json)).toEqual(['T1', 'C1', 'V1', 'C1']);
    } finally {
      await svc.close();
    }
  });
});
