/**
 * emit_final on columns computed from a LATENESS column (bind/lineage.ts): `ts ± INTERVAL`, TIMESTAMPADD,
 * TIMESTAMP_TRUNC of those, a derived column read through a subquery and grouped by TUMBLE. Each is final
 * exactly when the rows it comes from are: checked against the same view over the column itself.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompiledProgram, type WeightedRow } from '../../src/engine/index.js';

const TABLE = "CREATE TABLE e (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, v INT);\n";

function prog(sql: string): CompiledProgram {
  const r = compile(TABLE + sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

describe('emit_final on a derived column', () => {
  it('ts + INTERVAL, ts - INTERVAL and TIMESTAMPADD: a row goes out when the same row of ts itself does', () => {
    const c = prog(`CREATE VIEW plain WITH ('emit_final' = 'ts') AS SELECT ts, v FROM e;
CREATE VIEW plus WITH ('emit_final' = 's') AS SELECT ts + INTERVAL '1' HOUR AS s, v FROM e;
CREATE VIEW minus WITH ('emit_final' = 's') AS SELECT ts - INTERVAL '90' MINUTE AS s, v FROM e;
CREATE VIEW added WITH ('emit_final' = 's') AS SELECT TIMESTAMPADD(HOUR, 2, ts) AS s, v FROM e;
CREATE VIEW swapped WITH ('emit_final' = 's') AS SELECT INTERVAL '1' DAY + ts AS s, v FROM e;`).newCircuit();
    const vs = (view: string, out: ReadonlyMap<string, WeightedRow[]>) => (out.get(view) ?? []).map((r) => r.row.v).sort();
    const seen: number[][] = [];
    for (const [i, ts] of ['2024-01-01 10:00:00', '2024-01-01 10:30:00', '2024-01-01 11:00:00', '2024-01-01 11:00:01', '2024-01-01 12:45:00'].entries()) {
      const out = c.step([{ table: 'e', op: 'insert', row: { ts, v: i } }]).changes;
      const plain = vs('plain', out);
      for (const view of ['plus', 'minus', 'added', 'swapped']) expect([ts, view, vs(view, out)]).toEqual([ts, view, plain]);
      seen.push(plain as number[]);
    }
    // the waterline (the latest ts - 1 hour) passes 10:00 at the fourth row, the next three at the fifth
    expect(seen).toEqual([[], [], [], [0], [1, 2, 3]]);
    expect(c.contents('plus').map((r) => r.row.s)).toContain('2024-01-01 11:00:00');
  });

  it('TIMESTAMP_TRUNC of a shifted column read through a subquery: the day ends 2 hours early', () => {
    const c = prog(`CREATE VIEW d WITH ('emit_final' = 'd') AS SELECT TIMESTAMP_TRUNC(s, DAY) AS d, SUM(v) AS total
FROM (SELECT ts + INTERVAL '2' HOUR AS s, v FROM e) GROUP BY TIMESTAMP_TRUNC(s, DAY);`).newCircuit();
    const ins = (ts: string, v: number) => c.step([{ table: 'e', op: 'insert', row: { ts, v } }]).changes.get('d');
    expect(ins('2024-01-01 12:00:00', 1)).toBeUndefined();
    expect(ins('2024-01-01 21:59:00', 2)).toBeUndefined(); // shifted: 23:59, still day 1
    expect(ins('2024-01-01 22:30:00', 4)).toBeUndefined(); // shifted: day 2
    expect(ins('2024-01-01 22:59:59', 8)).toBeUndefined(); // waterline 21:59:59: a ts before 22:00 may still come
    // waterline 22:00: no row of day 1 (ts before 22:00) can come any more
    expect(ins('2024-01-01 23:00:00', 16)).toEqual([{ row: { d: '2024-01-01 00:00:00', total: 3 }, weight: 1 }]);
  });

  it('TUMBLE_START over a truncated column of a subquery: each day once, when final; truncated again downstream too', () => {
    const c = prog(`CREATE VIEW w WITH ('emit_final' = 'w_start') AS SELECT TUMBLE_START(h, INTERVAL '1' DAY) AS w_start, COUNT(*) AS n
FROM (SELECT TIMESTAMP_TRUNC(ts, HOUR) AS h FROM e) GROUP BY TUMBLE(h, INTERVAL '1' DAY);
CREATE VIEW deep WITH ('emit_final' = 'day') AS SELECT TIMESTAMP_TRUNC(w_start, DAY) AS day, SUM(n) AS n FROM w GROUP BY TIMESTAMP_TRUNC(w_start, DAY);`).newCircuit();
    const ins = (ts: string) => c.step([{ table: 'e', op: 'insert', row: { ts, v: 1 } }]).changes.get('w');
    expect(ins('2024-01-01 05:00:00')).toBeUndefined();
    expect(ins('2024-01-02 00:30:00')).toBeUndefined(); // waterline 2024-01-01 23:30: day 1's last hour may still come
    // an hour's lineage is counted as if any millisecond of it could come: the day is final an hour after its end
    expect(ins('2024-01-02 01:00:00')).toBeUndefined();
    expect(ins('2024-01-02 02:00:00')).toEqual([{ row: { w_start: '2024-01-01 00:00:00', n: 1 }, weight: 1 }]);
    expect(ins('2024-01-03 03:00:00')).toEqual([{ row: { w_start: '2024-01-02 00:00:00', n: 3 }, weight: 1 }]);
    expect(c.contents('deep').map((r) => r.row)).toEqual([{ day: '2024-01-01 00:00:00', n: 1 }]); // day 2 not yet: the second truncation counts a day more
    ins('2024-01-09 00:00:00');
    expect(c.contents('deep').map((r) => r.row)).toEqual([
      { day: '2024-01-01 00:00:00', n: 1 },
      { day: '2024-01-02 00:00:00', n: 3 },
      { day: '2024-01-03 00:00:00', n: 1 },
    ]);
  });

  it('still refuses what keeps no waterline: a month interval, a shift by a column', () => {
    for (const expr of ["ts + INTERVAL '1' MONTH", 'TIMESTAMPADD(HOUR, v, ts)', "CASE WHEN v > 0 THEN ts ELSE ts + INTERVAL '1' HOUR END"]) {
      const r = compile(TABLE + `CREATE VIEW x WITH ('emit_final' = 's') AS SELECT ${expr} AS s FROM e;`, { outputCase: 'lower' });
      expect(r.ok, expr).toBe(false);
      if (!r.ok) expect(r.errors[0]!.message).toMatch(/emit_final: column 's' has no watermark/);
    }
  });
});
