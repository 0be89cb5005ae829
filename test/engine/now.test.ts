/**
 * NOW() (bind/now.ts): the value of the circuit's injected clock for the step, a TIMESTAMP NOT NULL. Views
 * that read it change by exactly the difference when the clock moves (temporal filters, projections,
 * aggregates, subqueries); a program without NOW() never reads the clock. The clock here is a variable the
 * test sets: nothing depends on wall time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, EngineStepError, type CompiledProgram, type WeightedRow } from '../../src/engine/index.js';
import { explain } from '../../src/engine/plan/explain.js';
import { bindProgram } from '../../src/engine/bind/program.js';

const ms = (ts: string): number => Date.parse(ts.replace(' ', 'T') + 'Z');
const TABLE = 'CREATE TABLE events (id INT NOT NULL, ts TIMESTAMP NOT NULL);\n';

function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function errorOf(sql: string): string {
  const r = compile(sql);
  if (r.ok) throw new Error('compiled');
  return r.errors[0]!.message;
}

/** A circuit over `sql` whose clock is `clock.now` (ms), and a helper to insert events. */
function clocked(sql: string, start: string) {
  const p = program(TABLE + sql);
  const clock = { now: ms(start), reads: 0 };
  const c = p.newCircuit({
    clock: () => {
      clock.reads++;
      return clock.now;
    },
  });
  const insert = (...rows: Array<[number, string]>) => c.step(rows.map(([id, ts]) => ({ table: 'events', op: 'insert' as const, row: { id, ts } })));
  const tick = (to: string) => {
    clock.now = ms(to);
    return c.step([]);
  };
  return { p, c, clock, insert, tick };
}

const byRow = (rows: WeightedRow[] | undefined) => [...(rows ?? [])].sort((a, b) => a.weight - b.weight || JSON.stringify(a.row).localeCompare(JSON.stringify(b.row)));

