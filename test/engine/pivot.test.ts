/**
 * PIVOT (bind/pivot.ts): cases written from Feldera's docs/sql/aggregates.md "Pivots" and Calcite's column
 * naming, NULL cases, refusals, and incremental maintenance under inserts and deletes vs a fresh evaluation.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile, type CompiledProgram, type InputChange, type JsonRow, type WeightedRow } from '../../src/engine/index.js';

const TABLES = `
CREATE TABLE furniture (kind VARCHAR, yr INTEGER, cnt INTEGER);
CREATE TABLE person (id INT, name VARCHAR, age INT, class INT, address VARCHAR);
`;

function prog(view: string, outputCase: 'upper' | 'lower' = 'lower'): CompiledProgram {
  const r = compile(`${TABLES} CREATE VIEW v AS ${view};`, { outputCase });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

function rowsOf(list: WeightedRow[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of list) {
    if (weight < 0) out.push(`NEGATIVE ${weight} ${JSON.stringify(row)}`);
    for (let i = 0; i < weight; i++) out.push(JSON.stringify(row));
  }
  return out.sort();
}

const FURNITURE: JsonRow[] = [
  { kind: 'chair', yr: 2020, cnt: 4 },
  { kind: 'table', yr: 2021, cnt: 3 },
  { kind: 'chair', yr: 2021, cnt: 4 },
  { kind: 'desk', yr: 2023, cnt: 1 },
  { kind: 'table', yr: 2023, cnt: 2 },
  { kind: 'table', yr: 2023, cnt: 5 },
  { kind: null, yr: 2024, cnt: 7 },
];
const PERSON: JsonRow[] = [
  { id: 100, name: 'John', age: 30, class: 1, address: 'Street 1' },
  { id: 200, name: 'Mary', age: null, class: 1, address: 'Street 2' },
  { id: 300, name: 'Mike', age: 80, class: 3, address: 'Street 3' },
  { id: 400, name: 'Dan', age: 50, class: 4, address: 'Street 4' },
];

function run(p: CompiledProgram): string[] {
  const c = p.newCircuit();
  c.step([...FURNITURE.map((row) => ({ table: 'furniture', op: 'insert' as const, row })), ...PERSON.map((row) => ({ table: 'person', op: 'insert' as const, row }))]);
  return rowsOf(c.contents('v'));
}
const j = (o: Record<string, unknown>): string => JSON.stringify(o);

describe('PIVOT', () => {
  it('turns the groups of the FOR column into columns; the other columns group; a value matching nothing is NULL', () => {
    const p = prog("SELECT * FROM furniture PIVOT (SUM(cnt) FOR kind IN ('desk' AS desks, 'table' AS tables, 'chair' AS chairs))");
    expect(p.relation('v')!.columns.map((c) => c.name)).toEqual(['yr', 'desks', 'tables', 'chairs']);
    expect(run(p)).toEqual(
      [
        { yr: 2020, desks: null, tables: null, chairs: 4 },
        { yr: 2021, desks: null, tables: 3, chairs: 4 },
        { yr: 2023, desks: 1, tables: 7, chairs: null },
        { yr: 2024, desks: null, tables: null, chairs: null },
      ]
        .map(j)
        .sort(),
    );
  });

  it('names columns value_alias when the aggregate has an alias, and by the literal without AS (Calcite)', () => {
    const p = prog("SELECT * FROM furniture PIVOT (SUM(cnt) AS ct, COUNT(*) AS n FOR kind IN ('desk' AS desks, 'table'))");
    expect(p.relation('v')!.columns.map((c) => c.name)).toEqual(['yr', 'desks_ct', 'desks_n', "'table'_ct", "'table'_n"]);
    expect(run(p)).toContain(j({ yr: 2023, desks_ct: 1, desks_n: 1, "'table'_ct": 7, "'table'_n": 2 }));
    expect(run(p)).toContain(j({ yr: 2020, desks_ct: null, desks_n: 0, "'table'_ct": null, "'table'_n": 0 }));
    const upper = prog('SELECT * FROM furniture PIVOT (COUNT(*) AS c FOR yr IN (2020, 2023 AS late))', 'upper');
    expect(upper.relation('v')!.columns.map((c) => c.name)).toEqual(['KIND', 'CNT', '2020_C', 'LATE_C']);
  });

  it('several aggregates and several FOR columns (the Spark example)', () => {
    const p = prog("SELECT * FROM person PIVOT (SUM(age) AS a, AVG(class) AS cc FOR (name, age) IN (('John', 30) AS c1, ('Mike', 40) AS c2))");
    expect(p.relation('v')!.columns.map((c) => c.name)).toEqual(['id', 'address', 'c1_a', 'c1_cc', 'c2_a', 'c2_cc']);
    expect(run(p)).toEqual(
      [
        { id: 100, address: 'Street 1', c1_a: 30, c1_cc: 1, c2_a: null, c2_cc: null },
        { id: 200, address: 'Street 2', c1_a: null, c1_cc: null, c2_a: null, c2_cc: null },
        { id: 300, address: 'Street 3', c1_a: null, c1_cc: null, c2_a: null, c2_cc: null },
        { id: 400, address: 'Street 4', c1_a: null, c1_cc: null, c2_a: null, c2_cc: null },
      ]
        .map(j)
        .sort(),
    );
  });

  it('over a derived table, with an alias, an aggregate FILTER kept, and selected by name', () => {
    const p = prog("SELECT p.yr, p.big FROM (SELECT kind, yr, cnt FROM furniture WHERE yr > 2020) PIVOT (MAX(cnt) FILTER (WHERE cnt > 2) FOR kind IN ('table' AS big)) AS p");
    expect(run(p)).toEqual(
      [
        { yr: 2021, big: 3 },
        { yr: 2023, big: 5 },
        { yr: 2024, big: null },
      ]
        .map(j)
        .sort(),
    );
  });

  it.each([
    ['a non-aggregate', 'SELECT * FROM furniture PIVOT (UPPER(kind) FOR yr IN (2020))', /PIVOT needs aggregate function calls/],
    ['a value of the wrong width', "SELECT * FROM furniture PIVOT (SUM(cnt) FOR (kind, yr) IN ('desk'))", /PIVOT value has 1 value for 2 FOR columns/],
    ['an expression value without AS', 'SELECT * FROM furniture PIVOT (SUM(cnt) FOR yr IN (2000 + 20))', /needs AS name/],
    ['an unknown FOR column', "SELECT * FROM furniture PIVOT (SUM(cnt) FOR nope IN ('desk'))", /nope/],
  ])('refuses %s with a clear error', (_what, view, message) => {
    const r = compile(`${TABLES} CREATE VIEW v AS ${view};`);
    expect(r.ok ? '' : r.errors.map((e) => e.message).join('; ')).toMatch(message);
  });

  it('is maintained incrementally: inserts and deletes give what a fresh evaluation gives', () => {
    const p = prog("SELECT * FROM furniture PIVOT (SUM(cnt) AS s, COUNT(*) AS n FOR kind IN ('desk' AS d, 'table' AS t))");
    const row = fc.record({
      kind: fc.option(fc.constantFrom('desk', 'table', 'bed'), { freq: 5 }),
      yr: fc.option(fc.integer({ min: 2020, max: 2022 }), { freq: 5 }),
      cnt: fc.option(fc.integer({ min: -3, max: 9 }), { freq: 5 }),
    });
    const op = fc.oneof(
      row.map((r) => ({ row: r as JsonRow })),
      fc.record({ del: fc.nat(30) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (steps) => {
        const c = p.newCircuit();
        const live: JsonRow[] = [];
        for (const s of steps) {
          const batch: InputChange[] = [];
          for (const o of s) {
            if ('row' in o) {
              live.push(o.row);
              batch.push({ table: 'furniture', op: 'insert', row: o.row });
            } else if (live.length) batch.push({ table: 'furniture', op: 'delete', row: live.splice(o.del % live.length, 1)[0]! });
          }
          c.step(batch);
        }
        const fresh = p.newCircuit();
        fresh.step(live.map((r) => ({ table: 'furniture', op: 'insert' as const, row: r })));
        expect(rowsOf(c.contents('v'))).toEqual(rowsOf(fresh.contents('v')));
      }),
      { numRuns: 80 },
    );
  });
});
