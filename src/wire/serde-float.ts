/**
 * A JSON number literal read into a DOUBLE as Feldera reads it: serde_json without its `float_roundtrip`
 * feature, which is not always the nearest double (off by an ULP for some literals of 16 or more digits, e.g.
 * 9876543210.123457 reads as 9876543210.123455). Its algorithm: the decimal digits gathered into an unsigned
 * 64-bit significand while it does not overflow (further digits are dropped, counting in the exponent only
 * before the point), the exponent applied as one multiplication or division by a power of ten (a double),
 * dividing by 1e308 first while the power is beyond the table. Contract: `serdeF64(text)` for a JSON number
 * literal gives that double (±Infinity where serde_json refuses a number out of range). Pure.
 */

const U64_MAX = '18446744073709551615';
const POW10: number[] = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** Whether the significand `s` (digits, no leading zeros) can take one more digit within u64 (serde_json's overflow! macro). */
function takes(s: string, digit: string): boolean {
  const next = s === '' && digit === '0' ? '' : s + digit;
  return next.length < 20 || (next.length === 20 && next <= U64_MAX);
}

export function serdeF64(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return Number(text);
  const positive = m[1] !== '-';
  const intPart = m[2]!.replace(/^0+/, '');
  const fraction = m[3] ?? '';
  let significand: string;
  let exponent = 0;
  // the integer part: its digits until the first that would overflow u64; further ones only count (parse_long_integer)
  if (intPart.length < 20) significand = intPart;
  else {
    significand = intPart.slice(0, 19);
    let i = 19;
    if (takes(significand, intPart[19]!)) significand += intPart[i++]!;
    exponent += intPart.length - i;
  }
  // the fraction: its digits until the first that would overflow, none after (parse_decimal_overflow)
  if ((significand + fraction).replace(/^0+/, '').length < 20) {
    significand += fraction;
    exponent -= fraction.length;
  } else {
    for (const d of fraction) {
      if (!takes(significand.replace(/^0+/, ''), d)) break;
      significand += d;
      exponent -= 1;
    }
  }
  if (m[4] !== undefined) exponent += Number(m[4]);
  // an integer's digits as a double: the nearest, as `u64 as f64` rounds
  return fromParts(positive, significand === '' ? 0 : Number(significand), exponent);
}

function fromParts(positive: boolean, significand: number, exponent: number): number {
  let f = significand;
  for (;;) {
    const pow = POW10[Math.abs(exponent)];
    if (pow !== undefined) {
      f = exponent >= 0 ? f * pow : f / pow;
      break;
    }
    if (f === 0) break;
    if (exponent >= 0) {
      f = Infinity;
      break;
    }
    f /= 1e308;
    exponent += 308;
  }
  return positive ? f : -f;
}
