/**
 * A JSON number literal read into a DOUBLE as Feldera reads it: serde_json without its `float_roundtrip`
 * feature, which is not always the nearest double (off by an ULP for some literals of 16 or more digits, e.g.
 * 9876543210.123457 reads as 9876543210.123455). Its algorithm: the decimal digits gathered into an unsigned
 * 64-bit significand while it does not overflow (further digits are dropped, counting in the exponent only
 * before the point), the exponent applied as one multiplication or division by a power of ten (a double),
 * dividing by 1e308 first while the power is beyond the table. Contract: `serdeF64(text)` for a JSON number
 * literal gives that double (±Infinity where serde_json refuses a number out of range). Pure.
 */

const U64_MAX = (1n << 64n) - 1n;
const U64_DIV10 = U64_MAX / 10n;
const U64_MOD10 = U64_MAX % 10n;
const POW10: number[] = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** Whether significand * 10 + digit would exceed u64::MAX (serde_json's overflow! macro). */
const overflows = (s: bigint, digit: bigint): boolean => s >= U64_DIV10 && (s > U64_DIV10 || digit > U64_MOD10);

export function serdeF64(text: string): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return Number(text);
  const positive = m[1] !== '-';
  let significand = 0n;
  let exponent = 0;
  let overflowed = false;
  // the integer part: its digits until the first that would overflow u64
  for (const c of m[2]!) {
    const digit = BigInt(c.charCodeAt(0) - 48);
    if (overflowed || overflows(significand, digit)) {
      overflowed = true;
      exponent += 1; // the integer part's further digits only count (parse_long_integer)
    } else significand = significand * 10n + digit;
  }
  // the fraction: its digits until the first that would overflow, none after (parse_decimal_overflow)
  let fractionFull = false;
  for (const c of m[3] ?? '') {
    const digit = BigInt(c.charCodeAt(0) - 48);
    if (fractionFull || overflows(significand, digit)) {
      fractionFull = true;
      continue;
    }
    significand = significand * 10n + digit;
    exponent -= 1;
  }
  if (m[4] !== undefined) exponent += Number(m[4]);
  return fromParts(positive, Number(significand), exponent);
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
