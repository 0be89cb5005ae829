/**
 * One waterline rule everywhere LATENESS reaches (Feldera's docs, tutorials/time-series.md): the waterline W of
 * a LATENESS column is the largest value seen minus the lateness, and every future row has a value >= W. So:
 * - a row below W is dropped, a row at W is taken (LATENESS drops);
 * - a value derived from the column is final once no row >= W can produce it: a TUMBLE or HOP window
 *   [start, end) once end <= W, a TIMESTAMP_TRUNC day once its end <= W, a SESSION once last + gap <= W;
 * - emit_final outputs a row exactly then (not a step later), and the aggregate, join and session state of
 *   what is final is released exactly then (not before: a row at W must still count).
 * Each case is checked at its boundary: W one millisecond short of it, then W on it.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Circuit, type CompiledProgram, type WeightedRow } from '../../src/engine/index.js';

function prog(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

/** A table e whose ts has a lateness of 1 hour. */
const E = "CREATE TABLE e (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, v INT);\n";
const insert = (c: Circuit, ts: string, v = 1) => c.step([{ table: 'e', op: 'insert', row: { ts, v } }]).changes;
const sorted = (rows: WeightedRow[] | undefined) => [...(rows ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('the waterline rule', () => {
  it("LATENESS drops: Feldera's docs' lateness example (50 minutes late is taken, 100 minutes late is dropped)", () => {
    const c = prog(`CREATE TABLE purchase (customer_id INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL 1 HOURS, amount BIGINT);
CREATE VIEW seen AS SELECT COUNT(*) AS n, SUM(amount) AS total FROM purchase;`).newCircuit();
    const buy = (ts: string, amount: number) => c.step([{ table: 'purchase', op: 'insert', row: { customer_id: 1, ts, amount } }]);
    buy('2020-01-01 00:00:00', 10);
    buy('2020-01-01 01:00:00', 20);
    buy('2020-01-01 00:10:00', 15); // late, within the bound
    buy('2020-01-01 02:00:00', 12);
    buy('2020-01-01 00:20:00', 65); // violates lateness: dropped
    expect(c.contents('seen')).toEqual([{ row: { N: 4, TOTAL: 57 }, weight: 1 }]);
  });

  it('LATENESS drops a row below the waterline and takes one at it', () => {
    const c = prog(E + 'CREATE VIEW seen AS SELECT ts FROM e;').newCircuit();
    insert(c, '2024-01-01 12:00:00'); // W = 11:00
    expect(insert(c, '2024-01-01 10:59:59.999').get('SEEN')).toBeUndefined();
    expect(insert(c, '2024-01-01 11:00:00').get('SEEN')).toEqual([{ row: { TS: '2024-01-01 11:00:00' }, weight: 1 }]);
  });

  it('emit_final on a LATENESS column itself: a value is final once it is below the waterline', () => {
    const c = prog(E + "CREATE VIEW f WITH ('emit_final' = 'ts') AS SELECT ts, COUNT(*) AS n FROM e GROUP BY ts;").newCircuit();
    insert(c, '2024-01-01 10:00:00');
    expect(insert(c, '2024-01-01 11:00:00').get('F')).toBeUndefined(); // W = 10:00: a row at 10:00 may still come
    expect(insert(c, '2024-01-01 10:00:00').get('F')).toBeUndefined(); // and does
    expect(insert(c, '2024-01-01 11:00:00.001').get('F')).toEqual([{ row: { TS: '2024-01-01 10:00:00', N: 2 }, weight: 1 }]); // W = 10:00:00.001
  });

  it('TUMBLE: a window closes when the waterline reaches its end, for window_start and window_end alike', () => {
    const c = prog(
      E +
        `CREATE VIEW by_start WITH ('emit_final' = 'window_start') AS SELECT window_start, SUM(v) AS s FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;
CREATE VIEW by_end WITH ('emit_final' = 'window_end') AS SELECT window_end, SUM(v) AS s FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_end;`,
    ).newCircuit();
    insert(c, '2024-01-01 10:30:00', 1);
    const short = insert(c, '2024-01-01 11:59:59.999', 2); // W = 10:59:59.999: a row at 10:59:59.999 may still come
    expect([short.get('BY_START'), short.get('BY_END')]).toEqual([undefined, undefined]);
    insert(c, '2024-01-01 10:59:59.999', 4);
    const on = insert(c, '2024-01-01 12:00:00', 8); // W = 11:00
    expect(on.get('BY_START')).toEqual([{ row: { WINDOW_START: '2024-01-01 10:00:00', S: 5 }, weight: 1 }]);
    expect(on.get('BY_END')).toEqual([{ row: { WINDOW_END: '2024-01-01 11:00:00', S: 5 }, weight: 1 }]);
  });

  it('HOP: each window closes when the waterline reaches its end', () => {
    const c = prog(
      E +
        "CREATE VIEW h WITH ('emit_final' = 'window_start') AS SELECT window_start, SUM(v) AS s FROM TABLE(HOP(TABLE e, DESCRIPTOR(ts), INTERVAL '30' MINUTE, INTERVAL '1' HOUR)) GROUP BY window_start;",
    ).newCircuit();
    insert(c, '2024-01-01 10:40:00', 1); // in the windows starting 10:00 and 10:30
    expect(insert(c, '2024-01-01 11:59:59.999', 2).get('H')).toBeUndefined(); // W = 10:59:59.999
    // W = 11:00: [10:00, 11:00) is final (and [09:30, 10:30) had nothing); [10:30, 11:30) is still open
    expect(insert(c, '2024-01-01 12:00:00', 4).get('H')).toEqual([{ row: { WINDOW_START: '2024-01-01 10:00:00', S: 1 }, weight: 1 }]);
    // W = 11:30: [10:30, 11:30) with the 10:40 row, and [11:00, 12:00) stays open
    expect(insert(c, '2024-01-01 12:30:00', 8).get('H')).toEqual([{ row: { WINDOW_START: '2024-01-01 10:30:00', S: 1 }, weight: 1 }]);
  });

  it('calendar units: a month, quarter or year is final when the waterline reaches the next one, whatever its length', () => {
    const unitView = (unit: string) =>
      `CREATE VIEW ${unit.toLowerCase()}s WITH ('emit_final' = 'p') AS SELECT TIMESTAMP_TRUNC(ts, ${unit}) AS p, COUNT(*) AS n FROM e GROUP BY TIMESTAMP_TRUNC(ts, ${unit});`;
    const c = prog(E + ['MONTH', 'QUARTER', 'YEAR'].map(unitView).join('\n')).newCircuit();
    const out = (ts: string) => {
      const ch = insert(c, ts);
      return ['MONTHS', 'QUARTERS', 'YEARS'].map((v) => (ch.get(v) ?? []).map((r) => r.row.P));
    };
    out('2023-02-10 00:00:00');
    expect(out('2023-03-01 00:59:59.999')).toEqual([[], [], []]); // W = 02-28 23:59:59.999
    expect(out('2023-03-01 01:00:00')).toEqual([['2023-02-01 00:00:00'], [], []]); // W = 03-01: February (28 days) is final
    expect(out('2023-04-01 01:00:00')).toEqual([['2023-03-01 00:00:00'], ['2023-01-01 00:00:00'], []]); // W = 04-01
    expect(out('2023-05-01 00:30:00')).toEqual([[], [], []]); // W = 04-30 23:30: April (30 days) still open
    expect(out('2023-05-01 01:00:00')).toEqual([['2023-04-01 00:00:00'], [], []]);
    expect(out('2024-01-01 00:59:59.999')).toEqual([['2023-05-01 00:00:00'], ['2023-04-01 00:00:00'], []]); // W = 12-31 23:59:59.999
    expect(out('2024-01-01 01:00:00')).toEqual([[], [], ['2023-01-01 00:00:00']]); // W = 2024-01-01: 2023 (365 days) is final
  });

  /** The program with and without LATENESS: the difference of their state sizes is what LATENESS released. */
  function pair(sql: string): { c: Circuit; control: Circuit; released: () => number } {
    const c = prog(sql).newCircuit();
    const control = prog(sql.replace(/LATENESS INTERVAL '[^']+' (HOUR|MINUTE)/g, '')).newCircuit();
    return { c, control, released: () => control.stateSize() - c.stateSize() };
  }

  it('aggregate state: a TIMESTAMP_TRUNC group is released when the waterline reaches the end of its day, not before', () => {
    const { c, control, released } = pair(E + 'CREATE VIEW d AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS day, SUM(v) AS s FROM e GROUP BY TIMESTAMP_TRUNC(ts, DAY);');
    const both = (ts: string, v = 1) => [insert(control, ts, v), insert(c, ts, v)][1]!;
    both('2024-01-01 10:00:00');
    both('2024-01-02 00:59:59.999'); // W = 2024-01-01 23:59:59.999: day 1 open
    expect(released()).toBe(0);
    // a row at the waterline still counts for day 1
    expect(sorted(both('2024-01-01 23:59:59.999', 10).get('D'))).toEqual([
      { row: { DAY: '2024-01-01 00:00:00', S: 1 }, weight: -1 },
      { row: { DAY: '2024-01-01 00:00:00', S: 11 }, weight: 1 },
    ]);
    expect(released()).toBe(0);
    both('2024-01-02 01:00:00'); // W = 2024-01-02 00:00: day 1 is closed, its group leaves the state
    expect(released()).toBe(1);
    expect(sorted(c.contents('d'))).toEqual(sorted(control.contents('d')));
  });

  it('join state: the rows of a window closed on both sides are released when both waterlines reach its end', () => {
    const { c, control, released } = pair(`CREATE TABLE a (ts TIMESTAMP NOT NULL LATENESS INTERVAL '10' MINUTE, u INT);
CREATE TABLE b (ts TIMESTAMP NOT NULL LATENESS INTERVAL '10' MINUTE, u INT);
CREATE LOCAL VIEW aw AS SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;
CREATE LOCAL VIEW bw AS SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE b, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;
CREATE VIEW j AS SELECT aw.window_start, aw.n AS na, bw.n AS nb FROM aw JOIN bw ON aw.window_start = bw.window_start;`);
    const at = (table: string, ts: string) => ({ table, op: 'insert' as const, row: { ts, u: 1 } });
    const both = (ts: string) => {
      for (const k of [c, control]) k.step([at('a', ts), at('b', ts)]);
    };
    for (const k of [c, control]) k.step([at('a', '2024-01-01 10:05:00'), at('b', '2024-01-01 10:20:00')]);
    both('2024-01-01 11:09:59.999'); // both waterlines at 10:59:59.999: the 10:00 window is open on both sides
    expect(released()).toBe(0);
    both('2024-01-01 11:10:00'); // both at 11:00: closed; its 2 aggregate groups and its 2 join rows leave
    expect(released()).toBe(4);
    expect(sorted(c.contents('j'))).toEqual(sorted(control.contents('j')));
  });

  it('session state: a session is released when the waterline reaches its last row plus the gap', () => {
    const { c, control, released } = pair(E + "CREATE VIEW s AS SELECT v, window_start, window_end FROM TABLE(SESSION(TABLE e, DESCRIPTOR(ts), INTERVAL '10' MINUTE));");
    const both = (ts: string, v: number) => [insert(control, ts, v), insert(c, ts, v)];
    both('2024-01-01 10:00:00', 1);
    both('2024-01-01 11:09:59.999', 2); // W = 10:09:59.999: a row then would still join the 10:00 session
    expect(released()).toBe(0);
    both('2024-01-01 11:10:00', 3); // W = 10:10: the session [10:00, 10:10) is final, its row leaves
    expect(released()).toBe(1);
    expect(sorted(c.contents('s'))).toEqual(sorted(control.contents('s')));
  });
});
