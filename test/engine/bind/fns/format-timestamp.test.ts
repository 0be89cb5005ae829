/**
 * FORMAT_TIMESTAMP and FORMAT_DATE keep the last text per expression for the instants of one second
 * (bind/fns/datetime.ts): each row's text is the one its own instant gives, whatever came before it in the
 * step (instants of one second and of the next, either side of the epoch, with fractions of a millisecond;
 * formats that change from row to row, with %f, or unknown). The reference is the same format with %f after
 * it (never kept: formatted for each row), less those nine digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type JsonRow } from '../../../../src/engine/index.js';

const FORMATS = ['%Y-%m-%d', '%H:%M', '%H:%M:%S', '%S', 'at %T on %F', '%Y %f', '%%f', '%Q', 'plain'];

/** TIMESTAMP text of an instant given in microseconds since the epoch. */
function timestampText(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${String(micros - ms * 1000).padStart(3, '0')}`;
}

const program = (() => {
  const r = compile(`CREATE TABLE t (i INT, f VARCHAR, ts TIMESTAMP, d DATE);
CREATE VIEW v AS SELECT i, FORMAT_TIMESTAMP(f, ts) AS got, FORMAT_TIMESTAMP(f || '%f', ts) AS ref,
  FORMAT_DATE(f, d) AS got_d, FORMAT_DATE(f || '%f', d) AS ref_d FROM t;`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
})();

const withoutNanos = (ref: unknown): unknown => (typeof ref === 'string' ? ref.slice(0, -9) : ref);

describe('FORMAT_TIMESTAMP / FORMAT_DATE over rows of one second', () => {
  it('give each row the text of its own instant and format', () => {
    const row = fc.record({
      f: fc.constantFrom(...FORMATS),
      second: fc.integer({ min: -3, max: 2 }),
      micros: fc.oneof(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(0, 500, 999_999, 999_500, 1)),
      day: fc.integer({ min: -2, max: 2 }),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1 }), (rows, around) => {
        const base = around === 0 ? 0 : 1_700_000_000; // the epoch (negative instants) or today
        const circuit = program.newCircuit();
        const out = circuit.step(
          rows.map((r, i) => ({
            table: 't',
            op: 'insert' as const,
            row: { i, f: r.f, ts: timestampText((base + r.second) * 1e6 + r.micros), d: timestampText((base / 86_400 + r.day) * 86_400e6).slice(0, 10) },
          })),
        );
        const got = (out.changes.get('V') ?? []).map((c) => c.row as JsonRow);
        expect(got.length).toBe(rows.length);
        for (const g of got) {
          expect(g.GOT).toBe(withoutNanos(g.REF));
          expect(g.GOT_D).toBe(withoutNanos(g.REF_D));
        }
      }),
      { numRuns: 300 },
    );
  });
});
