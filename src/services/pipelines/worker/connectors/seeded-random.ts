/**
 * A small, fast, seeded random number generator for the Nexmark connector: sfc32 (Chris Doty-Humphrey's
 * Small Fast Counting generator, 128 bits of state, passes PractRand) seeded through splitmix32 from a 64-bit
 * key. The generator seeds one of these per event from its id, so any event can be produced on its own:
 * resuming from a position regenerates exactly the same events, and no state is carried from one to the next.
 * (datagen draws Feldera's own SmallRng bit for bit: small-rng.ts.) Also the Zipf distribution (ZipfTable),
 * which both use. Pure: no I/O.
 */

/** The alphanumeric characters ([A-Za-z0-9]), as rand's Alphanumeric distribution draws them. */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const TWO_32 = 4294967296;

/**
 * `len` alphanumeric characters ([A-Za-z0-9]) from 32-bit draws, as rand's Alphanumeric draws them: the top 6
 * bits of a draw, drawing again for 62 and 63 (both generators here use it).
 */
export function alphanumeric(len: number, u32: () => number): string {
  let s = '';
  for (let i = 0; i < len; i++) {
    let v = u32() >>> 26;
    while (v >= 62) v = u32() >>> 26;
    s += ALNUM[v];
  }
  return s;
}

function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class SeededRandom {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  /** A generator for the 64-bit key `hi * 2^32 + lo` (both unsigned 32-bit). */
  constructor(lo = 0, hi = 0) {
    this.reseed(lo, hi);
  }

  /** Starts over from the key `hi * 2^32 + lo`: the same key, the same draws. */
  reseed(lo: number, hi = 0): this {
    this.a = splitmix32(lo ^ 0x5bd1e995);
    this.b = splitmix32(hi ^ 0x1b873593);
    this.c = splitmix32(this.a ^ this.b ^ 0xcc9e2d51);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
    return this;
  }

  /** Starts over from a key given as a non-negative safe integer. */
  reseedNumber(key: number): this {
    return this.reseed((key % TWO_32) >>> 0, Math.floor(key / TWO_32) >>> 0);
  }

  /** The next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float uniform in [0, 1) with 53 random bits. */
  float(): number {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }

  /** An integer uniform in [0, n) for 1 <= n <= 2^53 (no modulo bias: rejection on the top of the range). */
  below(n: number): number {
    if (n <= TWO_32) {
      const limit = TWO_32 - (TWO_32 % n);
      let x = this.u32();
      while (x >= limit) x = this.u32();
      return x % n;
    }
    // 53 bits, rejecting the top of the range that does not divide evenly
    const span = 9007199254740992;
    const limit = span - (span % n);
    let x = this.float() * span;
    while (x >= limit) x = this.float() * span;
    return x % n;
  }

  /** An integer uniform in [lo, hi) (lo < hi, both safe integers). */
  range(lo: number, hi: number): number {
    return lo + this.below(hi - lo);
  }

  /** One element of a non-empty list, uniformly. */
  pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)]!;
  }

  /** `len` alphanumeric characters ([A-Za-z0-9]), each uniform. */
  alnum(len: number): string {
    return alphanumeric(len, () => this.u32());
  }

  /**
   * A Zipf-distributed rank in [1, n] with exponent `e` (P(k) ∝ 1 / k^e), by rejection-inversion (Hörmann and
   * Derflinger), as rand_distr's Zipf; constant time for any n.
   */
  zipf(z: ZipfTable): number {
    return z.sample(() => this.float());
  }
}

/** The constants of a Zipf(n, e) distribution (SeededRandom.zipf), made once per field. */
export class ZipfTable {
  readonly hIntegralX1: number;
  readonly hIntegralN: number;
  readonly s: number;

  constructor(
    readonly n: number,
    readonly e: number,
  ) {
    if (!(n >= 1)) throw new RangeError('the Zipf distribution needs n >= 1');
    if (!(e >= 0)) throw new RangeError('the Zipf exponent must be >= 0');
    this.hIntegralX1 = this.hIntegral(1.5) - 1;
    this.hIntegralN = this.hIntegral(n + 0.5);
    this.s = 2 - this.hIntegralInv(this.hIntegral(2.5) - this.h(2));
  }

  /** A rank in [1, n], drawing uniform floats in [0, 1) from `uniform`. */
  sample(uniform: () => number): number {
    for (;;) {
      const u = this.hIntegralN + uniform() * (this.hIntegralX1 - this.hIntegralN);
      const x = this.hIntegralInv(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.n) k = this.n;
      if (k - x <= this.s || u >= this.hIntegral(k + 0.5) - this.h(k)) return k;
    }
  }

  h(x: number): number {
    return Math.exp(-this.e * Math.log(x));
  }

  hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.e) * logX) * logX;
  }

  hIntegralInv(x: number): number {
    let t = x * (1 - this.e);
    if (t < -1) t = -1;
    return Math.exp(helper1(t) * x);
  }
}

/** log(1 + x) / x, exact near 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

/** (exp(x) - 1) / x, exact near 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1 / 3) * (1 + 0.25 * x));
}
