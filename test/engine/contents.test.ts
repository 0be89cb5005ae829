/** Relation contents kept as a compacting log, step deltas consolidated by sign, step changes formatted on read. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';
import { consolidateStep, RelationContents } from '../../src/engine/contents.js';
import { consolidate, type Delta } from '../../src/engine/ops/zset.js';
import { rowKey, type Row } from '../../src/engine/types/values.js';
import { formatDecimal, parseDecimal } from '../../src/engine/types/decimal.js';

/** Multiset of a delta: row key -> summed weight, zeros dropped. */
function bag(d: Delta): Map<string, number> {
  const m = new Map<string, number>();
  for (const [row, w] of d) m.set(rowKey(row), (m.get(rowKey(row)) ?? 0) + w);
  for (const [k, w] of m) if (w === 0) m.delete(k);
  return m;
}

const entry = fc.tuple(
  fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom('a', 'b', null)).map(([n, s]) => [n, s] as Row),
  fc.integer({ min: -3, max: 3 }).filter((w) => w !== 0),
);

describe('RelationContents', () => {
  it('holds the sum of everything appended, each distinct row once (random steps)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(entry, { maxLength: 300 }), { maxLength: 40 }), (steps) => {
        const c = new RelationContents();
        const all: Delta = [];
        for (const d of steps) {
          c.append(d);
          all.push(...d);
        }
        const rows = c.rows();
        expect(new Set(rows.map(([r]) => rowKey(r))).size).toBe(rows.length);
        expect(rows.every(([, w]) => w !== 0)).toBe(true);
        expect(bag(rows)).toEqual(bag(all));
        // reading twice, and reading after more appends, stays right
        expect(bag(c.rows())).toEqual(bag(all));
      }),
      { numRuns: 200 },
    );
  });

  it('reads distinct rows back in the order they came, steps big and small mixed, weights other than 1 coming late', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600 }), { maxLength: 12 }), fc.integer({ min: 0, max: 12 }), (sizes, weighted) => {
        const c = new RelationContents();
        const expected: Array<[Row, number]> = [];
        let next = 0;
        sizes.forEach((n, step) => {
          const d: Delta = Array.from({ length: n }, (_, j) => [[next + j, 'r'], step >= weighted && j % 3 === 0 ? 2 : 1] as [Row, number]);
          next += n;
          c.append(d);
          expected.push(...d);
        });
        expect(c.size).toBe(next);
        expect(c.rows()).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps what was appended whatever the caller does with its delta afterwards, rows of one width or not', () => {
    const row = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom('x', null, 2.5)).map(([n, v]) => [n, v] as Row),
      fc.integer({ min: 0, max: 9 }).map((n) => [n] as Row),
    );
    const step = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 256, max: 700 })).chain((n) => fc.array(fc.tuple(row, fc.constantFrom(1, 1, 2, -1)), { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const c = new RelationContents();
        const all: Delta = [];
        for (const d of steps) {
          all.push(...d.map(([r, w]) => [r, w] as [Row, number]));
          c.append(d);
          for (const e of d as Delta) e[1] = 7; // the step's delta is the caller's: it may reuse it
        }
        const held: Delta = [];
        c.forEachEntry((r, w) => held.push([r, w]));
        expect(bag(held)).toEqual(bag(all));
        expect(bag(c.rows())).toEqual(bag(all));
      }),
      { numRuns: 60 },
    );
  });

  it('never hashes an insert-only relation, and stays small when rows come and go', () => {
    // the same 100 rows inserted 50 times: kept as appended (no compaction) until read
    const inserts = new RelationContents();
    for (let i = 0; i < 50; i++) inserts.append(Array.from({ length: 100 }, (_, j) => [[j], 1] as [Row, number]));
    expect(inserts.size).toBe(5000);
    const read = inserts.rows();
    expect(read).toHaveLength(100);
    expect(read.every(([, w]) => w === 50)).toBe(true);
    expect(inserts.size).toBe(100);
    // churn: the same 10 rows inserted and deleted 10,000 times; the log is compacted along the way
    const churn = new RelationContents();
    let largest = 0;
    for (let i = 0; i < 10_000; i++) {
      churn.append([[[i % 10], 1]]);
      churn.append([[[i % 10], -1]]);
      largest = Math.max(largest, churn.size);
    }
    expect(largest).toBeLessThan(2100);
    expect(churn.rows()).toEqual([]);
  });
});

