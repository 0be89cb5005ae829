/**
 * The text of a DOUBLE or REAL as Feldera's CAST to VARCHAR gives it: Rust's ryu crate, shortest round-trip
 * digits, written plainly while the decimal point falls within 16 digits (REAL: 13) of the first digit, or
 * within 5 zeros after the point (REAL: 6), else in scientific form: 1.0, 0.00001, 1e-6, 2.088852331899055e16.
 * A REAL's digits must already be its shortest f32 digits (values.ts shortestF32). Infinities and NaN keep
 * JavaScript's names. A leaf: imports nothing.
 */
export function formatFloatText(n: number, real = false): string {
  if (!Number.isFinite(n)) return String(n);
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const maxPoint = real ? 13 : 16;
  const minPoint = real ? -6 : -5;
  const [mant, expText] = n.toExponential().split('e') as [string, string];
  const sign = mant.startsWith('-') ? '-' : '';
  const digits = mant.replace('-', '').replace('.', '');
  const point = Number(expText) + 1; // digits before the decimal point
  if (point > 0 && point <= maxPoint) {
    if (digits.length <= point) return `${sign}${digits.padEnd(point, '0')}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  if (point > minPoint && point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const e = point - 1;
  return digits.length === 1 ? `${sign}${digits}e${e}` : `${sign}${digits[0]}.${digits.slice(1)}e${e}`;
}
