/**
 * The value size limit (src/engine/types/value-limits.ts): every function that can build a string, a binary
 * value or an array past MAX_VALUE_SIZE refuses the step (EngineStepError naming the function, the size and
 * the limit) before building it, and the circuit is left as it was; values at the limit are built.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compile, EngineStepError, type Circuit } from '../../../src/engine/index.js';
import { MAX_VALUE_SIZE } from '../../../src/engine/types/value-limits.js';

function circuitFor(expr: string): Circuit {
  const r = compile(`CREATE TABLE t (s VARCHAR, n BIGINT, b VARBINARY); CREATE MATERIALIZED VIEW v AS SELECT ${expr} AS r FROM t;`);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program.newCircuit();
}

/** The step's error for one row (s, n, b) through `expr`, or null when it passed. */
function refusal(expr: string, row: { s?: string | null; n?: number | null; b?: string | null } = {}): EngineStepError | null {
  const c = circuitFor(expr);
  try {
    c.step([{ table: 't', op: 'insert', row: { s: row.s ?? 'x', n: row.n ?? 1, b: row.b ?? null } }]);
    return null;
  } catch (err) {
    if (err instanceof EngineStepError) return err;
    throw err;
  }
}

const big = 'x'.repeat(MAX_VALUE_SIZE / 2 + 1);

describe('functions that would build a value past the limit refuse the step, naming themselves', () => {
  it.each<[string, string, { s?: string; n?: number; b?: string }]>([
    ["REPEAT('x', 1000000000)", 'REPEAT', {}],
    ['REPEAT(s, n)', 'REPEAT', { n: 2_000_000_000 }],
    ["LPAD('x', 2000000000, 'ab')", 'LPAD', {}],
    ["RPAD(s, 2000000000, '-')", 'RPAD', {}],
    ['LPAD(s, CAST(n AS INTEGER))', 'LPAD', { n: MAX_VALUE_SIZE + 1 }],
    ['s || s', '||', { s: big }],
    ['CONCAT(s, s, s)', 'CONCAT', { s: big }],
    ["CONCAT_WS(',', s, s)", 'CONCAT_WS', { s: big }],
    ["REPLACE(s, 'x', 'xx')", 'REPLACE', { s: big }],
    ["REPLACE('ab', 'b', s)", 'REPLACE', { s: 'y'.repeat(MAX_VALUE_SIZE) }],
    ["REGEXP_REPLACE(s, 'x+', '$0$0')", 'REGEXP_REPLACE', { s: big }],
    ['OVERLAY(s PLACING s FROM 2)', 'OVERLAY', { s: big }],
    ["ARRAY_TO_STRING(ARRAY[s, s], '')", 'ARRAY_TO_STRING', { s: big }],
    ['ARRAY_REPEAT(1, 1000000000)', 'ARRAY_REPEAT', {}],
    ['SEQUENCE(1, 2000000000)', 'SEQUENCE', {}],
    ['ARRAY_CONCAT(ARRAY_REPEAT(1, 10000000), ARRAY_REPEAT(2, 10000000))', 'ARRAY_CONCAT', {}],
    ['ARRAY_REPEAT(1, 10000000) || ARRAY_REPEAT(2, 10000000)', '||', {}],
    [`ARRAY_APPEND(ARRAY_REPEAT(1, ${MAX_VALUE_SIZE}), 2)`, 'ARRAY_APPEND', {}],
    [`ARRAY_PREPEND(ARRAY_REPEAT(1, ${MAX_VALUE_SIZE}), 2)`, 'ARRAY_PREPEND', {}],
    ['UPPER(s)', 'UPPER', { s: 'ß'.repeat(MAX_VALUE_SIZE / 2 + 1) }],
    ['TO_HEX(b)', 'TO_HEX', { b: 'ab'.repeat(MAX_VALUE_SIZE / 2 + 1) }],
    ["CAST('x' AS CHAR(2000000000))", 'CAST', {}],
    ['GUNZIP(b)', 'GUNZIP', { b: gzipSync(Buffer.alloc(MAX_VALUE_SIZE + 1)).toString('hex') }],
  ])('%s', (expr, fn, row) => {
    // refused before building: a REPEAT of 10^9 built first would take the worker's heap, not finish in the test's timeout
    const err = refusal(expr, row);
    expect(err, 'the step was refused').not.toBeNull();
    expect(err!.message).toContain(`value too large: ${fn} would build`);
    expect(err!.message).toContain(`past the limit of ${MAX_VALUE_SIZE}`);
    expect(err!.message).toContain('in view V');
    expect(err!.expression).toBe(fn);
  });

  it('a refused step leaves the circuit as it was: the next good row goes through', () => {
    const c = circuitFor('REPEAT(s, CAST(n AS INTEGER))');
    expect(() => c.step([{ table: 't', op: 'insert', row: { s: 'ab', n: 1_000_000_000, b: null } }])).toThrow(EngineStepError);
    c.step([{ table: 't', op: 'insert', row: { s: 'ab', n: 3, b: null } }]);
    expect(c.contents('V').map((r) => r.row.R)).toEqual(['ababab']);
  });

  it('values up to the limit are built', () => {
    expect(refusal(`REPEAT('x', ${MAX_VALUE_SIZE})`)).toBeNull();
    expect(refusal(`LPAD('', ${MAX_VALUE_SIZE}, 'ab')`)).toBeNull();
    expect(refusal(`ARRAY_REPEAT(0, ${MAX_VALUE_SIZE})`)).toBeNull();
    expect(refusal(`CAST('x' AS CHAR(${MAX_VALUE_SIZE}))`)).toBeNull();
    expect(refusal('GUNZIP(b)', { b: gzipSync(Buffer.alloc(1000)).toString('hex') })).toBeNull();
  });

  it('ARRAY_AGG refuses an array past the limit (a row of weight past it), and builds one up to it', () => {
    const r = compile('CREATE TABLE t (v INT);\nCREATE VIEW a AS SELECT ARRAY_AGG(v) AS xs FROM t;');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    let err: unknown = null;
    try {
      c.step([{ table: 't', op: 'insert', row: { v: 1 }, weight: MAX_VALUE_SIZE + 1 }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineStepError);
    expect((err as Error).message).toContain('value too large: ARRAY_AGG would build');
    const fits = c.step([{ table: 't', op: 'insert', row: { v: 2 }, weight: 3 }]).changes.get('A');
    expect(fits?.at(-1)?.row.XS).toEqual([2, 2, 2]);
  });

  it('MAP_CONCAT refuses to gather more entries than the limit, before gathering them', () => {
    const args = Array.from({ length: 1000 }, () => 'm').join(', ');
    const r = compile(`CREATE TABLE t (m MAP<VARCHAR, INT>);\nCREATE VIEW c AS SELECT MAP_CONCAT(${args}) AS big FROM t;`);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const m: Record<string, number> = {};
    for (let i = 0; i < 17_000; i++) m[`k${i}`] = i; // 1000 x 17,000 entries: past 16 Mi
    let err: unknown = null;
    try {
      c.step([{ table: 't', op: 'insert', row: { m } }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineStepError);
    expect((err as Error).message).toContain('value too large: MAP_CONCAT would build 17000000 elements');
  });
});
