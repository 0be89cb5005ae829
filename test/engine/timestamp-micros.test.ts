/**
 * A TIMESTAMP keeps microseconds, as Feldera does (types/datetime.ts tsFrom/tsSplit): read, written, moved by
 * intervals and months, subtracted, truncated and rounded, cast to TIME and to numbers; whole milliseconds past
 * 2109, where a double cannot hold them. Cases are our own.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';

function row(select: string, ts: string): Record<string, unknown> {
  const r = compile(`CREATE TABLE t (ts TIMESTAMP); CREATE VIEW v AS SELECT ${select} FROM t;`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program
    .newCircuit()
    .step([{ table: 't', op: 'insert', row: { ts } }])
    .changes.get('v')![0]!.row;
}

describe('TIMESTAMP microseconds', () => {
  it('are read and written', () => {
    expect(row('ts', '2020-06-21 14:23:44.123654')).toEqual({ ts: '2020-06-21 14:23:44.123654' });
    expect(row('ts', '1969-12-31 23:59:59.000001')).toEqual({ ts: '1969-12-31 23:59:59.000001' });
    expect(row('CAST(ts AS VARCHAR) AS s', '2020-06-21 14:23:44.12')).toEqual({ s: '2020-06-21 14:23:44.120000' }); // Feldera's Display: six digits
  });

  it('stay through interval and month arithmetic, and count in a difference', () => {
    expect(
      row(
        "ts + INTERVAL '1' DAY AS d, ts - INTERVAL '0.5' SECOND AS s, ts + INTERVAL '2' MONTH AS m, TIMESTAMPADD(YEAR, 2, ts) AS y, (ts + INTERVAL '1' DAY) - INTERVAL '1' DAY = ts AS back",
        '2020-06-21 14:23:44.123654',
      ),
    ).toEqual({ d: '2020-06-22 14:23:44.123654', s: '2020-06-21 14:23:43.623654', m: '2020-08-21 14:23:44.123654', y: '2022-06-21 14:23:44.123654', back: true });
    expect(row("CAST((ts - TIMESTAMP '2020-06-21 14:23:43.000001') SECOND AS BIGINT) AS secs", '2020-06-21 14:23:44.000000')).toEqual({ secs: 0 });
  });

  it('FLOOR/CEIL to MILLISECOND and MICROSECOND, EXTRACT, CAST to TIME and to numbers', () => {
    expect(
      row(
        'CEIL(ts TO MILLISECOND) AS cms, FLOOR(ts TO MILLISECOND) AS fms, CEIL(ts TO MICROSECOND) AS cus, EXTRACT(MICROSECOND FROM ts) AS us, CAST(ts AS TIME) AS tm, CAST(ts AS BIGINT) AS ms, CAST(CAST(ts AS DOUBLE) AS VARCHAR) AS dbl',
        '2020-06-21 14:23:44.123654',
      ),
    ).toEqual({
      cms: '2020-06-21 14:23:44.124',
      fms: '2020-06-21 14:23:44.123',
      cus: '2020-06-21 14:23:44.123654',
      us: 44123654,
      tm: '14:23:44.123654',
      ms: 1592749424123,
      dbl: '1592749424123.0',
    });
    expect(row("CAST(TIME '14:23:44.456789' AS TIMESTAMP) AS x", '2020-01-01 00:00:00')).toEqual({ x: '1970-01-01 14:23:44.456789' });
  });

  it('are whole milliseconds past 2109', () => {
    expect(row('ts', '2200-01-01 00:00:00.123456')).toEqual({ ts: '2200-01-01 00:00:00.123' });
  });
});

describe('TIMESTAMP WITH TIME ZONE', () => {
  function tzRows(select: string, tz: string): { type: string[]; row: Record<string, unknown> } {
    const r = compile(`CREATE TABLE t (tz TIMESTAMP WITH TIME ZONE); CREATE VIEW v AS SELECT ${select} FROM t;`, { outputCase: 'lower' });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    return {
      type: r.program.relation('v')!.columns.map((c) => c.type),
      row: r.program
        .newCircuit()
        .step([{ table: 't', op: 'insert', row: { tz } }])
        .changes.get('v')![0]!.row,
    };
  }

  it('is a TIMESTAMP in UTC whose text carries +00:00, kept by rounding and interval arithmetic', () => {
    expect(
      tzRows(
        "tz, CAST(tz AS VARCHAR) AS s, CEIL(tz TO DAY) AS c, tz + INTERVAL '1' HOUR AS h, CAST(tz AS TIMESTAMP) AS plain, CAST(tz AS VARIANT) AS vt, DATE_TRUNC(tz, YEAR) AS y",
        '2020-06-21T14:23:44.123654+00:00',
      ),
    ).toEqual({
      type: ['TIMESTAMP WITH TIME ZONE', 'VARCHAR', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMP', 'VARIANT', 'TIMESTAMP WITH TIME ZONE'],
      row: {
        tz: '2020-06-21 14:23:44.123654+00:00',
        s: '2020-06-21 14:23:44.123654 +00:00',
        c: '2020-06-22 00:00:00+00:00',
        h: '2020-06-21 15:23:44.123654+00:00',
        plain: '2020-06-21 14:23:44.123654',
        vt: '2020-06-21 14:23:44.123654+00:00',
        y: '2020-01-01 00:00:00+00:00',
      },
    });
    expect(tzRows("CAST(tz AS VARCHAR) AS s, tz = TIMESTAMP WITH TIME ZONE '2020-06-21 16:23:44.1 +02:00' AS same", '2020-06-21 14:23:44.100').row).toEqual({
      s: '2020-06-21 14:23:44.100000 +00:00',
      same: true,
    });
  });
});