describe('NOW()', () => {
  it('a temporal filter: advancing the clock moves rows out of (and into) the window, with exact deltas', () => {
    const { c, insert, tick } = clocked(`CREATE VIEW last_hour AS SELECT id FROM events WHERE ts >= NOW() - INTERVAL 1 HOUR AND ts <= NOW();`, '2024-01-01 12:00:00');
    const first = insert([1, '2024-01-01 11:10:00'], [2, '2024-01-01 11:40:00'], [3, '2024-01-01 10:00:00'], [4, '2024-01-01 12:20:00']);
    expect(byRow(first.changes.get('LAST_HOUR'))).toEqual([
      { row: { ID: 1 }, weight: 1 },
      { row: { ID: 2 }, weight: 1 },
    ]);
    // 12:15: event 1 (11:10) leaves the window; nothing enters (event 4 is still in the future)
    expect(tick('2024-01-01 12:15:00').changes.get('LAST_HOUR')).toEqual([{ row: { ID: 1 }, weight: -1 }]);
    // 12:30: event 4 (12:20) enters
    expect(tick('2024-01-01 12:30:00').changes.get('LAST_HOUR')).toEqual([{ row: { ID: 4 }, weight: 1 }]);
    // 12:45: event 2 (11:40) leaves
    expect(tick('2024-01-01 12:45:00').changes.get('LAST_HOUR')).toEqual([{ row: { ID: 2 }, weight: -1 }]);
    // the same time again: nothing changes
    expect(tick('2024-01-01 12:45:00').changes.size).toBe(0);
    expect(c.contents('last_hour')).toEqual([{ row: { ID: 4 }, weight: 1 }]);
    // a row arriving now is filtered with the current clock
    expect(insert([5, '2024-01-01 11:50:00'], [6, '2024-01-01 11:30:00']).changes.get('LAST_HOUR')).toEqual([{ row: { ID: 5 }, weight: 1 }]);
  });

  it('NOW() in a projection: TIMESTAMP NOT NULL, every row re-emitted with the new value', () => {
    const { p, insert, tick } = clocked(`CREATE VIEW aged AS SELECT id, NOW() AS at, TIMESTAMPDIFF(MINUTE, ts, NOW()) AS age FROM events;`, '2024-01-01 12:00:00');
    expect(p.views[0]!.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ['ID', 'INTEGER', false],
      ['AT', 'TIMESTAMP', false],
      ['AGE', 'INTEGER', false],
    ]);
    expect(insert([1, '2024-01-01 11:30:00']).changes.get('AGED')).toEqual([{ row: { ID: 1, AT: '2024-01-01 12:00:00', AGE: 30 }, weight: 1 }]);
    expect(tick('2024-01-01 12:10:00').changes.get('AGED')).toEqual([
      { row: { ID: 1, AT: '2024-01-01 12:00:00', AGE: 30 }, weight: -1 },
      { row: { ID: 1, AT: '2024-01-01 12:10:00', AGE: 40 }, weight: 1 },
    ]);
  });

  it('SELECT NOW() alone: empty before the first step, then one row that follows the clock', () => {
    const p = program('CREATE VIEW now_v AS SELECT NOW() AS n, CAST(NOW() AS DATE) AS d;');
    let now = ms('2024-03-01 23:59:59');
    const c = p.newCircuit({ clock: () => now });
    expect(c.contents('now_v')).toEqual([]);
    expect(c.step([]).changes.get('NOW_V')).toEqual([{ row: { N: '2024-03-01 23:59:59', D: '2024-03-01' }, weight: 1 }]);
    now += 1000;
    expect(c.step([]).changes.get('NOW_V')).toEqual([
      { row: { N: '2024-03-01 23:59:59', D: '2024-03-01' }, weight: -1 },
      { row: { N: '2024-03-02 00:00:00', D: '2024-03-02' }, weight: 1 },
    ]);
    // without a clock, NOW() has no value: its view stays empty
    const bare = p.newCircuit();
    bare.step([]);
    expect(bare.contents('now_v')).toEqual([]);
  });

  it('in aggregates: FILTER and CASE arguments, HAVING, and NOW() over the groups', () => {
    const { insert, tick, c } = clocked(
      `CREATE VIEW counts AS SELECT COUNT(*) FILTER (WHERE ts >= NOW() - INTERVAL 1 HOUR) AS recent, COUNT(CASE WHEN ts < NOW() - INTERVAL 1 HOUR THEN 1 END) AS old FROM events;
CREATE VIEW per_id AS SELECT id, COUNT(*) AS n, NOW() AS at FROM events GROUP BY id HAVING MAX(ts) >= NOW() - INTERVAL 1 HOUR;`,
      '2024-01-01 12:00:00',
    );
    insert([1, '2024-01-01 11:30:00'], [1, '2024-01-01 10:00:00'], [2, '2024-01-01 11:50:00']);
    expect(c.contents('counts')).toEqual([{ row: { RECENT: 2, OLD: 1 }, weight: 1 }]);
    expect(byRow(c.contents('per_id'))).toEqual([
      { row: { ID: 1, N: 2, AT: '2024-01-01 12:00:00' }, weight: 1 },
      { row: { ID: 2, N: 1, AT: '2024-01-01 12:00:00' }, weight: 1 },
    ]);
    const step = tick('2024-01-01 12:40:00');
    expect(step.changes.get('COUNTS')).toEqual([
      { row: { RECENT: 2, OLD: 1 }, weight: -1 },
      { row: { RECENT: 1, OLD: 2 }, weight: 1 },
    ]);
    // id 1's newest event (11:30) is now more than an hour old: the group leaves; id 2 moves to the new time
    expect(byRow(step.changes.get('PER_ID'))).toEqual([
      { row: { ID: 1, N: 2, AT: '2024-01-01 12:00:00' }, weight: -1 },
      { row: { ID: 2, N: 1, AT: '2024-01-01 12:00:00' }, weight: -1 },
      { row: { ID: 2, N: 1, AT: '2024-01-01 12:40:00' }, weight: 1 },
    ]);
  });

  it('in subqueries, CTEs and views over views', () => {
    const { insert, tick, c } = clocked(
      `CREATE LOCAL VIEW fresh AS SELECT * FROM events WHERE ts >= NOW() - INTERVAL 1 HOUR;
CREATE VIEW fresh_count AS SELECT COUNT(*) AS n FROM fresh;
CREATE VIEW with_fresh AS SELECT DISTINCT a.id FROM events a WHERE EXISTS (SELECT 1 FROM events b WHERE b.id = a.id AND b.ts >= NOW() - INTERVAL 1 HOUR);
CREATE VIEW cte AS WITH old AS (SELECT id FROM events WHERE ts < NOW() - INTERVAL 1 HOUR) SELECT COUNT(*) AS n FROM old;`,
      '2024-01-01 12:00:00',
    );
    insert([1, '2024-01-01 11:30:00'], [2, '2024-01-01 11:50:00'], [2, '2024-01-01 10:00:00']);
    expect(c.contents('fresh_count')).toEqual([{ row: { N: 2 }, weight: 1 }]);
    expect(byRow(c.contents('with_fresh'))).toEqual([
      { row: { ID: 1 }, weight: 1 },
      { row: { ID: 2 }, weight: 1 },
    ]);
    expect(c.contents('cte')).toEqual([{ row: { N: 1 }, weight: 1 }]);
    const step = tick('2024-01-01 12:40:00');
    expect(step.changes.get('FRESH_COUNT')).toEqual([
      { row: { N: 2 }, weight: -1 },
      { row: { N: 1 }, weight: 1 },
    ]);
    expect(step.changes.get('WITH_FRESH')).toEqual([{ row: { ID: 1 }, weight: -1 }]);
    expect(step.changes.get('CTE')).toEqual([
      { row: { N: 1 }, weight: -1 },
      { row: { N: 2 }, weight: 1 },
    ]);
  });

  it('a program without NOW() has no clock: usesNow is false and the clock is never read', () => {
    const { p, clock, insert } = clocked(`CREATE VIEW ids AS SELECT id FROM events WHERE ts >= TIMESTAMP '2024-01-01 00:00:00';`, '2024-01-01 12:00:00');
    expect(p.usesNow).toBe(false);
    insert([1, '2024-01-01 11:30:00']);
    expect(clock.reads).toBe(0);
    const withNow = clocked(`CREATE VIEW ids AS SELECT id FROM events WHERE ts >= NOW();`, '2024-01-01 12:00:00');
    expect(withNow.p.usesNow).toBe(true);
    withNow.insert([1, '2024-01-01 11:30:00']);
    withNow.c.check([{ table: 'events', op: 'insert', row: { id: 2, ts: '2024-01-01 11:00:00' } }]);
    expect(withNow.clock.reads).toBe(1); // once per step, not by check()
  });

  it('a refused step leaves the clock where it was; a bad clock value is refused before anything is applied', () => {
    const { c, clock, tick } = clocked(
      `CREATE TABLE nums (x INT NOT NULL);
CREATE VIEW at AS SELECT NOW() AS n;
CREATE VIEW doubled AS SELECT x * 2 AS y FROM nums;`,
      '2024-01-01 12:00:00',
    );
    tick('2024-01-01 12:00:00');
    clock.now = ms('2024-01-01 13:00:00');
    expect(() => c.step([{ table: 'nums', op: 'insert', row: { x: 2_000_000_000 } }])).toThrow(EngineStepError);
    expect(c.contents('at')).toEqual([{ row: { N: '2024-01-01 12:00:00' }, weight: 1 }]);
    // the next good step moves it by exactly one retraction and one insertion
    expect(c.step([]).changes.get('AT')).toEqual([
      { row: { N: '2024-01-01 12:00:00' }, weight: -1 },
      { row: { N: '2024-01-01 13:00:00' }, weight: 1 },
    ]);
    clock.now = 1.5;
    expect(() => c.step([{ table: 'nums', op: 'insert', row: { x: 1 } }])).toThrow(/not a whole number of milliseconds/);
    expect(c.contents('nums')).toEqual([]);
    expect(c.contents('at')).toEqual([{ row: { N: '2024-01-01 13:00:00' }, weight: 1 }]);
  });

  it('is refused where it has no clock, and CURRENT_TIMESTAMP / CURRENT_DATE are not Feldera functions', () => {
    expect(errorOf('CREATE TABLE t (insert_time TIMESTAMP DEFAULT NOW());')).toBe("Default value for column 'insert_time' must be a compile-time constant");
    expect(errorOf("CREATE TABLE t (ts TIMESTAMP LATENESS NOW() - TIMESTAMP '2020-01-01 00:00:00');")).toBe('NOW() cannot be used in LATENESS: LATENESS must be a constant');
    expect(errorOf(TABLE + 'CREATE VIEW v AS SELECT a.id FROM events a JOIN events b ON a.id = b.id AND a.ts < NOW();')).toBe('NOW() cannot be used in ON: move the condition to WHERE');
    expect(errorOf(TABLE + 'CREATE VIEW v AS SELECT NOW(1) FROM events;')).toBe('NOW() takes no arguments');
    expect(errorOf(TABLE + 'CREATE VIEW v AS SELECT CURRENT_TIMESTAMP AS t FROM events;')).toBe('CURRENT_TIMESTAMP is not supported (as in Feldera): use NOW()');
    expect(errorOf(TABLE + 'CREATE VIEW v AS SELECT CURRENT_DATE AS d FROM events;')).toBe('CURRENT_DATE is not supported (as in Feldera): use CAST(NOW() AS DATE)');
    // the join written with the condition in WHERE compiles
    expect(program(TABLE + 'CREATE VIEW v AS SELECT a.id FROM events a JOIN events b ON a.id = b.id WHERE a.ts < NOW();').usesNow).toBe(true);
  });
});

