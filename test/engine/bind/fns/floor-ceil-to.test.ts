/**
 * FLOOR(x TO unit) and CEIL(x TO unit) on TIMESTAMP, DATE and TIME (bind/fns/floor-ceil-to.ts): FLOOR against
 * PGlite's date_trunc, CEIL against boundaries computed by hand (Postgres has no CEIL to a unit), a boundary
 * staying itself, and Calcite's refusal text for another type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type JsonRow } from '../../../../src/engine/index.js';
import { newPglite } from '../../pglite.js';

function rows(view: string, row: JsonRow): JsonRow[] {
  const r = compile(`CREATE TABLE t (ts TIMESTAMP, d DATE, tm TIME, i INT); CREATE MATERIALIZED VIEW v AS ${view};`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const c = r.program.newCircuit();
  c.step([{ table: 't', op: 'insert', row }]);
  return c.contents('v').map(({ row: out }) => out);
}

// WEEK, DECADE, CENTURY and MILLENNIUM differ from Postgres (weeks begin on Sunday, 2000 begins a millennium): below
const UNITS = ['YEAR', 'QUARTER', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND'];
const STAMPS = ['2020-06-21 14:23:44.123', '2024-02-29 00:00:00', '1969-12-31 23:59:59.999'];

describe('FLOOR(x TO unit) against PGlite', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await newPglite();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it.each(STAMPS)('every unit of %s', async (ts) => {
    const [ours] = rows(`SELECT ${UNITS.map((u) => `FLOOR(ts TO ${u}) AS ${u.toLowerCase()}`).join(', ')} FROM t`, { ts });
    for (const u of UNITS) {
      const r = await pg.query<{ v: string }>(`SELECT to_char(date_trunc('${u.toLowerCase()}', $1::timestamp), 'YYYY-MM-DD HH24:MI:SS') AS v`, [ts]);
      expect(ours![u.toLowerCase()], u).toBe(r.rows[0]!.v);
    }
  });
});

describe('CEIL(x TO unit)', () => {
  it('the next boundary, or the value itself when it is one', () => {
    expect(
      rows('SELECT CEIL(ts TO YEAR) AS y, CEIL(ts TO MONTH) AS m, CEIL(ts TO DAY) AS d, CEIL(ts TO HOUR) AS h, CEIL(ts TO SECOND) AS s, CEIL(ts TO MILLISECOND) AS ms FROM t', {
        ts: '2020-06-21 14:23:44.123',
      }),
    ).toEqual([{ y: '2021-01-01 00:00:00', m: '2020-07-01 00:00:00', d: '2020-06-22 00:00:00', h: '2020-06-21 15:00:00', s: '2020-06-21 14:23:45', ms: '2020-06-21 14:23:44.123' }]);
    expect(rows('SELECT CEIL(ts TO MONTH) AS m, CEIL(d TO YEAR) AS dy, CEIL(d TO MONTH) AS dm, CEIL(d TO DAY) AS dd FROM t', { ts: '2020-07-01 00:00:00', d: '2020-06-21' })).toEqual([
      { m: '2020-07-01 00:00:00', dy: '2021-01-01', dm: '2020-07-01', dd: '2020-06-21' },
    ]);
    expect(rows('SELECT FLOOR(tm TO HOUR) AS fh, CEIL(tm TO MINUTE) AS cm, CEIL(tm TO MILLISECOND) AS cms FROM t', { tm: '14:23:44.456789' })).toEqual([
      { fh: '14:00:00', cm: '14:24:00', cms: '14:23:44.457' },
    ]);
  });

  it("weeks begin on Sunday; decades, centuries and millennia at multiples of 10, 100 and 1000 years (Feldera's sqllib)", () => {
    const units = ['MILLENNIUM', 'CENTURY', 'DECADE', 'WEEK'];
    const sql = `SELECT ${units.map((u) => `FLOOR(ts TO ${u}) AS f_${u.toLowerCase()}, CEIL(ts TO ${u}) AS c_${u.toLowerCase()}, FLOOR(d TO ${u}) AS fd_${u.toLowerCase()}, CEIL(d TO ${u}) AS cd_${u.toLowerCase()}`).join(', ')} FROM t`;
    expect(rows(sql, { ts: '2020-06-21 14:23:44.123', d: '2020-06-21' })).toEqual([
      {
        f_millennium: '2000-01-01 00:00:00',
        c_millennium: '3000-01-01 00:00:00',
        fd_millennium: '2000-01-01',
        cd_millennium: '3000-01-01',
        f_century: '2000-01-01 00:00:00',
        c_century: '2100-01-01 00:00:00',
        fd_century: '2000-01-01',
        cd_century: '2100-01-01',
        f_decade: '2020-01-01 00:00:00',
        c_decade: '2030-01-01 00:00:00',
        fd_decade: '2020-01-01',
        cd_decade: '2030-01-01',
        f_week: '2020-06-21 00:00:00', // a Sunday
        c_week: '2020-06-28 00:00:00',
        fd_week: '2020-06-21',
        cd_week: '2020-06-21',
      },
    ]);
    expect(rows('SELECT FLOOR(ts TO WEEK) AS w, DATE_TRUNC(ts, WEEK) AS t FROM t', { ts: '2020-06-24 10:00:00' })).toEqual([{ w: '2020-06-21 00:00:00', t: '2020-06-21 00:00:00' }]);
  });

  it('DATE_PART takes its unit as a bare word', () => {
    expect(rows('SELECT DATE_PART(YEAR, ts) AS y, DATE_PART(DOW, d) AS dow, DATE_PART(HOUR, d) AS h FROM t', { ts: '2020-06-21 14:23:44', d: '2020-06-21' })).toEqual([{ y: 2020, dow: 1, h: 0 }]);
  });

  it("refuses another type with Calcite's text", () => {
    const r = compile('CREATE TABLE t (i INT); CREATE VIEW v AS SELECT CEIL(i TO YEAR) AS y FROM t;');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.message).toContain("Cannot apply 'CEIL' to arguments of type");
  });
});
