/**
 * The `hash` format (egress/result-hash.ts): Feldera's own expected digest for its test table (python/tests/platform
 * test_shared_pipeline.py `test_adhoc_query_hash`: `tbl(id INT)` holding 1 and 2) reproduced exactly; independent of
 * row order; sensitive to multiplicity, to every value and NULL, and to the schema.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { WeightedRow } from '../../../../src/engine/index.js';
import { AHashState, combineHashes, resultHash } from '../../../../src/services/pipelines/worker/egress/result-hash.js';
import { col, EVERY_TYPE, FULL_ROW, NULL_ROW } from './every-type.js';

const rows = (...r: Record<string, unknown>[]): WeightedRow[] => r.map((row) => ({ row: row as WeightedRow['row'], weight: 1 }));

describe('resultHash', () => {
  it("is Feldera's digest for its own test (tbl(id INT) holding 1 and 2), in upper-case hex", () => {
    const id = [col('id', 'INTEGER')];
    expect(resultHash(rows({ id: 1 }, { id: 2 }), id)).toBe('CCACBC763D343FB9855F285385B5A8A04FB5DAC4926DA3802F071B0C05BDF852');
    expect(resultHash(rows({ id: 2 }, { id: 1 }), id)).toBe('CCACBC763D343FB9855F285385B5A8A04FB5DAC4926DA3802F071B0C05BDF852');
  });

  it('does not depend on row order, for any rows of any type', () => {
    const other = { ...FULL_ROW, i: 8, vc: 'other', arr: [], m: {}, mi: { '10': 'a', '-3': null } };
    const a = resultHash(rows(FULL_ROW, NULL_ROW, other), EVERY_TYPE);
    expect(resultHash(rows(other, FULL_ROW, NULL_ROW), EVERY_TYPE)).toBe(a);
    expect(resultHash(rows(NULL_ROW, other, FULL_ROW), EVERY_TYPE)).toBe(a);
    expect(a).toMatch(/^[0-9A-F]{64}$/);
    const cols = [col('x', 'BIGINT'), col('s', 'VARCHAR')];
    fc.assert(
      fc.property(fc.array(fc.record({ x: fc.oneof(fc.constant(null), fc.integer()), s: fc.oneof(fc.constant(null), fc.string()) }), { maxLength: 20 }), (rs) => {
        expect(resultHash(rows(...[...rs].reverse()), cols)).toBe(resultHash(rows(...rs), cols));
      }),
      { numRuns: 50 },
    );
  });

  it('counts multiplicity: weight 2 is two equal rows, not one', () => {
    const x = [col('x', 'INTEGER')];
    const two = resultHash([{ row: { x: 5 }, weight: 2 }], x);
    expect(resultHash(rows({ x: 5 }, { x: 5 }), x)).toBe(two);
    expect(resultHash(rows({ x: 5 }), x)).not.toBe(two);
    expect(resultHash([], x)).not.toBe(resultHash(rows({ x: null }), x));
  });

  it('changes with any value of any type, a NULL, or the schema', () => {
    const base = resultHash(rows(FULL_ROW), EVERY_TYPE);
    const changes: Record<string, unknown> = {
      bo: false,
      ti: 1,
      si: 1,
      i: 1,
      bi: 1,
      r: 2.5,
      d: 0.5,
      dec: '1.00',
      big: '1',
      vc: 'x',
      ch: 'abc',
      bin: [1],
      dt: '2024-03-01',
      tm: '00:00:00',
      ts: '2024-01-02 03:04:05',
      arr: [1, 3],
      m: { a: 2 },
      mi: { '2': 'y' },
      row: { a: 1, b: 'z' },
      v: 1,
    };
    for (const [k, v] of Object.entries(changes)) expect(resultHash(rows({ ...FULL_ROW, [k]: v }), EVERY_TYPE), k).not.toBe(base);
    for (const c of EVERY_TYPE.filter((c) => c.nullable && c.type !== 'NULL')) expect(resultHash(rows({ ...FULL_ROW, [c.name]: null }), EVERY_TYPE), c.name).not.toBe(base);
    expect(resultHash(rows({ id: 1 }), [col('id', 'INTEGER')])).not.toBe(resultHash(rows({ ID: 1 }), [col('ID', 'INTEGER')]));
    expect(resultHash(rows({ id: 1 }), [col('id', 'INTEGER')])).not.toBe(resultHash(rows({ id: 1 }), [col('id', 'BIGINT')]));
    expect(resultHash(rows({ id: 1 }), [col('id', 'INTEGER')])).not.toBe(resultHash(rows({ id: 1 }), [col('id', 'INTEGER', false)]));
  });

  it("ahash's parts: a fixed state hashes a value the same each time, combine_hashes is DataFusion's", () => {
    const s = new AHashState(1n, 2n, 3n, 4n);
    const h = (x: bigint) => {
      const a = s.hasher();
      a.writeUint(x);
      return a.finish();
    };
    expect(h(7n)).toBe(h(7n));
    expect(h(7n)).not.toBe(h(8n));
    expect(combineHashes(0n, 0n)).toBe(17n * 37n * 37n);
    expect(combineHashes(2n ** 64n - 1n, 5n)).toBe((((17n * 37n + 2n ** 64n - 1n) % 2n ** 64n) * 37n + 5n) % 2n ** 64n);
  });
});
