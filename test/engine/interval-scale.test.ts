/**
 * An INTERVAL times or divided by a number (bind/interval-scale.ts), as Feldera's sqllib: the qualifier is
 * kept, the result truncated toward zero (months; microseconds, then this engine's milliseconds), a DECIMAL
 * exactly, a DOUBLE in floating point, either operand order for `*`; a division by zero refuses the step. And
 * unary minus on a string reads it as a DECIMAL (Calcite's implicit cast).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';

function texts(exprs: string[], s: string | null = null): string[] {
  const r = compile(`CREATE TABLE t (s VARCHAR);\nCREATE VIEW v AS SELECT ${exprs.map((x, i) => `CAST(${x} AS VARCHAR) AS c${i}`).join(', ')} FROM t;`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const out = r.program
    .newCircuit()
    .step([{ table: 't', op: 'insert', row: { s } }])
    .changes.get('v');
  return exprs.map((_, i) => out![0]!.row[`c${i}`] as string);
}

describe('INTERVAL scaled by a number', () => {
  it('keeps the qualifier and truncates toward zero', () => {
    expect(
      texts([
        "INTERVAL '-2-8' YEAR TO MONTH * 1.9", // -60.8 months: -60, not the rounded -61
        "INTERVAL '3 04' DAY TO HOUR * 3",
        "INTERVAL '-7' MONTH / 2",
        "INTERVAL '-980 04:00:00.000000' DAY TO SECOND * 2.583",
        "INTERVAL '10' SECOND / 2.5",
      ]),
    ).toEqual(['-5-00', '+9 12', '-3', '-2531 18:29:31.200000', '+4.000000']);
  });

  it('by a DECIMAL exactly, by a DOUBLE in floating point, a number first too', () => {
    expect(texts(["INTERVAL '1' SECOND * 0.0015", "INTERVAL '10' SECOND * CAST(0.35 AS DOUBLE)", "2 * INTERVAL '1' HOUR", "3 * INTERVAL '1-1' YEAR TO MONTH"])).toEqual([
      '+0.001000',
      '+3.500000',
      '+2',
      '+3-03',
    ]);
  });

  it('refuses the step on a division by zero', () => {
    for (const x of ["INTERVAL '1' HOUR / 0", "INTERVAL '1' HOUR / 0.0", "INTERVAL '1' HOUR / CAST(0 AS DOUBLE)", "INTERVAL '1' MONTH / 0"])
      expect(() => texts([x]), x).toThrow(/overflow while dividing INTERVAL/);
  });

  it('unary minus reads a string as a DECIMAL', () => {
    expect(texts(['-s'], '-84686400.000000')).toEqual(['84686400']);
    expect(texts(['-s', "-(s || '')"], '12')).toEqual(['-12', '-12']);
  });
});
