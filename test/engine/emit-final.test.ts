/**
 * `WITH ('emit_final' = 'col')` (Feldera): the view outputs a row only once it is final, i.e. once the
 * watermark of col (from a LATENESS column, through TUMBLE or TIMESTAMP_TRUNC) has passed its value, and
 * then never changes it; intermediate changes of open groups are not output.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';

const TABLE = "CREATE TABLE e (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, v INT);\n";

describe('emit_final', () => {
  it('outputs a day only once the watermark passes it, with its final aggregate', () => {
    const r = compile(TABLE + "CREATE VIEW d WITH ('emit_final' = 'day') AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS day, SUM(v) AS s, COUNT(*) AS n FROM e GROUP BY TIMESTAMP_TRUNC(ts, DAY);");
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const ins = (ts: string, v: number) => c.step([{ table: 'e', op: 'insert', row: { ts, v } }]).changes.get('D');
    expect(ins('2024-01-01 10:00:00', 1)).toBeUndefined();
    expect(ins('2024-01-01 20:00:00', 2)).toBeUndefined();
    expect(ins('2024-01-02 00:30:00', 4)).toBeUndefined(); // watermark 2024-01-01 23:30: day 1 still open
    expect(ins('2024-01-01 23:45:00', 8)).toBeUndefined(); // in time for day 1
    expect(c.contents('d')).toEqual([]);
    // watermark 2024-01-02 01:00: day 1 is final and goes out once, with everything it got
    expect(ins('2024-01-02 02:00:00', 16)).toEqual([{ row: { DAY: '2024-01-01 00:00:00', S: 11, N: 3 }, weight: 1 }]);
    expect(ins('2024-01-01 23:59:00', 100)).toBeUndefined(); // late: dropped
    expect(c.contents('d')).toEqual([{ row: { DAY: '2024-01-01 00:00:00', S: 11, N: 3 }, weight: 1 }]);
    // day 2 follows when the watermark passes 2024-01-03 00:00
    expect(ins('2024-01-03 01:30:00', 32)).toEqual([{ row: { DAY: '2024-01-02 00:00:00', S: 20, N: 2 }, weight: 1 }]);
  });

  it("Feldera's docs' table (tutorials/time-series.md, emit_final): the final day comes out with the fourth input", () => {
    const r = compile(
      `CREATE TABLE purchase (customer_id INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL 1 HOURS, amount BIGINT);
CREATE VIEW daily_total AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS d, SUM(amount) AS total FROM purchase GROUP BY TIMESTAMP_TRUNC(ts, DAY);
CREATE VIEW daily_total_final WITH ('emit_final' = 'd') AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS d, SUM(amount) AS total FROM purchase GROUP BY TIMESTAMP_TRUNC(ts, DAY);`,
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const day = (d: string, total: number, weight: number) => ({ row: { d: `${d} 00:00:00`, total }, weight });
    // the docs' rows: INSERT INTO purchase VALUES(1, ts, 10), and the output without and with emit_final after each
    const table: Array<[string, unknown[], unknown[]]> = [
      ['2020-01-01 01:00:00', [day('2020-01-01', 10, 1)], []],
      ['2020-01-01 02:00:00', [day('2020-01-01', 10, -1), day('2020-01-01', 20, 1)], []],
      ['2020-01-02 00:00:00', [day('2020-01-02', 10, 1)], []],
      // the waterline reaches 2020-01-02 00:00: the day before it is final
      ['2020-01-02 01:00:00', [day('2020-01-02', 10, -1), day('2020-01-02', 20, 1)], [day('2020-01-01', 20, 1)]],
    ];
    for (const [ts, without, withFinal] of table) {
      const out = c.step([{ table: 'purchase', op: 'insert', row: { customer_id: 1, ts, amount: 10 } }]).changes;
      expect([ts, out.get('daily_total') ?? []]).toEqual([ts, without]);
      expect([ts, out.get('daily_total_final') ?? []]).toEqual([ts, withFinal]);
    }
  });

  it('a day is final exactly when the waterline reaches its end: not a millisecond before', () => {
    const r = compile(TABLE + "CREATE VIEW d WITH ('emit_final' = 'day') AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS day, COUNT(*) AS n FROM e GROUP BY TIMESTAMP_TRUNC(ts, DAY);");
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    const ins = (ts: string) => c.step([{ table: 'e', op: 'insert', row: { ts, v: 1 } }]).changes.get('D');
    expect(ins('2024-01-01 10:00:00')).toBeUndefined();
    expect(ins('2024-01-02 00:59:59.999')).toBeUndefined(); // waterline 2024-01-01 23:59:59.999: a row at 23:59:59.999 may still come
    expect(ins('2024-01-01 23:59:59.999')).toBeUndefined(); // and does, in time
    expect(ins('2024-01-02 01:00:00')).toEqual([{ row: { DAY: '2024-01-01 00:00:00', N: 2 }, weight: 1 }]); // waterline 2024-01-02 00:00
  });

  it('works over TUMBLE windows, and the same view without emit_final shows every intermediate change', () => {
    const r = compile(
      TABLE +
        `CREATE VIEW w WITH ('emit_final' = 'window_start') AS SELECT window_start, SUM(v) AS s FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;
CREATE VIEW all_changes AS SELECT window_start, SUM(v) AS s FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;`,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    let allChanges = 0;
    const finals: unknown[] = [];
    for (const [ts, v] of [
      ['2024-01-01 10:05:00', 1],
      ['2024-01-01 10:50:00', 2],
      ['2024-01-01 11:10:00', 3],
      ['2024-01-01 12:30:00', 4],
    ] as const) {
      const res = c.step([{ table: 'e', op: 'insert', row: { ts, v } }]);
      allChanges += res.changes.get('ALL_CHANGES')?.length ?? 0;
      finals.push(...(res.changes.get('W') ?? []));
    }
    expect(allChanges).toBeGreaterThan(finals.length);
    // watermark 11:30: only the 10:00 window is final
    expect(finals).toEqual([{ row: { WINDOW_START: '2024-01-01 10:00:00', S: 3 }, weight: 1 }]);
  });

  it('refuses a column without a watermark', () => {
    const r = compile(TABLE + "CREATE VIEW d WITH ('emit_final' = 'v') AS SELECT v, COUNT(*) AS n FROM e GROUP BY v;");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.message).toMatch(/emit_final: column 'V' has no watermark/);
    const r2 = compile(TABLE + "CREATE VIEW d WITH ('emit_final' = 'nope') AS SELECT v FROM e;");
    expect(r2.ok).toBe(false);
  });
});
