import { describe, expect, it } from 'vitest';
import { parseJsonInput } from '../../../../src/services/pipelines/worker/ingress/json.js';
import { splitJson } from '../../../../src/services/pipelines/worker/ingress/json-split.js';
import { parseErrorsResponse } from '../../../../src/services/pipelines/worker/ingress/parse-error.js';
import { bindingOf, tableBinding, W3B, W4A } from './schema.js';

const b = bindingOf(W3B, 'T1');
const pk = bindingOf(W4A, 'T1');

describe('JSON ingress parser', () => {
  it('raw rows: case-insensitive keys, missing columns become null', () => {
    const p = parseJsonInput('{"c1": 10, "c2": true}\n{"c1": 20, "c3": "foo"}\n', b, { updateFormat: 'raw', array: false });
    expect(p.errors).toEqual([]);
    expect(p.records).toBe(2);
    expect(p.changes).toEqual([
      { table: 'T1', op: 'insert', row: { C1: 10, C2: true, C3: null } },
      { table: 'T1', op: 'insert', row: { C1: 20, C2: null, C3: 'foo' } },
    ]);
  });

  it('insert_delete with rows as arrays, back-to-back values without newlines', () => {
    const p = parseJsonInput('{"delete": {"c1": 10, "c2": true}}{"insert": [40, true, "buzz"]}', b, {
      updateFormat: 'insert_delete',
      array: false,
    });
    expect(p.errors).toEqual([]);
    expect(p.changes).toEqual([
      { table: 'T1', op: 'delete', row: { C1: 10, C2: true, C3: null } },
      { table: 'T1', op: 'insert', row: { C1: 40, C2: true, C3: 'buzz' } },
    ]);
  });

  it('array=true: W3b step 5 reports both bad events with their field, and the caller applies nothing', () => {
    const body = '[{"insert": [35, true, ""]}, {"delete": [40, "foo", "buzz"]}, {"insert": [true, true, ""]}]';
    const p = parseJsonInput(body, b, { updateFormat: 'insert_delete', array: true });
    expect(p.errors.map((e) => [e.event_number, e.field, e.line])).toEqual([
      [2, 'C2', 1],
      [3, 'C1', 1],
    ]);
    expect(p.errors[0]!.description).toBe('failed to deserialize JSON record: error parsing field \'C2\': invalid type: string "foo", expected a boolean');
    expect(p.errors[1]!.description).toContain('invalid type: boolean `true`, expected i32');
    const err = parseErrorsResponse(p.errors);
    expect(err.status).toBe(400);
    expect(err.code).toBe('ParseErrors');
    expect(err.message).toMatch(/^Errors parsing input data \(2 errors\):\n {4}Parse error \(event #2, line 1\)/);
    expect((err.details as { num_errors: number }).num_errors).toBe(2);
  });

  it('names the line of a bad event in a multi-line array body', () => {
    const body = '[\n  {"insert": [1, true, "a"]},\n  {"insert": [2, true, "b"]},\n  {"insert": ["x", true, "c"]}\n]';
    const p = parseJsonInput(body, b, { updateFormat: 'insert_delete', array: true });
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]!.line).toBe(4);
    expect(p.errors[0]!.event_number).toBe(3);
  });

  it('names the line of a JSON syntax error in NDJSON', () => {
    const p = parseJsonInput('{"insert": [1, true, "a"]}\n{"insert": [2, true, "b"\n', b, { updateFormat: 'insert_delete', array: false });
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]!.line).toBe(2);
    expect(p.errors[0]!.description).toMatch(/failed to parse JSON/);
  });

  it('names the line of a syntax error inside a multi-line array', () => {
    const body = '[\n  {"insert": [1, true, "a"]},\n  {"insert": [2, true "b"]},\n  {"insert": [3, true, "c"]}\n]';
    const p = parseJsonInput(body, b, { updateFormat: 'insert_delete', array: true });
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]!.line).toBe(3);
    // the other elements parse (the bad one is the only error; the caller applies nothing)
    expect(p.errors[0]!.event_number).toBe(2);
    expect(p.records).toBe(3);
  });

  it('rejects unknown update keys and update on a table without a key', () => {
    const p = parseJsonInput('{"upsert": {"c1": 1}}\n{"update": {"c1": 1}}', b, { updateFormat: 'insert_delete', array: false });
    expect(p.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(p.errors[0]!.description).toContain('unknown field `upsert`');
    expect(p.errors[1]!.description).toContain('primary key');
  });

  it('primary-key tables: insert is an upsert, update and delete need only the key', () => {
    const p = parseJsonInput('{"insert":{"id":1,"s":"1"}}\n{"update":{"id":2,"s":"2-modified"}}\n{"delete":{"id":2}}', pk, {
      updateFormat: 'insert_delete',
      array: false,
    });
    expect(p.errors).toEqual([]);
    expect(p.changes).toEqual([
      { table: 'T1', op: 'upsert', row: { ID: 1, S: '1' } },
      { table: 'T1', op: 'update', row: { ID: 2, S: '2-modified' } },
      { table: 'T1', op: 'delete', row: { ID: 2 } },
    ]);
    const bad = parseJsonInput('{"update":{"s":"x"}}\n{"insert":{"id":3}}', pk, { updateFormat: 'insert_delete', array: false });
    expect(bad.errors.map((e) => e.description)).toEqual(['failed to deserialize JSON record: missing primary key field `ID`', 'failed to deserialize JSON record: missing field `S`']);
  });

  it('weighted and debezium formats', () => {
    const w = parseJsonInput('{"weight": 2, "data": {"c1": 1}}\n{"weight": -1, "data": [2, null, null]}', b, {
      updateFormat: 'weighted',
      array: false,
    });
    expect(w.changes).toEqual([
      { table: 'T1', op: 'insert', row: { C1: 1, C2: null, C3: null }, weight: 2 },
      { table: 'T1', op: 'delete', row: { C1: 2, C2: null, C3: null } },
    ]);
    const d = parseJsonInput('{"payload": {"op": "u", "before": [50, true, ""], "after": [60, true, "hello"]}}', b, {
      updateFormat: 'debezium',
      array: false,
    });
    expect(d.changes.map((c) => c.op)).toEqual(['delete', 'insert']);
    expect(d.records).toBe(1);
  });

  it('checks values against column types', () => {
    const t = tableBinding('create table t1(d decimal(10, 2), ts timestamp, a integer array, m map<varchar, varchar>, si smallint)');
    const ok = parseJsonInput('{"d": 1.5, "ts": " 2024-02-25 12:12:33 ", "a": [1, null], "m": {"foo": "1", "bar": "2"}, "si": 7}', t, {
      updateFormat: 'raw',
      array: false,
    });
    expect(ok.errors).toEqual([]);
    expect(ok.changes[0]).toMatchObject({ row: { D: '1.50', TS: '2024-02-25 12:12:33', A: [1, null], M: { bar: '2', foo: '1' }, SI: 7 } });
    expect(Object.keys((ok.changes[0] as unknown as { row: { M: object } }).row.M)).toEqual(['bar', 'foo']);
    const bad = parseJsonInput('{"si": 70000}\n{"d": "abc"}\n{"ts": "yesterday"}\n{"a": 5}', t, { updateFormat: 'raw', array: false });
    expect(bad.errors.map((e) => e.field)).toEqual(['SI', 'D', 'TS', 'A']);
    expect(bad.errors[0]!.description).toContain('expected i16');
  });

  it('quoted columns match exactly, unquoted ones in any case', () => {
    const t = tableBinding('create table t1("c1" integer not null, "C2" boolean not null, ΔΘ boolean not null)');
    const p = parseJsonInput('{"c1": 10, "C2": true, "δθ": false}', t, { updateFormat: 'raw', array: false });
    expect(p.errors).toEqual([]);
    expect(p.changes[0]).toMatchObject({ row: { c1: 10, C2: true, ΔΘ: false } });
    const q = parseJsonInput('{"C1": 10, "C2": true, "δθ": false}', t, { updateFormat: 'raw', array: false });
    expect(q.errors[0]!.description).toContain('missing field `c1`');
  });
});

describe('splitJson', () => {
  it('splits back-to-back values and reports their lines', () => {
    expect(splitJson('{"a":"}{"}\n\n[1,2]{"b":1}').map((s) => s.line)).toEqual([1, 3, 3]);
  });
  it('locates elements of top-level arrays', () => {
    const text = '[\n{"x":[1,2]},\n"s",\n3\n]';
    expect(splitJson(text, 1).map((s) => [text.slice(s.start, s.end), s.line])).toEqual([
      ['{"x":[1,2]}', 2],
      ['"s"', 3],
      ['3', 4],
    ]);
  });
  it('throws on an unterminated value', () => {
    expect(() => splitJson('{"a": [1, 2}')).toThrow(/unterminated|unexpected/);
  });
});
