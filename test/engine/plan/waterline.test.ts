/** plan/waterline.ts: the waterline from which a value is final, for fixed spans and calendar units. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CALENDAR_LONGEST, finalFrom, type CalendarUnit } from '../../../src/engine/plan/waterline.js';

const at = (s: string) => Date.parse(`${s}Z`);
/** The first day of month `m` of year `y` (months past 11 roll over), UTC, for any year. */
const monthStart = (y: number, m: number) => {
  const d = new Date(0);
  d.setUTCFullYear(y, m, 1);
  return d.getTime();
};

describe('finalFrom', () => {
  it('a fixed span: v + slack', () => {
    expect(finalFrom(1000, { table: 't', col: 0, slack: 1 })).toBe(1001);
    expect(finalFrom(at('2024-01-01T00:00:00'), { table: 't', col: 0, slack: 86_400_000 })).toBe(at('2024-01-02T00:00:00'));
  });

  it("a calendar unit: the start of the next one (for a LATENESS column's lineage, slack = the longest length)", () => {
    const wm = (calendar: CalendarUnit) => ({ table: 't', col: 0, slack: CALENDAR_LONGEST[calendar], calendar });
    expect(finalFrom(at('2023-02-01T00:00:00'), wm('MONTH'))).toBe(at('2023-03-01T00:00:00'));
    expect(finalFrom(at('2024-02-01T00:00:00'), wm('MONTH'))).toBe(at('2024-03-01T00:00:00'));
    expect(finalFrom(at('2024-04-01T00:00:00'), wm('MONTH'))).toBe(at('2024-05-01T00:00:00'));
    expect(finalFrom(at('2024-12-01T00:00:00'), wm('MONTH'))).toBe(at('2025-01-01T00:00:00'));
    expect(finalFrom(at('2024-01-01T00:00:00'), wm('QUARTER'))).toBe(at('2024-04-01T00:00:00'));
    expect(finalFrom(at('2024-10-01T00:00:00'), wm('QUARTER'))).toBe(at('2025-01-01T00:00:00'));
    expect(finalFrom(at('2023-01-01T00:00:00'), wm('YEAR'))).toBe(at('2024-01-01T00:00:00'));
    expect(finalFrom(at('1969-01-01T00:00:00'), wm('YEAR'))).toBe(at('1970-01-01T00:00:00'));
  });

  it('never later than the slack alone says, never earlier than the unit ends (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -2000, max: 3000 }),
        fc.integer({ min: 0, max: 11 }),
        fc.constantFrom<CalendarUnit>('MONTH', 'QUARTER', 'YEAR'),
        fc.integer({ min: 1, max: 10_000_000 }),
        (y, m, unit, base) => {
          const month = unit === 'YEAR' ? 0 : unit === 'QUARTER' ? m - (m % 3) : m;
          const v = monthStart(y, month);
          const slack = base - 1 + CALENDAR_LONGEST[unit];
          const f = finalFrom(v, { table: 't', col: 0, slack, calendar: unit });
          const end = monthStart(unit === 'YEAR' ? y + 1 : y, unit === 'YEAR' ? 0 : month + (unit === 'QUARTER' ? 3 : 1));
          expect(f).toBeLessThanOrEqual(v + slack);
          expect(f).toBe(end + base - 1);
        },
      ),
    );
  });
});
