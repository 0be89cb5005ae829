/**
 * Exact integers of TINYINT..BIGINT and of their UNSIGNED counterparts, and their checked arithmetic.
 * Rules:
 * - An integer value is a JS number while it is a safe integer (|v| <= 2^53 - 1) and a bigint only beyond;
 *   always normalized so (normInt), so one value has one representation: hashing (valueKey/rowKey), `===`
 *   and consolidation keep working, and JS's `<`/`>` compare a number with a bigint exactly.
 * - Every operation is checked against its result type's range (8, 16, 32, 64 bits); a result out of range,
 *   a division or modulus by zero throws IntOverflow naming the expression and the type (the circuit adds the
 *   view and refuses the step). Messages carry Feldera's text: `'250 + 200' causes overflow for type TINYINT
 *   UNSIGNED` for an operation, `Error converting 256 to TINYINT UNSIGNED: out of range integral type conversion
 *   attempted` for a narrowing (casts, SUM). The fast path stays on numbers: a float result that is a safe integer is
 *   exact (rounding is monotonic, so a true result of 2^53 or more never rounds below 2^53).
 */
import { sqlTypeName, type SqlType, type TypeKind } from './types.js';

export type Int = number | bigint;

const SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** One representation per value: a number when safe, else a bigint. */
export function normInt(b: bigint): Int {
  return b >= -SAFE_BIG && b <= SAFE_BIG ? Number(b) : b;
}

export interface IntBounds {
  /** Limits as numbers for the fast path (BIGINT: the safe range, beyond which the bigint path decides). */
  lo: number;
  hi: number;
  blo: bigint;
  bhi: bigint;
}

export const INT_BOUNDS: Readonly<Record<string, IntBounds>> = {
  TINYINT: { lo: -128, hi: 127, blo: -128n, bhi: 127n },
  SMALLINT: { lo: -32768, hi: 32767, blo: -32768n, bhi: 32767n },
  INTEGER: { lo: -2147483648, hi: 2147483647, blo: -2147483648n, bhi: 2147483647n },
  BIGINT: { lo: -Number.MAX_SAFE_INTEGER, hi: Number.MAX_SAFE_INTEGER, blo: -(2n ** 63n), bhi: 2n ** 63n - 1n },
  UTINYINT: { lo: 0, hi: 255, blo: 0n, bhi: 255n },
  USMALLINT: { lo: 0, hi: 65535, blo: 0n, bhi: 65535n },
  UINTEGER: { lo: 0, hi: 4294967295, blo: 0n, bhi: 4294967295n },
  UBIGINT: { lo: 0, hi: Number.MAX_SAFE_INTEGER, blo: 0n, bhi: 2n ** 64n - 1n },
};

/** Where an integer operation is written: its readable SQL text (computed only when an error is raised). */
export interface IntSite {
  text: () => string;
}

/** An integer result that does not fit its type, or a division by zero; the circuit turns it into a refused step. */
export class IntOverflow extends Error {
  constructor(
    /** The expression, as SQL text. */
    readonly expression: string,
    /** The SQL type the result did not fit. */
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'IntOverflow';
  }
}

/** A value that does not fit kind (a narrowing: cast, SUM): Feldera's conversion message. */
function overflow(site: IntSite, kind: TypeKind, exact: bigint | string): never {
  const text = safeText(site);
  const name = sqlTypeName(kind);
  throw new IntOverflow(text, kind, `integer overflow: Error converting ${exact} to ${name}: out of range integral type conversion attempted (${text})`);
}

/** An operation p op q whose result does not fit kind: Feldera's `'p op q' causes overflow for type T`. */
function opOverflow(site: IntSite, kind: TypeKind, sym: string, p: Int, q: Int, exact: bigint): never {
  const text = safeText(site);
  const name = sqlTypeName(kind);
  throw new IntOverflow(text, kind, `integer overflow: '${p} ${sym} ${q}' causes overflow for type ${name} (${text} = ${exact} does not fit ${name})`);
}

/** A bigint result of p op q checked against kind's range and normalized. */
function fitOp(b: bigint, kind: TypeKind, site: IntSite, sym: string, p: Int, q: Int): Int {
  const r = INT_BOUNDS[kind]!;
  if (b < r.blo || b > r.bhi) opOverflow(site, kind, sym, p, q, b);
  return normInt(b);
}

/** x / 0 and x % 0, with Feldera's texts (`'250 / 0' causes overflow for type ...`; Rust's remainder panic). */
function divZero(site: IntSite, kind: TypeKind, op: 'Divide' | 'Modulo', p: Int): never {
  const text = safeText(site);
  const name = sqlTypeName(kind);
  const feldera = op === 'Divide' ? `'${p} / 0' causes overflow for type ${name}` : 'attempt to calculate the remainder with a divisor of zero';
  throw new IntOverflow(text, kind, `division by zero: ${feldera} (${text}, ${name})`);
}

