/**
 * Bounded state (plan/retention.ts): a table with LATENESS that is not materialized and whose rows only feed
 * stateless operators and aggregates that release their groups by its waterline forgets the rows behind the
 * waterline. Its views are exactly those of the same program with the table materialized (which keeps every
 * row), step after step, across refused steps and checkpoints; the state it holds stops growing with the
 * input (counted rows, not timing); tables that do not qualify keep every row; a forgetful table's snapshot is
 * refused (RelationSchema.materialized false).
 */
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type Circuit, type CircuitStatePart, type CompiledProgram, type InputChange } from '../../src/engine/index.js';

const VIEWS = `
CREATE VIEW per_window AS SELECT window_start, COUNT(*) AS n, SUM(price) AS total FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(ts), INTERVAL '10' SECONDS)) GROUP BY window_start;
CREATE VIEW hourly AS SELECT TIMESTAMP_TRUNC(ts, HOUR) AS h, MAX(price) AS top FROM bid GROUP BY TIMESTAMP_TRUNC(ts, HOUR);
CREATE VIEW hopping AS SELECT window_end, COUNT(*) AS n FROM TABLE(HOP(TABLE bid, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '20' SECONDS)) GROUP BY window_end;
CREATE VIEW expensive AS SELECT auction, price FROM bid WHERE price > 900;
CREATE VIEW auctions_per_window AS SELECT DISTINCT window_start, auction FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(ts), INTERVAL '10' SECONDS));`;

const table = (materialized: boolean): string =>
  `CREATE TABLE bid (auction BIGINT, price INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '4' SECONDS)${materialized ? " WITH ('materialized' = 'true')" : ''};`;

function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

const BOUNDED = program(table(false) + VIEWS);
const REFERENCE = program(table(true) + VIEWS);
/** The windows of seconds alone (the view that keeps every expensive bid grows with the input, as promised; an hourly one keeps an hour of rows). */
const WINDOWS = VIEWS.split('\n')
  .filter((l) => !l.includes('expensive') && !l.includes('hourly') && !l.includes('DISTINCT'))
  .join('\n');
/** DISTINCT over a window releases its rows too (its view's own contents grow by the auctions of each window). */
const DISTINCT = VIEWS.split('\n')
  .filter((l) => l.includes('DISTINCT'))
  .join('\n');
const T0 = Date.UTC(2024, 0, 1);
const ts = (ms: number): string => new Date(T0 + ms).toISOString().slice(0, 23).replace('T', ' ');

