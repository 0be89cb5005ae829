/** The worked examples of ../shared/reference/pipeline-workloads.md, run against the engine directly. */
import { describe, expect, it } from 'vitest';
import { compile, EngineInputError, type Circuit, type CompiledProgram, type JsonRow, type WeightedRow } from '../../src/engine/index.js';

function prog(sql: string, outputCase: 'upper' | 'lower' = 'lower'): CompiledProgram {
  const r = compile(sql, { outputCase });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

const sortRows = (rows: WeightedRow[]): WeightedRow[] => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const snapshot = (c: Circuit, name: string): JsonRow[] => sortRows(c.contents(name)).flatMap((r) => Array.from({ length: r.weight }, () => r.row));

describe('W2 hello world', () => {
  it('joins two CSV inputs', () => {
    const p = prog(`CREATE TABLE messages (id INTEGER, message STRING);
CREATE TABLE records (id INTEGER, message STRING);

CREATE VIEW matches AS
SELECT messages.message || ' ' || records.message AS combined
FROM messages
JOIN records
    ON messages.id = records.id;`);
    const c = p.newCircuit();
    c.step(['1,a', '2,b', '3,c', '4,Hello', '5,d'].map((l) => ({ table: 'messages', op: 'csv' as const, fields: l.split(',') })));
    const r = c.step([
      { table: 'records', op: 'csv', fields: ['8', 'x'] },
      { table: 'records', op: 'csv', fields: ['4', 'world!'] },
    ]);
    expect(r.changes.get('matches')).toEqual([{ row: { combined: 'Hello world!' }, weight: 1 }]);
    expect(c.contents('matches')).toEqual([{ row: { combined: 'Hello world!' }, weight: 1 }]);
  });
});

describe('W3 ingress conformance', () => {
  it('W3a: CSV rows', () => {
    const p = prog(`CREATE TABLE t1(c1 INTEGER) WITH ('materialized' = 'true'); CREATE VIEW v1 AS SELECT * FROM t1;`);
    expect(p.relation('T1')?.materialized).toBe(true);
    const c = p.newCircuit();
    c.step(['1', '2', '3'].map((f) => ({ table: 't1', op: 'csv' as const, fields: [f] })));
    c.step(['4', '5', '6'].map((f) => ({ table: 't1', op: 'csv' as const, fields: [f] })));
    expect(snapshot(c, 't1').map((r) => r.c1)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('W3b: JSON steps, missing columns, delete of a NULL column, array rows, atomic bad batch', () => {
    const p = prog(`create table t1(c1 integer, c2 bool, c3 varchar) with ('materialized' = 'true');
create materialized view v1 as select * from t1;`);
    const c = p.newCircuit();
    c.step([
      { table: 'T1', op: 'insert', row: { c1: 10, c2: true } },
      { table: 'T1', op: 'insert', row: { c1: 20, c3: 'foo' } },
    ]);
    expect(snapshot(c, 't1')).toEqual([
      { c1: 10, c2: true, c3: null },
      { c1: 20, c2: null, c3: 'foo' },
    ]);
    c.step([
      { table: 't1', op: 'delete', row: { c1: 10, c2: true } },
      { table: 't1', op: 'insert', row: { c1: 30, c3: 'bar' } },
    ]);
    expect(snapshot(c, 't1')).toEqual([
      { c1: 20, c2: null, c3: 'foo' },
      { c1: 30, c2: null, c3: 'bar' },
    ]);
    c.step([{ table: 'T1', op: 'insert', row: [40, true, 'buzz'] as never }]);
    c.step([
      { table: 't1', op: 'delete', row: [40, true, 'buzz'] as never },
      { table: 't1', op: 'insert', row: [50, true, ''] as never },
    ]);
    expect(snapshot(c, 'v1')).toEqual([
      { c1: 20, c2: null, c3: 'foo' },
      { c1: 30, c2: null, c3: 'bar' },
      { c1: 50, c2: true, c3: '' },
    ]);
    // step 5: the whole batch is rejected, nothing applied, the error names the bad event
    let err: unknown;
    try {
      c.step([
        { table: 'T1', op: 'insert', row: [35, true, ''] as never },
        { table: 'T1', op: 'delete', row: [40, 'foo', 'buzz'] as never },
        { table: 'T1', op: 'insert', row: [true, true, ''] as never },
      ]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineInputError);
    expect((err as EngineInputError).index).toBe(1);
    expect((err as Error).message).toContain("error parsing field 'c2'");
    expect(snapshot(c, 't1').map((r) => r.c1)).toEqual([20, 30, 50]);
  });

  it('W3d: date and time parsing with whitespace', () => {
    const p = prog(`create table t1(t TIME, ts TIMESTAMP, d DATE) with ('materialized' = 'true');`);
    const c = p.newCircuit();
    c.step([
      { table: 't1', op: 'insert', row: { t: '13:22:00', ts: '2021-05-20 12:12:33', d: '2021-05-20' } },
      { table: 't1', op: 'insert', row: { t: ' 11:12:33.483221092 ', ts: ' 2024-02-25 12:12:33 ', d: ' 2024-02-25 ' } },
    ]);
    expect(snapshot(c, 't1')).toEqual(
      [
        { t: '13:22:00', ts: '2021-05-20 12:12:33', d: '2021-05-20' },
        { t: '11:12:33.483221092', ts: '2024-02-25 12:12:33', d: '2024-02-25' },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  it('W3e: quoted and unquoted column names', () => {
    const p = prog(`create table t1("c1" integer not null, "C2" bool not null, "😁❤" varchar not null, "αβγ" boolean not null, ΔΘ boolean not null) with ('materialized' = 'true')`);
    const c = p.newCircuit();
    c.step([{ table: 'T1', op: 'insert', row: { c1: 10, C2: true, '😁❤': 'foo', αβγ: true, δθ: false } }]);
    expect(c.contents('t1')).toEqual([{ row: { c1: 10, C2: true, '😁❤': 'foo', αβγ: true, δθ: false }, weight: 1 }]);
    expect(p.relation('t1')!.columns.map((col) => [col.name, col.caseSensitive])).toEqual([
      ['c1', false],
      ['C2', true],
      ['😁❤', false],
      ['αβγ', false],
      ['δθ', false],
    ]);
  });

  it('W3e in upper-case mode: unquoted names are upper case, quoted keep their spelling', () => {
    const p = prog(`create table t1("c1" integer not null, ΔΘ boolean not null, x int)`, 'upper');
    const c = p.newCircuit();
    c.step([{ table: 't1', op: 'insert', row: { c1: 10, δθ: false, X: 3 } }]);
    expect(c.contents('T1')).toEqual([{ row: { c1: 10, ΔΘ: false, X: 3 }, weight: 1 }]);
  });

  it('W3f: case-sensitive relation names', () => {
    const p = prog(`create table "TaBle1"(id bigint not null);
create table table1(id bigint);
create materialized view "V1" as select * from "TaBle1";
create materialized view "v1" as select * from table1;`);
    const c = p.newCircuit();
    const r1 = c.step([{ table: '"TaBle1"', op: 'insert', row: { id: 1 } }]);
    const r2 = c.step([{ table: 'table1', op: 'insert', row: { id: 2 } }]);
    expect(r1.changes.get('V1')).toEqual([{ row: { id: 1 }, weight: 1 }]);
    expect(r1.changes.has('v1')).toBe(false);
    expect(r2.changes.get('v1')).toEqual([{ row: { id: 2 }, weight: 1 }]);
    expect(c.contents('"V1"')).toEqual([{ row: { id: 1 }, weight: 1 }]);
    expect(c.contents('"v1"')).toEqual([{ row: { id: 2 }, weight: 1 }]);
    expect(c.contents('v1')).toEqual([{ row: { id: 2 }, weight: 1 }]);
    expect(p.relation('"V1"')?.name).toBe('V1');
    expect(p.relation('V1')?.name).toBe('v1');
  });
});

describe('W4 primary keys', () => {
  it('W4a: insert overwrites, update patches, delete by key', () => {
    const p = prog(`create table t1(id bigint not null, s varchar not null, primary key (id)) with ('materialized' = 'true')`);
    expect(p.relation('t1')!.primaryKey).toEqual(['id']);
    const c = p.newCircuit();
    c.step([
      { table: 'T1', op: 'insert', row: { id: 1, s: '1' } },
      { table: 'T1', op: 'insert', row: { id: 2, s: '2' } },
    ]);
    expect(snapshot(c, 't1')).toEqual([
      { id: 1, s: '1' },
      { id: 2, s: '2' },
    ]);
    c.step([
      { table: 'T1', op: 'insert', row: { id: 1, s: '1-modified' } },
      { table: 'T1', op: 'update', row: { id: 2, s: '2-modified' } },
    ]);
    expect(snapshot(c, 't1')).toEqual([
      { id: 1, s: '1-modified' },
      { id: 2, s: '2-modified' },
    ]);
    c.step([{ table: 'T1', op: 'delete', row: { id: 2 } }]);
    expect(snapshot(c, 't1')).toEqual([{ id: 1, s: '1-modified' }]);
  });

  it('W4b: upsert deltas on a watched table', () => {
    const p = prog(`create table t1(
    id1 bigint not null, id2 bigint not null,
    str1 varchar not null, str2 varchar,
    int1 bigint not null, int2 bigint,
    primary key(id1, id2));`);
    const c = p.newCircuit();
    const row = (id1: number, str1: string, str2: string | null, int1: number, int2: number | null) => ({ id1, id2: 1, str1, str2, int1, int2 });
    const d1 = c.step([1, 2, 3].map((i) => ({ table: 't1', op: 'insert' as const, row: { id1: i, id2: 1, str1: '1', int1: 1 } })));
    expect(sortRows(d1.changes.get('t1')!)).toEqual(sortRows([1, 2, 3].map((i) => ({ row: row(i, '1', null, 1, null), weight: 1 }))));
    const d2 = c.step([
      { table: 't1', op: 'update', row: { id1: 1, id2: 1, str1: '2' } },
      { table: 't1', op: 'update', row: { id1: 2, id2: 1, str2: 'foo' } },
      { table: 't1', op: 'insert', row: { id1: 3, id2: 1, str1: '1', str2: '2', int1: 3, int2: 33 } },
    ]);
    expect(sortRows(d2.changes.get('t1')!)).toEqual(
      sortRows([
        { row: row(1, '1', null, 1, null), weight: -1 },
        { row: row(2, '1', null, 1, null), weight: -1 },
        { row: row(3, '1', null, 1, null), weight: -1 },
        { row: row(1, '2', null, 1, null), weight: 1 },
        { row: row(2, '1', 'foo', 1, null), weight: 1 },
        { row: row(3, '1', '2', 3, 33), weight: 1 },
      ]),
    );
    // deletes come before inserts
    expect(d2.changes.get('t1')!.map((r) => r.weight)).toEqual([-1, -1, -1, 1, 1, 1]);
    const d3 = c.step([
      { table: 't1', op: 'update', row: { id1: 1, id2: 1 } },
      { table: 't1', op: 'update', row: { id1: 2, id2: 1, str2: null } },
      { table: 't1', op: 'delete', row: { id1: 3, id2: 1 } },
      { table: 't1', op: 'delete', row: { id1: 4, id2: 1 } },
      { table: 't1', op: 'update', row: { id1: 4, id2: 1, int1: 0, str1: '' } },
    ]);
    expect(sortRows(d3.changes.get('t1')!)).toEqual(
      sortRows([
        { row: row(2, '1', 'foo', 1, null), weight: -1 },
        { row: row(3, '1', '2', 3, 33), weight: -1 },
        { row: row(2, '1', null, 1, null), weight: 1 },
      ]),
    );
  });

  it('W4c: a key touched more than once in a step: its delta is consolidated (keys touched once are left as they are)', () => {
    const p = prog(`create table t(id bigint not null primary key, s varchar);`);
    const c = p.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { id: 1, s: 'a' } }]);
    const d = c.step([
      { table: 't', op: 'insert', row: { id: 1, s: 'b' } },
      { table: 't', op: 'insert', row: { id: 3, s: 'q' } },
      { table: 't', op: 'insert', row: { id: 1, s: 'c' } },
      { table: 't', op: 'insert', row: { id: 2, s: 'x' } },
      { table: 't', op: 'delete', row: { id: 2 } },
      { table: 't', op: 'insert', row: { id: 1, s: 'a' } },
    ]);
    // key 1 ends where it began, key 2 came and went: only key 3 changed
    expect(d.changes.get('t')).toEqual([{ row: { id: 3, s: 'q' }, weight: 1 }]);
    const d2 = c.step([
      { table: 't', op: 'insert', row: { id: 4, s: 'y' } },
      { table: 't', op: 'insert', row: { id: 1, s: 'z' } },
    ]);
    expect(sortRows(d2.changes.get('t')!)).toEqual(
      sortRows([
        { row: { id: 1, s: 'a' }, weight: -1 },
        { row: { id: 1, s: 'z' }, weight: 1 },
        { row: { id: 4, s: 'y' }, weight: 1 },
      ]),
    );
    expect(snapshot(c, 't')).toEqual([
      { id: 1, s: 'z' },
      { id: 3, s: 'q' },
      { id: 4, s: 'y' },
    ]);
  });
});

describe('W5 multiset outputs', () => {
  it('duplicates are repeated changes', () => {
    const p = prog(`create table t1(id bigint not null, s varchar not null);
create view v1 as select s from t1;`);
    const c = p.newCircuit();
    const ins = (id: number, s: string) => ({ table: 'T1', op: 'insert' as const, row: { id, s } });
    expect(sortRows(c.step([ins(1, '1'), ins(2, '2')]).changes.get('v1')!)).toEqual([
      { row: { s: '1' }, weight: 1 },
      { row: { s: '2' }, weight: 1 },
    ]);
    c.step([ins(3, '3'), ins(4, '4')]);
    expect(sortRows(c.step([ins(5, '1'), ins(6, '2')]).changes.get('v1')!)).toEqual([
      { row: { s: '1' }, weight: 1 },
      { row: { s: '2' }, weight: 1 },
    ]);
    expect(c.contents('v1').find((r) => r.row.s === '1')!.weight).toBe(2);
    expect(c.step([{ table: 't1', op: 'delete', row: { id: 5, s: '1' } }]).changes.get('v1')).toEqual([{ row: { s: '1' }, weight: -1 }]);
  });

  it('a row inserted and deleted in one step produces nothing', () => {
    const p = prog(`create table t(a int); create view v as select a from t;`);
    const c = p.newCircuit();
    const r = c.step([
      { table: 't', op: 'insert', row: { a: 1 } },
      { table: 't', op: 'delete', row: { a: 1 } },
    ]);
    expect(r.changes.size).toBe(0);
  });
});
