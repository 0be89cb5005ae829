/**
 * Variance, standard deviation, covariance and regression sums from running power sums, so every change is
 * O(1) and retractable. Integer and DECIMAL arguments are summed exactly (BigInt of the scaled value); REAL/DOUBLE
 * in floating point (retractions there can leave rounding residue: a negative variance is clamped to 0). The
 * result has the argument's type: integers truncate, DECIMAL keeps the scale (truncated). Integer arguments follow
 * Feldera's integer arithmetic step by step (Calcite's reduction of the variance to sums): VAR_POP is
 * (Q - S*S/n) / n, VAR_SAMP (Q - S*S/n) / (n - 1), each division truncating, and STDDEV_* the truncated square
 * root of that integer variance, so STDDEV_SAMP of 5 and 4 is 1 (sqrt(41 - 81/2)), not 0 (sqrt 0.5 truncated).
 */
import type { Value } from '../../types/values.js';
import type { Acc } from '../aggregate.js';

export type Moment = 'VAR_POP' | 'VAR_SAMP' | 'STDDEV_POP' | 'STDDEV_SAMP';

/** How values of the argument's type enter and leave: exact (integers, DECIMAL as its scaled BigInt) or float. */
export interface NumCodec {
  exact: boolean;
  /** Integer argument: Feldera's integer formula (truncating each division), not the exact quotient. */
  integer: boolean;
  /** Scale of exact values (0 for integers). */
  scale: number;
  /** A number (variance of floats, or any standard deviation) to the result's representation. */
  fromNumber: (x: number) => Value;
  /** An exact result at scale 2*scale to the result's representation (truncating). */
  fromScaled2: (x: bigint) => Value;
}

const isqrtNum = (x: number): number => Math.sqrt(Math.max(0, x));

/** floor(sqrt(x)) of a non-negative BigInt, exact at any size. */
function isqrtBig(x: bigint): bigint {
  if (x < 2n) return x < 0n ? 0n : x;
  let r = BigInt(Math.floor(Math.sqrt(Number(x))));
  while (r * r > x) r -= 1n;
  while ((r + 1n) * (r + 1n) <= x) r += 1n;
  return r;
}

export class VarianceAcc implements Acc {
  private n = 0;
  private s = 0n;
  private q = 0n;
  private fs = 0;
  private fq = 0;
  constructor(
    private readonly kind: Moment,
    private readonly codec: NumCodec,
  ) {}
  add(v: Value, w: number): void {
    this.n += w;
    if (this.codec.exact) {
      const x = BigInt(v as number | bigint);
      const bw = BigInt(w);
      this.s += x * bw;
      this.q += x * x * bw;
    } else {
      const x = v as number;
      this.fs += x * w;
      this.fq += x * x * w;
    }
  }
  result(): Value {
    const n = this.n;
    const samp = this.kind === 'VAR_SAMP' || this.kind === 'STDDEV_SAMP';
    const denomN = samp ? n - 1 : n;
    if (n <= 0 || denomN <= 0) return null;
    const sqrt = this.kind.startsWith('STDDEV');
    if (this.codec.integer) {
      const variance = (this.q - (this.s * this.s) / BigInt(n)) / BigInt(denomN);
      return this.codec.fromScaled2(sqrt ? isqrtBig(variance) : variance);
    }
    if (this.codec.exact) {
      // n*Q - S^2 at scale 2s, divided by n * (n or n-1)
      const num = BigInt(n) * this.q - this.s * this.s;
      const den = BigInt(n) * BigInt(denomN);
      if (!sqrt) return this.codec.fromScaled2(num / den);
      const f = Number(num) / Number(den) / 10 ** (2 * this.codec.scale);
      return this.codec.fromNumber(isqrtNum(f));
    }
    const v = Math.max(0, (this.fq - (this.fs * this.fs) / n) / denomN);
    return this.codec.fromNumber(sqrt ? Math.sqrt(v) : v);
  }
}

export type PairStat = 'COVAR_POP' | 'COVAR_SAMP' | 'REGR_SXX' | 'REGR_SYY' | 'REGR_COUNT';

/** Sums over (y, x) pairs fed packed as [y, x] numbers (the caller skips pairs with a NULL). */
export class PairAcc implements Acc {
  private n = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private syy = 0;
  private sxy = 0;
  constructor(
    private readonly kind: PairStat,
    private readonly out: (x: number) => Value,
  ) {}
  add(v: Value, w: number): void {
    const [y, x] = v as number[];
    this.n += w;
    this.sx += x! * w;
    this.sy += y! * w;
    this.sxx += x! * x! * w;
    this.syy += y! * y! * w;
    this.sxy += x! * y! * w;
  }
  result(): Value {
    const n = this.n;
    if (this.kind === 'REGR_COUNT') return n;
    if (n <= 0) return null;
    switch (this.kind) {
      case 'COVAR_POP':
        return this.out((this.sxy - (this.sx * this.sy) / n) / n);
      case 'COVAR_SAMP':
        return n < 2 ? null : this.out((this.sxy - (this.sx * this.sy) / n) / (n - 1));
      case 'REGR_SXX':
        return this.out(Math.max(0, this.sxx - (this.sx * this.sx) / n));
      default:
        return this.out(Math.max(0, this.syy - (this.sy * this.sy) / n));
    }
  }
}
