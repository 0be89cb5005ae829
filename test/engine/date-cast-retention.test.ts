/**
 * A GROUP BY on `CAST(ts AS DATE)` of a LATENESS column (Nexmark q15-q17) releases its days behind the waterline
 * (bind/query.ts date-cast lineage, counted in days: plan/waterline.ts scale), as Feldera's monotonicity
 * analysis does through casts: the same changes as the program with the table materialized, across a
 * checkpoint, while the state held (counted rows) stops growing with the days; a day is released only once the
 * waterline has passed its end (a row one millisecond before midnight still counts).
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compile, type Circuit, type CircuitStatePart, type CompiledProgram, type InputChange } from '../../src/engine/index.js';

const SQL = (materialized: boolean): string => `
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, ts TIMESTAMP NOT NULL LATENESS INTERVAL 4 HOURS)${materialized ? " WITH ('materialized' = 'true')" : ''};
CREATE VIEW per_day AS SELECT CAST(ts AS DATE) AS d, COUNT(*) AS n, COUNT(DISTINCT bidder) AS bidders, MAX(price) AS top FROM bid GROUP BY CAST(ts AS DATE);
CREATE VIEW per_auction_day AS SELECT auction, CAST(ts AS DATE) AS d, COUNT(*) AS n, MIN(price) AS low FROM bid GROUP BY auction, CAST(ts AS DATE);`;

function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function roundTrip(c: Circuit): CircuitStatePart[] {
  const parts: Buffer[] = [];
  c.exportState((p) => parts.push(serialize(p)));
  return parts.map((b) => deserialize(b) as CircuitStatePart);
}

const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
const ts = (ms: number): string => new Date(T0 + ms).toISOString().slice(0, 23).replace('T', ' ');

function changes(c: Circuit, step: InputChange[]): string {
  const out: Record<string, string[]> = {};
  for (const [k, v] of c.step(step).changes) if (k !== 'BID') out[k] = v.map((r) => JSON.stringify(r)).sort();
  return JSON.stringify(out);
}

describe('GROUP BY CAST(ts AS DATE) with LATENESS', () => {
  it('releases days behind the waterline: the materialized program changes, state that stops growing with the days', () => {
    const bounded = program(SQL(false));
    const reference = program(SQL(true));
    expect(bounded.relation('bid')!.materialized).toBe(false);
    let x = 11;
    const rnd = (): number => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let b = bounded.newCircuit();
    const r = reference.newCircuit();
    const held: number[] = [];
    let clock = 0;
    for (let i = 0; i < 1200; i++) {
      const step: InputChange[] = [];
      for (let j = 0; j < 10; j++) {
        clock += Math.floor(rnd() * 6 * 60_000); // 30 days over the run
        step.push({
          table: 'bid',
          op: 'insert',
          row: { auction: Math.floor(rnd() * 20), bidder: Math.floor(rnd() * 50), price: Math.floor(rnd() * 1000), ts: ts(clock - Math.floor(rnd() * 5 * HOUR)) },
        });
      }
      if (i === 700) b = bounded.restoreCircuit(roundTrip(b));
      expect(changes(b, step)).toBe(changes(r, step));
      if ((i + 1) % 300 === 0) held.push(b.stateSize() - b.contents('per_day').length - b.contents('per_auction_day').length);
    }
    expect(b.contents('per_day')).toEqual(r.contents('per_day'));
    // 12,000 bids over about 30 days: the bounded program holds about the last day's (the table forgets once it
    // holds twice what it kept, from 4,096 rows), the materialized one all of them
    expect(Math.max(...held)).toBeLessThan(9000);
    expect(held[held.length - 1]).toBeLessThan(held[0]! * 2);
    expect(r.stateSize() - r.contents('per_day').length - r.contents('per_auction_day').length).toBeGreaterThan(10_000);
  }, 90_000);

  it('keeps a day open until the waterline passes its end', () => {
    const c = program(SQL(false)).newCircuit();
    const day = 24 * HOUR;
    c.step([{ table: 'bid', op: 'insert', row: { auction: 1, bidder: 1, price: 5, ts: ts(day - 1) } }]);
    // the waterline is now 2 ms before the day's end: a row at it still counts, in the day's group
    c.step([{ table: 'bid', op: 'insert', row: { auction: 1, bidder: 2, price: 7, ts: ts(day + 4 * HOUR - 2) } }]);
    const late = c.step([{ table: 'bid', op: 'insert', row: { auction: 1, bidder: 3, price: 9, ts: ts(day - 2) } }]).changes.get('PER_DAY');
    expect(late).toEqual([
      { row: { D: '2024-01-01', N: 1, BIDDERS: 1, TOP: 5 }, weight: -1 },
      { row: { D: '2024-01-01', N: 2, BIDDERS: 2, TOP: 9 }, weight: 1 },
    ]);
  });
});
