/** Exact DECIMAL arithmetic on scaled BigInts: a value v with scale s means v / 10^s. */

const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 80; i++, p *= 10n) POW10.push(p);

const FAST_MAX = 2n ** 50n;
const FAST_MIN = -FAST_MAX;

export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/**
 * Parse decimal text ('12.5', '-3', '1e3') into a bigint with the given scale; undefined if not a number. Digits
 * beyond the scale round half away from zero (`truncate`: are dropped, toward zero, as Feldera reads a DECIMAL
 * input). An exponent beyond ±EXPONENT_LIMIT gives 0 (negative) or ±10^EXPONENT_LIMIT (positive, a value no
 * DECIMAL holds), never a string of that many digits.
 */
export function parseDecimal(text: string, scale: number, truncate = false): bigint | undefined {
  // fast path: [-]digits[.digits] with at most `scale` fraction digits and a small magnitude
  const n = text.length;
  if (n > 0 && n < 16) {
    let i = text.charCodeAt(0) === 45 ? 1 : 0;
    let v = 0;
    let frac = -1;
    let ok = i < n;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        if (frac >= 0) frac++;
      } else if (c === 46 && frac < 0) frac = 0;
      else {
        ok = false;
        break;
      }
    }
    if (ok && frac !== 0 && (frac < 0 ? 0 : frac) <= scale && scale - (frac < 0 ? 0 : frac) <= 15) {
      const f = frac < 0 ? 0 : frac;
      const signed = text.charCodeAt(0) === 45 ? -v : v;
      // scale - f <= 15 and v < 10^15: the scaled value is exact as a double only while below 2^53
      const scaled = signed * 10 ** (scale - f);
      return Number.isSafeInteger(scaled) ? BigInt(scaled) : BigInt(signed) * pow10(scale - f);
    }
  }
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const neg = m[1] === '-';
  let intPart = m[2] || '0';
  let frac = m[3] ?? '';
  const exp = m[4] ? parseInt(m[4], 10) : 0;
  if (exp > EXPONENT_LIMIT || exp < -EXPONENT_LIMIT) {
    const zero = /^0*$/.test(intPart + frac);
    return exp < 0 || zero ? 0n : neg ? -pow10(EXPONENT_LIMIT) : pow10(EXPONENT_LIMIT);
  }
  if (exp > 0) {
    const f = frac.padEnd(exp, '0');
    intPart += f.slice(0, exp);
    frac = f.slice(exp);
  } else if (exp < 0) {
    const i = intPart.padStart(-exp + 1, '0');
    frac = i.slice(i.length + exp) + frac;
    intPart = i.slice(0, i.length + exp);
  }
  const digits = intPart + frac.slice(0, scale).padEnd(scale, '0');
  let v = BigInt(digits);
  const rest = frac.slice(scale);
  if (!truncate && rest.length > 0 && rest.charCodeAt(0) >= 53 /* '5' */) v += 1n;
  return neg ? -v : v;
}

/** Exponents beyond this (either way) are not written out digit by digit (parseDecimal). */
const EXPONENT_LIMIT = 400;

/** A number's decimal value at the scale (as parseDecimal its shortest text: what the literal said, for one of at most 15 digits). */
export function decimalFromNumber(n: number, scale: number, truncate = false): bigint | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 53) return BigInt(n) * pow10(scale);
  return parseDecimal(String(n), scale, truncate);
}

export function formatDecimal(v: bigint, scale: number): string {
  if (scale <= 15 && v >= FAST_MIN && v <= FAST_MAX) {
    // fast path in doubles: below 2^50, every product and difference here is an exact integer
    const n = Number(v);
    if (scale === 0) return String(n);
    const a = n < 0 ? -n : n;
    const p = 10 ** scale;
    let ip = Math.floor(a / p);
    let fp = a - ip * p;
    if (fp < 0) {
      ip--;
      fp += p;
    } else if (fp >= p) {
      ip++;
      fp -= p;
    }
    const f = String(fp);
    return (n < 0 ? '-' : '') + ip + '.' + (f.length < scale ? '0'.repeat(scale - f.length) + f : f);
  }
  const neg = v < 0n;
  let s = (neg ? -v : v).toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return neg ? '-' + s : s;
}

/** Change the scale of v from `from` to `to`; truncates toward zero when reducing (as Calcite casts do). */
export function rescale(v: bigint, from: number, to: number): bigint {
  if (to === from) return v;
  if (to > from) return v * pow10(to - from);
  return v / pow10(from - to);
}

/** Round half away from zero to a smaller scale. */
export function rescaleRound(v: bigint, from: number, to: number): bigint {
  if (to >= from) return rescale(v, from, to);
  const d = pow10(from - to);
  const q = v / d;
  const r = v % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return v < 0n ? q - 1n : q + 1n;
  return q;
}

export function decimalToNumber(v: bigint, scale: number): number {
  return scale === 0 ? Number(v) : Number(formatDecimal(v, scale));
}
