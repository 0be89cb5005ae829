/**
 * The row of an aggregate without GROUP BY over no rows ({COUNT: 0, SUM: null}) is part of the contents from
 * the start; the first insert retracts it and deleting the last row brings it back, so a snapshot plus the
 * changes that follow always add up to the view.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Circuit, type WeightedRow } from '../../src/engine/index.js';

function circuit(sql: string): Circuit {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program.newCircuit();
}

/** Snapshot + every step's changes, as row -> weight. */
function follow(c: Circuit, view: string): { apply: (changes: WeightedRow[] | undefined) => void; rows: () => Record<string, number> } {
  const acc = new Map<string, number>();
  const add = (rows: WeightedRow[] | undefined): void => {
    for (const { row, weight } of rows ?? []) {
      const k = JSON.stringify(row);
      const w = (acc.get(k) ?? 0) + weight;
      if (w === 0) acc.delete(k);
      else acc.set(k, w);
    }
  };
  add(c.contents(view));
  return { apply: add, rows: () => Object.fromEntries(acc) };
}

describe('empty aggregate row', () => {
  it('is retracted by the first insert and restored by deleting the last row', () => {
    const c = circuit('CREATE TABLE t (x INT); CREATE VIEW v AS SELECT COUNT(*) AS n, SUM(x) AS s FROM t;');
    expect(c.contents('v')).toEqual([{ row: { N: 0, S: null }, weight: 1 }]);
    const w = follow(c, 'v');
    const r1 = c.step([{ table: 't', op: 'insert', row: { x: 5 } }]);
    expect(r1.changes.get('V')).toEqual([
      { row: { N: 0, S: null }, weight: -1 },
      { row: { N: 1, S: 5 }, weight: 1 },
    ]);
    w.apply(r1.changes.get('V'));
    expect(w.rows()).toEqual({ [JSON.stringify({ N: 1, S: 5 })]: 1 });
    const r2 = c.step([{ table: 't', op: 'delete', row: { x: 5 } }]);
    expect(r2.changes.get('V')).toEqual([
      { row: { N: 1, S: 5 }, weight: -1 },
      { row: { N: 0, S: null }, weight: 1 },
    ]);
    w.apply(r2.changes.get('V'));
    expect(w.rows()).toEqual({ [JSON.stringify({ N: 0, S: null })]: 1 });
    // re-insert: the same retraction again
    const r3 = c.step([
      { table: 't', op: 'insert', row: { x: 2 } },
      { table: 't', op: 'insert', row: { x: 3 } },
    ]);
    expect(r3.changes.get('V')).toEqual([
      { row: { N: 0, S: null }, weight: -1 },
      { row: { N: 2, S: 5 }, weight: 1 },
    ]);
    w.apply(r3.changes.get('V'));
    expect(w.rows()).toEqual(Object.fromEntries(c.contents('v').map((r) => [JSON.stringify(r.row), r.weight])));
  });

  it('a constant view is contents from the start and never changes', () => {
    const c = circuit("CREATE TABLE t (x INT); CREATE VIEW k AS SELECT 1 AS one, 'a' AS s;");
    expect(c.contents('k')).toEqual([{ row: { ONE: 1, S: 'a' }, weight: 1 }]);
    expect(c.step([{ table: 't', op: 'insert', row: { x: 1 } }]).changes.has('K')).toBe(false);
  });
});