describe('temporal filters (ops/temporal-filter.ts)', () => {
  // each condition twice: as a temporal filter, and OR-ed with FALSE, which the planner does not recognize
  // (the generic join with the clock): the two must agree on every step's changes
  const CONDITIONS = [
    `ts >= NOW() - INTERVAL '10' MINUTE`,
    `ts >= NOW() - INTERVAL '10' MINUTE AND ts < NOW() + INTERVAL '5' MINUTE`,
    `NOW() - INTERVAL '3' MINUTE > ts`,
    `ts BETWEEN NOW() - INTERVAL '7' MINUTE AND NOW()`,
    `ts = TIMESTAMP_TRUNC(NOW(), MINUTE)`,
    `CAST(ts AS DATE) >= CAST(NOW() AS DATE) - INTERVAL '1' DAY`,
    `ts > NOW() - INTERVAL '4' MINUTE AND id > 3`,
  ];

  it('plans a temporal filter node for them (and the generic join for the OR-ed form)', () => {
    const { program } = bindProgram(
      `CREATE TABLE events (id INT NOT NULL, ts TIMESTAMP);\nCREATE VIEW a AS SELECT id FROM events WHERE ${CONDITIONS[1]};\nCREATE VIEW b AS SELECT id FROM events WHERE (${CONDITIONS[1]}) OR FALSE;`,
      'upper',
    );
    expect(explain(program!.views[0]!.node)).toMatch(/temporal 2 bounds over NOW\(\)/);
    expect(explain(program!.views[1]!.node)).not.toMatch(/temporal/);
    expect(explain(program!.views[1]!.node)).toMatch(/join CROSS/);
  });

  it('agree with the generic join over random inserts, deletes and clock moves', () => {
    const sql =
      'CREATE TABLE events (id INT NOT NULL, ts TIMESTAMP);\n' +
      CONDITIONS.map((c, i) => `CREATE VIEW t${i} AS SELECT id, ts FROM events WHERE ${c};\nCREATE VIEW g${i} AS SELECT id, ts FROM events WHERE (${c}) OR FALSE;`).join('\n');
    const p = program(sql);
    const base = ms('2024-01-01 12:00:00');
    const op = fc.oneof(
      fc.record({ k: fc.constant('row' as const), del: fc.boolean(), id: fc.integer({ min: 0, max: 8 }), min: fc.option(fc.integer({ min: -20, max: 20 }), { freq: 8 }) }),
      fc.record({ k: fc.constant('clock' as const), by: fc.integer({ min: -2, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let now = base;
        const c = p.newCircuit({ clock: () => now });
        const sum = (acc: Map<string, number>, rows: WeightedRow[] | undefined) => {
          for (const r of rows ?? []) {
            const k = JSON.stringify(r.row);
            const w = (acc.get(k) ?? 0) + r.weight;
            if (w === 0) acc.delete(k);
            else acc.set(k, w);
          }
        };
        const seen = CONDITIONS.map(() => ({ t: new Map<string, number>(), g: new Map<string, number>() }));
        for (const o of ops) {
          let changes;
          if (o.k === 'clock') {
            now += o.by * 60_000; // the clock may also go back: the operator is exact either way
            changes = c.step([]).changes;
          } else {
            const ts = o.min === null ? null : new Date(base + o.min * 60_000).toISOString().replace('T', ' ').slice(0, 19);
            changes = c.step([{ table: 'events', op: o.del ? 'delete' : 'insert', row: { id: o.id, ts } }]).changes;
          }
          CONDITIONS.forEach((_, i) => {
            const t = changes.get(`T${i}`);
            const g = changes.get(`G${i}`);
            expect(byRow(t)).toEqual(byRow(g));
            sum(seen[i]!.t, t);
            sum(seen[i]!.g, g);
          });
        }
        CONDITIONS.forEach((_, i) => {
          expect(byRow(c.contents(`t${i}`))).toEqual(byRow(c.contents(`g${i}`)));
          expect(seen[i]!.t).toEqual(seen[i]!.g);
        });
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});

describe('temporal filters guarding aggregates (bind/now-aggregates.ts)', () => {
  const W = `ts >= NOW() - INTERVAL '10' MINUTE`;
  const V = `ts BETWEEN NOW() - INTERVAL '3' MINUTE AND NOW()`;
  // each view twice: with its temporal FILTERs, and with them OR-ed with FALSE (the generic join with the clock)
  const VIEWS = [
    (w: string, _v: string) => `SELECT g, COUNT(*) FILTER (WHERE ${w}) AS c, SUM(x) FILTER (WHERE ${w}) AS s, COUNT(*) AS n FROM events GROUP BY g`,
    (w: string, v: string) => `SELECT COUNT(*) FILTER (WHERE ${w}) AS c, AVG(x) FILTER (WHERE ${v} AND x > 2) AS a, MIN(x) FILTER (WHERE ${v}) AS lo, MAX(ts) AS hi FROM events`,
    (w: string, v: string) => `SELECT g, MAX(x) FILTER (WHERE ${v}) AS m, COUNT(x) FILTER (WHERE ${w}) AS c FROM events GROUP BY g HAVING COUNT(*) > 1`,
    (w: string, v: string) => `SELECT g, COUNT(CASE WHEN ${w} THEN 1 END) AS c, SUM(CASE WHEN ${v} THEN x END) FILTER (WHERE x < 4) AS s FROM events GROUP BY g`,
  ];
  const SQL =
    'CREATE TABLE events (id INT NOT NULL, g INT, x INT, ts TIMESTAMP);\n' +
    VIEWS.map((v, i) => `CREATE VIEW t${i} AS ${v(W, V)};\nCREATE VIEW g${i} AS ${v(`((${W}) OR FALSE)`, `((${V}) OR FALSE)`)};`).join('\n');

  it('plans temporal filters under the aggregates, no join with the clock', () => {
    const { program } = bindProgram(SQL, 'upper');
    for (let i = 0; i < VIEWS.length; i++) {
      const plan = explain(program!.views[2 * i]!.node);
      expect(plan).toMatch(/temporal/);
      expect(plan).not.toMatch(/join CROSS/);
      expect(explain(program!.views[2 * i + 1]!.node)).toMatch(/join CROSS/);
    }
  });

  it('agree with the generic join over random inserts, deletes and clock moves (NULL groups, empty groups)', () => {
    const p = program(SQL);
    const base = ms('2024-01-01 12:00:00');
    const op = fc.oneof(
      fc.record({
        k: fc.constant('row' as const),
        del: fc.boolean(),
        id: fc.integer({ min: 0, max: 6 }),
        g: fc.option(fc.integer({ min: 0, max: 2 }), { freq: 5 }),
        x: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 5 }),
        min: fc.option(fc.integer({ min: -15, max: 5 }), { freq: 8 }),
      }),
      fc.record({ k: fc.constant('clock' as const), by: fc.integer({ min: -1, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let now = base;
        const c = p.newCircuit({ clock: () => now });
        const held = new Map<string, number>(); // a delete takes out a row that is there (a keyless table's multiset)
        for (const o of ops) {
          let changes;
          if (o.k === 'clock') {
            now += o.by * 60_000;
            changes = c.step([]).changes;
          } else {
            const ts = o.min === null ? null : new Date(base + o.min * 60_000).toISOString().replace('T', ' ').slice(0, 19);
            const row = { id: o.id, g: o.g, x: o.x, ts };
            const k = JSON.stringify(row);
            if (o.del && !held.get(k)) continue;
            held.set(k, (held.get(k) ?? 0) + (o.del ? -1 : 1));
            changes = c.step([{ table: 'events', op: o.del ? 'delete' : 'insert', row }]).changes;
          }
          VIEWS.forEach((_, i) => expect(byRow(changes.get(`T${i}`))).toEqual(byRow(changes.get(`G${i}`))));
        }
        VIEWS.forEach((_, i) => expect(byRow(c.contents(`t${i}`))).toEqual(byRow(c.contents(`g${i}`))));
      }),
      { numRuns: 120, seed: 11 },
    );
  });
});
