/**
 * Feldera's interval forms (bind/interval-forms.ts, types/interval-text.ts, the pre-pass's rewrites):
 * `(a - b) UNIT [TO UNIT]` on timestamps, dates and times (with or without a blank before UNIT), each
 * qualifier's text as CAST(... AS VARCHAR) writes it, that text read back (`INTERVAL v.col UNIT`, CAST to an
 * INTERVAL type), signed literals ('+5-0' YEAR TO MONTH), qualifiers of interval arithmetic, TIME +/- INTERVAL,
 * and INTERVAL columns allowed in LOCAL views only. Checked against PGlite where Postgres has the same
 * computation (seconds between timestamps, whole months by age(), interval literals' seconds, TIME
 * arithmetic wrapping around midnight), else against values computed by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type CompiledProgram, type JsonRow } from '../../src/engine/index.js';
import { formatInterval, parseInterval, unionQualifier } from '../../src/engine/types/interval-text.js';
import { newPglite } from './pglite.js';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

const TABLE = 'CREATE TABLE t (id INT, c1 TIMESTAMP, c2 TIMESTAMP, d1 DATE, d2 DATE, t1 TIME, t2 TIME);';

function rows(sql: string, input: JsonRow[], view: string): JsonRow[] {
  const c = prog(TABLE + sql).newCircuit();
  c.step(input.map((row) => ({ table: 't', op: 'insert' as const, row })));
  return c
    .contents(view)
    .map(({ row }) => row)
    .sort((a, b) => (a.id as number) - (b.id as number));
}

const PAIRS: JsonRow[] = [
  { id: 0, c1: '2019-12-05 08:27:00', c2: '2014-11-05 12:45:00', d1: '2024-03-01', d2: '2023-01-15', t1: '10:00:00', t2: '08:30:15' },
  { id: 1, c1: '2020-06-21 14:00:00', c2: '2023-02-26 18:00:00', d1: '2020-01-31', d2: '2020-03-01', t1: '01:00:00', t2: '23:59:59.5' },
  { id: 2, c1: '2024-02-29 00:00:00', c2: '2023-02-28 00:00:01', d1: '2024-02-29', d2: '2024-02-29', t1: '00:00:00', t2: '00:00:00' },
];

const DIFFERENCES = `CREATE LOCAL VIEW diffs AS SELECT id, (c1-c2)SECOND AS seconds, (c1-c2)MINUTE AS minutes, (c1 - c2) HOUR AS hours, (c1-c2)DAY AS days,
  (c1-c2)MONTH AS months, (c1-c2)YEAR AS years, (c1-c2)YEAR TO MONTH AS ytm, (c1-c2)DAY TO HOUR AS dth, (c1-c2)DAY TO MINUTE AS dtm,
  (c1-c2)DAY TO SECOND AS dts, (c1-c2)HOUR TO MINUTE AS htm, (c1-c2)HOUR  TO  SECOND AS hts, (c1-c2)MINUTE TO SECOND AS mts FROM t;
CREATE MATERIALIZED VIEW texts AS SELECT id, CAST(seconds AS VARCHAR) AS seconds, CAST(minutes AS VARCHAR) AS minutes, CAST(hours AS VARCHAR) AS hours,
  CAST(days AS VARCHAR) AS days, CAST(months AS VARCHAR) AS months, CAST(years AS VARCHAR) AS years, CAST(ytm AS VARCHAR) AS ytm,
  CAST(dth AS VARCHAR) AS dth, CAST(dtm AS VARCHAR) AS dtm, CAST(dts AS VARCHAR) AS dts, CAST(htm AS VARCHAR) AS htm, CAST(hts AS VARCHAR) AS hts,
  CAST(mts AS VARCHAR) AS mts FROM diffs;`;

describe('(a - b) UNIT [TO UNIT]', () => {
  it('writes each qualifier as Feldera does', () => {
    const [first, second] = rows(DIFFERENCES, PAIRS.slice(0, 2), 'texts');
    // 2019-12-05 08:27 - 2014-11-05 12:45 = 1855 days 19:42; 60 whole months
    expect(first).toEqual({
      id: 0,
      seconds: '+160342920.000000',
      minutes: '+2672382',
      hours: '+44539',
      days: '+1855',
      months: '+60',
      years: '+5',
      ytm: '+5-00',
      dth: '+1855 19',
      dtm: '+1855 19:42',
      dts: '+1855 19:42:00',
      htm: '+44539:42',
      hts: '+44539:42:00.000000',
      mts: '+2672382:00.000000',
    });
    expect(second).toMatchObject({ seconds: '-84686400.000000', minutes: '-1411440', days: '-980', months: '-32', years: '-2', ytm: '-2-08', dth: '-980 04', mts: '-1411440:00.000000' });
  });

  it('keeps the exact difference whatever the qualifier (it decides only the text); reads the texts back', () => {
    const sql = `${DIFFERENCES}
CREATE MATERIALIZED VIEW back AS SELECT v.id, c1 - diffs.minutes AS exact, c1 - INTERVAL v.hours HOUR AS by_hours, c1 - INTERVAL v.days DAY AS by_days,
  c1 - INTERVAL v.months MONTH AS by_months, c1 - CAST(v.dtm AS INTERVAL DAY TO MINUTE) AS by_dtm, c1 + CAST(v.ytm AS INTERVAL YEAR TO MONTH) AS plus_ytm
  FROM texts v JOIN t ON v.id = t.id JOIN diffs ON diffs.id = v.id;`;
    expect(rows(sql, PAIRS.slice(0, 2), 'back')).toEqual([
      {
        id: 0,
        exact: '2014-11-05 12:45:00',
        by_hours: '2014-11-05 13:27:00',
        by_days: '2014-11-06 08:27:00',
        by_months: '2014-12-05 08:27:00',
        by_dtm: '2014-11-05 12:45:00',
        plus_ytm: '2024-12-05 08:27:00',
      },
      {
        id: 1,
        exact: '2023-02-26 18:00:00',
        by_hours: '2023-02-26 18:00:00',
        by_days: '2023-02-26 14:00:00',
        by_months: '2023-02-21 14:00:00',
        by_dtm: '2023-02-26 18:00:00',
        plus_ytm: '2017-10-21 14:00:00',
      },
    ]);
  });

  it('on dates and times; a single unit casts to its count; two TIMEs have no year-month difference', () => {
    const sql = `CREATE MATERIALIZED VIEW v AS SELECT id, CAST((d1 - d2) DAY AS BIGINT) AS days, CAST((d1-d2)MONTH AS VARCHAR) AS months,
      CAST((t1 - t2) HOUR TO SECOND AS VARCHAR) AS hts, CAST((c1 - c2) SECOND AS BIGINT) AS seconds FROM t;`;
    expect(rows(sql, PAIRS, 'v')).toEqual([
      { id: 0, days: 411, months: '+13', hts: '+1:29:45.000000', seconds: 160342920 },
      { id: 1, days: -30, months: '-1', hts: '-22:59:59.500000', seconds: -84686400 },
      { id: 2, days: 0, months: '+0', hts: '+0:00:00.000000', seconds: 31622399 },
    ]);
    const r = compile(TABLE + 'CREATE VIEW v AS SELECT CAST((t1 - t2) MONTH AS VARCHAR) AS m FROM t;');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.message).toMatch(/TIME values cannot be a MONTH interval/);
    const s = compile(TABLE + 'CREATE VIEW v AS SELECT CAST((id - id) DAY AS VARCHAR) AS m FROM t;');
    expect(s.ok).toBe(false);
    if (!s.ok) expect(s.errors[0]!.message).toMatch(/Cannot apply '-' to arguments of type <INTEGER> and <INTEGER>/);
  });

  it('allows INTERVAL columns in LOCAL views only', () => {
    const r = compile(TABLE + 'CREATE VIEW v AS SELECT (c1 - c2) DAY AS d FROM t;');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.message).toMatch(/has type INTERVAL, which is not allowed in outputs/);
    expect(compile(TABLE + 'CREATE LOCAL VIEW v AS SELECT (c1 - c2) DAY AS d FROM t;').ok).toBe(true);
  });

  it('leaves a ROW field named like a unit a field access', () => {
    const p = prog('CREATE TABLE r (x ROW(day INT)); CREATE MATERIALIZED VIEW v AS SELECT (x).day AS d FROM r;');
    const c = p.newCircuit();
    c.step([{ table: 'r', op: 'insert', row: { x: { day: 7 } } }]);
    expect(c.contents('v').map(({ row }) => row)).toEqual([{ d: 7 }]);
  });
});

describe('interval literals, texts and TIME arithmetic', () => {
  it("reads signed literals ('+5-0' YEAR TO MONTH) and types interval arithmetic with the span of both qualifiers", () => {
    const sql = `CREATE MATERIALIZED VIEW v AS SELECT
      CAST((INTERVAL '+5-0' YEAR TO MONTH - INTERVAL '10' YEAR) AS VARCHAR) AS ytm_yr,
      CAST((INTERVAL '+5-0' YEAR TO MONTH - INTERVAL '10-08' YEAR TO MONTH) AS VARCHAR) AS ytm_ytm,
      CAST((INTERVAL '+1855 19' DAY TO HOUR - INTERVAL '150' DAYS) AS VARCHAR) AS dth_days,
      CAST((INTERVAL '+44539:42' HOUR TO MINUTE - INTERVAL '3600' HOURS) AS VARCHAR) AS htm_hr,
      CAST((INTERVAL '+44539:42:00.000000' HOUR TO SECOND - INTERVAL '3600:13:40.000000' HOUR TO SECOND) AS VARCHAR) AS hts_hts,
      CAST(INTERVAL '-1 2:03:04' DAYS TO SECONDS AS VARCHAR) AS negative
      FROM t WHERE id = 0;`;
    expect(rows(sql, PAIRS.slice(0, 1), 'v')).toEqual([{ ytm_yr: '-5-00', ytm_ytm: '-5-08', dth_days: '+1705 19', htm_hr: '+40939:42', hts_hts: '+40939:28:20.000000', negative: '-1 02:03:04' }]);
    expect(unionQualifier('DAY TO HOUR', 'DAY')).toBe('DAY TO HOUR');
    expect(unionQualifier('HOUR', 'MINUTE TO SECOND')).toBe('HOUR TO SECOND');
    expect(unionQualifier('YEAR', undefined)).toBeUndefined();
  });

  it('reads each qualifier its own text; refuses text of another form (NULL, as failed casts)', () => {
    expect(parseInterval('+5-0', 'YEAR TO MONTH')).toBe(60);
    expect(parseInterval(' -2-08 ', 'YEAR TO MONTH')).toBe(-32);
    expect(parseInterval('10 10:30:40.999', 'DAY TO SECOND')).toBe(((10 * 24 + 10) * 3600 + 30 * 60 + 40) * 1000 + 999);
    expect(parseInterval('80:01.001', 'MINUTE TO SECOND')).toBe(80 * 60_000 + 1001);
    expect(parseInterval('+160342920.000000', 'SECOND')).toBe(160342920000);
    expect(parseInterval('10 10', 'HOUR TO MINUTE')).toBeUndefined();
    expect(parseInterval('x', 'DAY')).toBeUndefined();
    expect(rows("CREATE MATERIALIZED VIEW v AS SELECT id, CAST('nope' AS INTERVAL DAY) IS NULL AS bad FROM t;", PAIRS.slice(0, 1), 'v')).toEqual([{ id: 0, bad: true }]);
    expect(formatInterval(-30_000, false, 'MINUTE')).toBe('+0');
    expect(formatInterval(1500, false)).toBe('+0 00:00:01.500000');
  });

  describe('against PGlite', () => {
    let pg: PGlite;
    beforeAll(async () => {
      pg = await newPglite();
    }, 60_000);
    afterAll(async () => {
      await pg?.close();
    });

    it('seconds and whole months between timestamps (age), as Postgres counts them', async () => {
      const ours = rows('CREATE MATERIALIZED VIEW v AS SELECT id, CAST((c1 - c2) SECOND AS BIGINT) AS s, CAST((c1 - c2) MONTH AS BIGINT) AS m FROM t;', PAIRS, 'v');
      for (const p of PAIRS) {
        const r = await pg.query<{ s: number; m: number }>(
          `SELECT extract(epoch FROM $1::timestamp - $2::timestamp)::bigint AS s,
                  (extract(year FROM age($1::timestamp, $2::timestamp)) * 12 + extract(month FROM age($1::timestamp, $2::timestamp)))::int AS m`,
          [p.c1, p.c2],
        );
        expect(ours.find((o) => o.id === p.id)).toEqual({ id: p.id, s: Number(r.rows[0]!.s), m: Number(r.rows[0]!.m) });
      }
    });

    it.each([
      ["'+1855 19:42:00.5' DAY TO SECOND", "interval '1855 19:42:00.5'"],
      ["'-1 2:03:04' DAY TO SECOND", "interval '-1 days -2:03:04'"],
      ["'12:10' HOUR TO MINUTE", "interval '12:10'"],
      ["'80:01.001' MINUTE TO SECOND", "interval '80 minutes 1.001 seconds'"],
      ["'+5-3' YEAR TO MONTH", "interval '5 years 3 months'"],
    ])('the literal INTERVAL %s holds what Postgres reads', async (literal, pgLiteral) => {
      const [ours] = rows(`CREATE MATERIALIZED VIEW v AS SELECT id, CAST(INTERVAL ${literal} AS VARCHAR) AS txt FROM t;`, PAIRS.slice(0, 1), 'v');
      const long = literal.includes('YEAR');
      const r = await pg.query<{ v: string }>(
        long ? `SELECT (extract(year FROM ${pgLiteral}) * 12 + extract(month FROM ${pgLiteral}))::text AS v` : `SELECT extract(epoch FROM ${pgLiteral})::text AS v`,
      );
      const expected = Number(r.rows[0]!.v);
      const q = literal.replace(/^'[^']*' /, '');
      const value = parseInterval(String(ours!.txt), q)!;
      expect(long ? value : value / 1000).toBeCloseTo(expected, 6);
    });

    it('TIME plus and minus an interval wrap around midnight as in Postgres; a year-month interval leaves it as it is', async () => {
      const ours = rows(
        `CREATE MATERIALIZED VIEW v AS SELECT id, t1 + INTERVAL '3' HOUR AS plus, t1 - INTERVAL '11:30' HOUR TO MINUTE AS minus, INTERVAL '25' HOUR + t1 AS swapped,
         t1 + INTERVAL '1' YEAR AS long_iv FROM t;`,
        PAIRS,
        'v',
      );
      for (const p of PAIRS) {
        const r = await pg.query<{ plus: string; minus: string; swapped: string }>(
          `SELECT ($1::time + interval '3 hours')::text AS plus, ($1::time - interval '11:30')::text AS minus, (interval '25 hours' + $1::time)::text AS swapped`,
          [p.t1],
        );
        expect(ours.find((o) => o.id === p.id)).toEqual({ id: p.id, ...r.rows[0], long_iv: p.t1 });
      }
    });
  });
});