function safeText(site: IntSite): string {
  try {
    return site.text();
  } catch {
    return '(expression)';
  }
}

/** A bigint checked against kind's range and normalized. */
export function fitInt(b: bigint, kind: TypeKind, site: IntSite): Int {
  const r = INT_BOUNDS[kind]!;
  if (b < r.blo || b > r.bhi) overflow(site, kind, b);
  return normInt(b);
}

/** Any integer value (number or bigint) checked against kind's range (narrowing casts, SUM results). */
export function checkInt(v: Int, kind: TypeKind, site: IntSite): Int {
  const r = INT_BOUNDS[kind]!;
  if (typeof v === 'number') {
    if (v >= r.lo && v <= r.hi) return v;
    return fitInt(BigInt(v), kind, site);
  }
  return fitInt(v, kind, site);
}

const big = (v: Int): bigint => (typeof v === 'bigint' ? v : BigInt(v));

export type IntBinary = (p: Int, q: Int) => Int;

/** The checked binary operation `op` ('Plus', 'Minus', 'Multiply', 'Divide', 'Modulo') with result type kind. */
export function intBinary(op: string, kind: TypeKind, site: IntSite): IntBinary {
  const { lo, hi } = INT_BOUNDS[kind]!;
  switch (op) {
    case 'Plus':
      return (p, q) => {
        if (typeof p === 'number' && typeof q === 'number') {
          const r = p + q;
          if (r >= lo && r <= hi) return r;
        }
        return fitOp(big(p) + big(q), kind, site, '+', p, q);
      };
    case 'Minus':
      return (p, q) => {
        if (typeof p === 'number' && typeof q === 'number') {
          const r = p - q;
          if (r >= lo && r <= hi) return r;
        }
        return fitOp(big(p) - big(q), kind, site, '-', p, q);
      };
    case 'Multiply':
      return (p, q) => {
        if (typeof p === 'number' && typeof q === 'number') {
          const r = p * q;
          if (r >= lo && r <= hi) return r === 0 ? 0 : r;
        }
        return fitOp(big(p) * big(q), kind, site, '*', p, q);
      };
    case 'Divide':
      return (p, q) => {
        if (q === 0) divZero(site, kind, 'Divide', p);
        if (typeof p === 'number' && typeof q === 'number') {
          // exact for |p| < 2^53: a quotient cannot round across an integer (its distance to one is >= 1/|q|)
          const r = Math.trunc(p / q);
          if (r >= lo && r <= hi) return r === 0 ? 0 : r;
        }
        return fitOp(big(p) / big(q), kind, site, '/', p, q);
      };
    case 'Modulo':
      return (p, q) => {
        if (q === 0) divZero(site, kind, 'Modulo', p);
        if (typeof p === 'number' && typeof q === 'number') {
          const r = p % q;
          return r === 0 ? 0 : r;
        }
        return normInt(big(p) % big(q));
      };
  }
  throw new Error(`unknown integer operation ${op}`);
}

/** Checked unary minus. */
export function intNegate(kind: TypeKind, site: IntSite): (p: Int) => Int {
  const { lo, hi } = INT_BOUNDS[kind]!;
  return (p) => {
    if (typeof p === 'number') {
      const r = p === 0 ? 0 : -p;
      if (r >= lo && r <= hi) return r;
    }
    return fitInt(-big(p), kind, site);
  };
}

/** Checked ABS (ABS of the type's minimum overflows). */
export function intAbs(kind: TypeKind, site: IntSite): (p: Int) => Int {
  const neg = intNegate(kind, site);
  return (p) => (p < 0 ? neg(p) : p);
}

/** A JS number already known to be integral, as an exact Int of kind (floats beyond 2^53 are integers). */
export function intFromFloat(x: number, kind: TypeKind, site: IntSite): Int {
  if (!Number.isFinite(x)) overflow(site, kind, String(x));
  const t = Math.trunc(x);
  return checkInt(Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : BigInt(t), kind, site);
}

/** Text of an optionally signed decimal integer (surrounding white space allowed) as a bigint, or undefined. */
export function parseIntText(text: string): bigint | undefined {
  const s = text.trim();
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  return BigInt(s);
}

/** Whether a SQL type is one of the integer types. */
export function intKind(t: SqlType): TypeKind | undefined {
  return t.kind in INT_BOUNDS ? t.kind : undefined;
}