function changes(c: Circuit, step: InputChange[]): Record<string, string[]> | string {
  try {
    const out: Record<string, string[]> = {};
    for (const [k, v] of c.step(step).changes) if (k !== 'BID') out[k] = v.map((r) => JSON.stringify(r)).sort();
    return out;
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

const views = (c: Circuit): Record<string, string[]> =>
  Object.fromEntries(
    ['per_window', 'hourly', 'hopping', 'expensive'].map((v) => [
      v,
      c
        .contents(v)
        .map((r) => JSON.stringify(r))
        .sort(),
    ]),
  );

function roundTrip(c: Circuit): CircuitStatePart[] {
  const parts: Buffer[] = [];
  c.exportState((p) => parts.push(serialize(p)));
  return parts.map((b) => deserialize(b) as CircuitStatePart);
}

/**
 * A stream of bids in time order with jitter (some late), now and then a delete of a bid inserted before,
 * prices that may overflow SUM.
 */
function bids(n: number, seed: number, hugeEvery = 0): InputChange[][] {
  let x = seed;
  const rnd = (): number => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const steps: InputChange[][] = [];
  let clock = 0;
  const inserted: Array<Record<string, string | number>> = [];
  for (let i = 0; i < n;) {
    const step: InputChange[] = [];
    const size = 1 + Math.floor(rnd() * 40);
    for (let j = 0; j < size && i < n; j++, i++) {
      clock += Math.floor(rnd() * 300);
      if (rnd() < 0.05 && inserted.length) {
        const row = inserted.splice(inserted.length - 1 - Math.floor(rnd() * Math.min(inserted.length, 50)), 1)[0]!;
        step.push({ table: 'bid', op: 'delete', row });
        continue;
      }
      const at = clock - Math.floor(rnd() * 6000); // up to 6 s back: some rows are late
      const price = hugeEvery && i % hugeEvery === hugeEvery - 1 ? 2_000_000_000 : Math.floor(rnd() * 1000);
      const row = { auction: i % 13, price, ts: ts(at) };
      inserted.push(row);
      step.push({ table: 'bid', op: 'insert', row });
    }
    steps.push(step);
  }
  return steps;
}

describe('bounded state', () => {
  it('forgets the rows behind the waterline: views equal the materialized program, state stops growing with the input', () => {
    const bounded = program(table(false) + WINDOWS).newCircuit();
    const reference = program(table(true) + WINDOWS).newCircuit();
    const steps = bids(40_000, 7);
    const sizes: number[] = [];
    steps.forEach((s, i) => {
      expect(changes(bounded, s)).toEqual(changes(reference, s));
      if (i === Math.floor(steps.length / 4) || i === steps.length - 1) sizes.push(bounded.stateSize());
    });
    for (const v of ['per_window', 'hopping']) expect(bounded.contents(v)).toEqual(reference.contents(v));
    // the reference holds every row (and more); the bounded circuit's state is what is still open, plus the
    // views' own rows, which grow by a row per window: far below the input, and not 4x for 4x the input
    expect(reference.stateSize()).toBeGreaterThan(30_000);
    expect(sizes[1]!).toBeLessThan(sizes[0]! * 2.5);
    expect(sizes[1]!).toBeLessThan(reference.stateSize() / 4);
  });

  it('DISTINCT over a window forgets what is behind the waterline, in its operator and in the table', () => {
    const bounded = program(table(false) + DISTINCT);
    const reference = program(table(true) + DISTINCT);
    expect(bounded.relation('bid')!.materialized).toBe(false);
    const b = bounded.newCircuit();
    const r = reference.newCircuit();
    for (const s of bids(20_000, 11)) expect(changes(b, s)).toEqual(changes(r, s));
    expect(b.contents('auctions_per_window')).toEqual(r.contents('auctions_per_window'));
    // the view holds a row per (window, auction); beyond it, the bounded circuit holds only the open windows' state
    const viewRows = b.contents('auctions_per_window').length;
    expect(r.stateSize() - viewRows).toBeGreaterThan(15_000);
    expect(b.stateSize() - viewRows).toBeLessThan((r.stateSize() - viewRows) / 5);
  });

  it("gives the materialized program's changes on random streams, across refused steps and checkpoints", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 500, max: 3000 }), fc.nat(), (seed, n, cut) => {
        let bounded = BOUNDED.newCircuit();
        const reference = REFERENCE.newCircuit();
        const steps = bids(n, seed, 97);
        const at = cut % steps.length;
        steps.forEach((s, i) => {
          if (i === at) bounded = BOUNDED.restoreCircuit(roundTrip(bounded));
          const got = changes(bounded, s);
          const want = changes(reference, s);
          if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`step ${i} (restored at ${at}) of ${steps.length}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        });
        expect(views(bounded)).toEqual(views(reference));
      }),
      { numRuns: 25 },
    );
  });

  it('keeps every row of a table a join, a global aggregate or DISTINCT reads, of a keyed or materialized table, and of one without LATENESS', () => {
    const keeps = [
      table(false) + 'CREATE TABLE a (id BIGINT, name VARCHAR);\nCREATE VIEW j AS SELECT a.name, bid.price FROM bid JOIN a ON bid.auction = a.id;',
      table(false) + 'CREATE VIEW g AS SELECT COUNT(*) AS n FROM bid;',
      table(false) + 'CREATE VIEW d AS SELECT DISTINCT auction FROM bid;',
      table(true) + VIEWS,
      'CREATE TABLE bid (auction BIGINT, price INT, ts TIMESTAMP NOT NULL);\nCREATE VIEW e AS SELECT * FROM bid WHERE price > 1;',
      'CREATE TABLE bid (auction BIGINT NOT NULL PRIMARY KEY, price INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL 4 SECONDS);\nCREATE VIEW e AS SELECT * FROM bid WHERE price > 1;',
    ];
    for (const sql of keeps) {
      const p = program(sql);
      expect(p.relation('bid')!.materialized, sql).toBe(true);
      const c = p.newCircuit();
      const steps = bids(6000, 3);
      for (const s of steps) c.step(s.map((ch) => ({ ...ch, op: ch.op === 'delete' && sql.includes('PRIMARY KEY') ? 'upsert' : ch.op }) as InputChange));
      const rows = c.contents('bid').reduce((n, r) => n + r.weight, 0);
      // (the keyed table holds one row per auction: 13)
      expect(rows, sql).toBeGreaterThan(sql.includes('PRIMARY KEY') ? 12 : 4000);
    }
    expect(BOUNDED.relation('bid')!.materialized).toBe(false);
  });

  it('a join of two windowed aggregates on their windows (Nexmark q8) forgets both tables behind their waterlines', () => {
    const q8 = (materialized: boolean): string => {
      const m = materialized ? " WITH ('materialized' = 'true')" : '';
      return `CREATE TABLE person (id BIGINT, name VARCHAR, ts TIMESTAMP NOT NULL LATENESS INTERVAL '4' SECONDS)${m};
CREATE TABLE auction (seller BIGINT, ts TIMESTAMP NOT NULL LATENESS INTERVAL '4' SECONDS)${m};
CREATE VIEW q8 AS SELECT p.id, p.name, p.starttime FROM
  (SELECT id, name, TUMBLE_START(ts, INTERVAL '10' SECOND) AS starttime FROM person GROUP BY id, name, TUMBLE(ts, INTERVAL '10' SECOND)) AS p
  JOIN (SELECT seller, TUMBLE_START(ts, INTERVAL '10' SECOND) AS starttime FROM auction GROUP BY seller, TUMBLE(ts, INTERVAL '10' SECOND)) AS a
  ON p.id = a.seller AND p.starttime = a.starttime;`;
    };
    const bounded = program(q8(false));
    const reference = program(q8(true));
    expect(bounded.relation('person')!.materialized).toBe(false);
    expect(bounded.relation('auction')!.materialized).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 30 }), fc.nat(), (seed, cutAt) => {
        let x = seed;
        const rnd = (): number => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
        const steps: InputChange[][] = [];
        // two clocks: the auctions' falls behind the persons' for a while and catches up, so that the auction
        // side's waterline holds the join's old windows open after the person side's has closed them
        let personClock = 0;
        let auctionClock = 0;
        for (let i = 0; i < 3000; i++) {
          const step: InputChange[] = [];
          for (let j = 0; j < 10; j++) {
            const id = Math.floor(rnd() * 20);
            if (rnd() < 0.5) {
              personClock += Math.floor(rnd() * 200);
              step.push({ table: 'person', op: 'insert', row: { id, name: `p${id}`, ts: ts(personClock - Math.floor(rnd() * 6000)) } });
            } else {
              const lagging = i % 300 < 150;
              auctionClock = Math.min(personClock, auctionClock + (lagging ? Math.floor(rnd() * 40) : Math.floor(rnd() * 600)));
              step.push({ table: 'auction', op: 'insert', row: { seller: id, ts: ts(auctionClock - Math.floor(rnd() * 6000)) } });
            }
          }
          steps.push(step);
        }
        let b = bounded.newCircuit();
        const r = reference.newCircuit();
        const cut = cutAt % steps.length;
        steps.forEach((s, i) => {
          if (i === cut) b = bounded.restoreCircuit(roundTrip(b));
          const got = changes(b, s);
          const want = changes(r, s);
          if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`step ${i} (restored at ${cut}): ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        });
        expect(b.contents('q8')).toEqual(r.contents('q8'));
        const held = (c: Circuit): number => c.contents('person').length + c.contents('auction').length;
        expect(held(b)).toBeLessThan(held(r) / 2);
      }),
      { numRuns: 4 },
    );
  });
});