describe('consolidateStep', () => {
  it('cancels what a step both inserts and deletes; a one-signed delta passes as it is', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), (d) => {
        const out = consolidateStep(d);
        expect(bag(out)).toEqual(bag(d));
        expect(out.every(([, w]) => w !== 0)).toBe(true);
        const pos = new Set(out.filter(([, w]) => w > 0).map(([r]) => rowKey(r)));
        expect(out.some(([r, w]) => w < 0 && pos.has(rowKey(r)))).toBe(false);
        if (d.every(([, w]) => w > 0) || d.every(([, w]) => w < 0)) expect(out).toBe(d);
        else expect(bag(out)).toEqual(bag(consolidate(d)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('step changes', () => {
  const r = compile(`CREATE TABLE t (id INT NOT NULL, qty INT, price DECIMAL(8, 2));
CREATE VIEW v AS SELECT id, price FROM t WHERE qty > 5;`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));

  it('are formatted when read, once, and read the same through every Map method', () => {
    const c = r.program.newCircuit();
    const { changes } = c.step([
      { table: 't', op: 'insert', row: { id: 1, qty: 9, price: '1.50' } },
      { table: 't', op: 'insert', row: { id: 2, qty: 1, price: '2' } },
    ]);
    expect(changes.size).toBe(2);
    expect([...changes.keys()].sort()).toEqual(['T', 'V']);
    expect(changes.has('V')).toBe(true);
    expect(changes.has('W')).toBe(false);
    const v = changes.get('V');
    expect(v).toEqual([{ row: { ID: 1, PRICE: '1.50' }, weight: 1 }]);
    expect(changes.get('V')).toBe(v);
    expect(new Map(changes).get('V')).toBe(v);
    const seen: string[] = [];
    changes.forEach((rows, name) => seen.push(`${name}:${rows.length}`));
    expect(seen.sort()).toEqual(['T:2', 'V:1']);
    expect([...changes.values()].map((x) => x.length).sort()).toEqual([1, 2]);
  });

  it('an update of a column the view leaves out changes nothing in the view', () => {
    const c = r.program.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { id: 1, qty: 9, price: '1.50' } }]);
    const { changes } = c.step([
      { table: 't', op: 'delete', row: { id: 1, qty: 9, price: '1.50' } },
      { table: 't', op: 'insert', row: { id: 1, qty: 7, price: '1.50' } },
    ]);
    expect(changes.has('V')).toBe(false);
    expect(changes.get('T')).toEqual([
      { row: { ID: 1, QTY: 9, PRICE: '1.50' }, weight: -1 },
      { row: { ID: 1, QTY: 7, PRICE: '1.50' }, weight: 1 },
    ]);
    expect(c.contents('v')).toEqual([{ row: { ID: 1, PRICE: '1.50' }, weight: 1 }]);
  });
});

describe('DECIMAL text', () => {
  /** The plain BigInt formatting the fast path must agree with. */
  function reference(v: bigint, scale: number): string {
    const neg = v < 0n;
    let s = (neg ? -v : v).toString();
    if (scale > 0) {
      s = s.padStart(scale + 1, '0');
      s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
    }
    return neg ? '-' + s : s;
  }

  it('formats like BigInt arithmetic, on both sides of the fast path, and reads back', () => {
    const big = fc.oneof(
      fc.bigInt({ min: -(2n ** 51n), max: 2n ** 51n }),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
      fc.constantFrom(0n, 1n, -1n, 2n ** 50n, -(2n ** 50n), 2n ** 50n + 1n, 10n ** 15n - 1n),
    );
    fc.assert(
      fc.property(big, fc.integer({ min: 0, max: 20 }), (v, scale) => {
        const text = formatDecimal(v, scale);
        expect(text).toBe(reference(v, scale));
        expect(parseDecimal(text, scale)).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });
});
