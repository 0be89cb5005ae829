/**
 * Join order as a property (bind/join-order.ts): a four-table chain with filters, written in any table order
 * with each condition in any ON that can see its tables or in WHERE, gives the rows of a nested-loop evaluation
 * of the same conditions (NULL keys never meet), columns in written order (`SELECT *`), after inserts and deletes. (Outer joins in chains are checked against Postgres: corpus-joins.ts.)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile } from '../../src/engine/index.js';

type Row = { k: number | null; v: number | null };
interface Cond {
  sql: string;
  tables: number[];
  holds: (rows: Row[]) => boolean;
}

const eq = (a: number | null, b: number | null): boolean => a !== null && b !== null && a === b;
const CONDS: Cond[] = [
  { sql: 'r0.v = r1.k', tables: [0, 1], holds: (r) => eq(r[0]!.v, r[1]!.k) },
  { sql: 'r1.v = r2.k', tables: [1, 2], holds: (r) => eq(r[1]!.v, r[2]!.k) },
  { sql: 'r2.v = r3.k', tables: [2, 3], holds: (r) => eq(r[2]!.v, r[3]!.k) },
  { sql: 'r0.k < r3.v', tables: [0, 3], holds: (r) => r[0]!.k !== null && r[3]!.v !== null && r[0]!.k < r[3]!.v },
  { sql: 'r1.k > 0', tables: [1], holds: (r) => r[1]!.k !== null && r[1]!.k > 0 },
  { sql: 'r3.v IS NOT NULL', tables: [3], holds: (r) => r[3]!.v !== null },
];

/** SQL of the chain: tables in `order`, condition i in the ON of join `place[i]` (>= 1) or in WHERE (0). */
function chainSql(order: number[], place: number[]): string {
  const at = (t: number): number => order.indexOf(t);
  const on: string[][] = order.map(() => []);
  const where: string[] = [];
  CONDS.forEach((c, i) => {
    const earliest = Math.max(1, ...c.tables.map(at));
    if (place[i]! === 0) where.push(c.sql);
    else on[Math.max(earliest, Math.min(place[i]!, order.length - 1))]!.push(c.sql);
  });
  let from = `r${order[0]}`;
  for (let j = 1; j < order.length; j++) from += on[j]!.length ? ` JOIN r${order[j]} ON ${on[j]!.join(' AND ')}` : ` CROSS JOIN r${order[j]}`;
  return `SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
}

const val = fc.option(fc.integer({ min: 0, max: 2 }), { freq: 8 });
const rowArb = fc.record({ k: val, v: val });
const stepArb = fc.array(fc.record({ table: fc.integer({ min: 0, max: 3 }), del: fc.integer({ min: 0, max: 3 }).map((x) => x === 0), row: rowArb, pick: fc.nat(20) }), { minLength: 4, maxLength: 16 });

describe('join order property', () => {
  it('any written order and placement of the conditions gives the nested-loop rows', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: CONDS.length, maxLength: CONDS.length }),
        fc.array(stepArb, { minLength: 2, maxLength: 4 }),
        (order, place, steps) => {
          const sql = chainSql(order, place);
          const r = compile(`${[0, 1, 2, 3].map((i) => `CREATE TABLE r${i} (k INT, v INT);`).join('\n')}\nCREATE VIEW v AS ${sql};`);
          if (!r.ok) throw new Error(`${sql}: ${JSON.stringify(r.errors)}`);
          const c = r.program.newCircuit();
          const model: Row[][] = [[], [], [], []];
          for (const step of steps) {
            const changes = [];
            for (const op of step) {
              const rows = model[op.table]!;
              if (op.del && rows.length) {
                const [row] = rows.splice(op.pick % rows.length, 1);
                changes.push({ table: `r${op.table}`, op: 'delete' as const, row: row! as never });
              } else {
                rows.push(op.row);
                changes.push({ table: `r${op.table}`, op: 'insert' as const, row: op.row as never });
              }
            }
            c.step(changes);
            const want: string[] = [];
            for (const a of model[0]!)
              for (const b of model[1]!)
                for (const d of model[2]!)
                  for (const e of model[3]!) {
                    const rows = [a, b, d, e];
                    // SELECT *: the tables' columns in written order
                    if (CONDS.every((x) => x.holds(rows))) want.push(JSON.stringify(order.flatMap((t) => [rows[t]!.k, rows[t]!.v])));
                  }
            const got = c.contents('v').flatMap(({ row, weight }) => Array.from({ length: weight }, () => JSON.stringify(['K', 'V', 'K0', 'V0', 'K1', 'V1', 'K2', 'V2'].map((n) => row[n]))));
            expect(got.sort(), sql).toEqual(want.sort());
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
