/**
 * Feldera's datagen random numbers, bit for bit (crates/datagen: one `SmallRng::seed_from_u64(seed + row)` per
 * record, rand 0.8 on a 64-bit machine), so that a seeded datagen table holds the rows Feldera's does:
 *  - the generator: xoshiro256++ (rand 0.8's SmallRng), its 256-bit state filled by rand_core's default
 *    `seed_from_u64` (PCG32 steps from the 64-bit seed, four bytes each, little-endian);
 *  - `next_u32` is the upper half of `next_u64`;
 *  - an integer in [lo, hi) (`Uniform::from(lo..hi)` over i64/usize): the 64-bit widening multiply of a draw
 *    by the span, rejecting draws whose low half falls in the zone that does not divide evenly;
 *  - alphanumerics: `next_u32 >> 26`, rejecting 62 and 63; a float in [0, 1) for a uniform float range:
 *    52 bits (rand's UniformFloat), and for Zipf 53 bits (rand's Standard f64).
 * Pure: no I/O. Numbers within ±2^53 are JS numbers, beyond them bigints (`bigRange`).
 */
import { alphanumeric, type ZipfTable } from './seeded-random.js';

const MASK = (1n << 64n) - 1n;
const TWO_32 = 4294967296;
// PCG32's multiplier and increment (rand_core's seed_from_u64), as 32-bit halves
const MUL_HI = 0x5851f42d;
const MUL_LO = 0x4c957f2d;
const INC_HI = 0xa17654e4;
const INC_LO = 0x6fbe17f3;
const TWO_52 = 4503599627370496;
const TWO_53 = 9007199254740992;

/** The exact 64-bit product of two unsigned 32-bit numbers: its high half (the low half is `lastLow`). */
let lastLow = 0;
function mul32(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid % 65536) * 65536;
  lastLow = low % TWO_32;
  return (a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / TWO_32)) >>> 0;
}

/**
 * The 64-bit generator's state as eight unsigned 32-bit halves (hi, lo of s0..s3): plain numbers, so a
 * record's reseed and draws cost tens of nanoseconds (bigints are kept for the widening multiply of spans
 * beyond 2^32).
 */
export class SmallRng {
  private h0 = 0;
  private l0 = 0;
  private h1 = 0;
  private l1 = 0;
  private h2 = 0;
  private l2 = 0;
  private h3 = 0;
  private l3 = 0;
  /** The low half of the last u64Parts draw (its high half is what it returned). */
  private lastLo = 0;

  /** A generator as `SmallRng::seed_from_u64(seed)` makes it (seed taken modulo 2^64). */
  constructor(seed: bigint = 0n) {
    this.reseed(seed);
  }

  /** Starts over as `SmallRng::seed_from_u64(seed)`. */
  reseed(seed: bigint): this {
    const s = BigInt.asUintN(64, seed);
    return this.reseedHalves(Number(s >> 32n), Number(s & 0xffffffffn));
  }

  /** Starts over as `SmallRng::seed_from_u64(hi × 2^32 + lo)` (unsigned 32-bit halves). */
  reseedHalves(hi: number, lo: number): this {
    let sh = hi >>> 0;
    let sl = lo >>> 0;
    const out: number[] = [];
    for (let i = 0; i < 8; i++) {
      // state = state * MUL + INC (mod 2^64)
      const hi = (mul32(sl, MUL_LO) + Math.imul(sh, MUL_LO) + Math.imul(sl, MUL_HI)) >>> 0;
      const lo = lastLow + INC_LO;
      sl = lo >>> 0;
      sh = (hi + INC_HI + (lo >= TWO_32 ? 1 : 0)) >>> 0;
      // xorshifted = ((state >> 18) ^ state) >> 27 (low 32 bits), rotated right by state >> 59
      const xh = sh ^ (sh >>> 18);
      const xl = sl ^ ((sl >>> 18) | (sh << 14));
      const x = ((xl >>> 27) | (xh << 5)) >>> 0;
      const rot = sh >>> 27;
      out.push(((x >>> rot) | (x << ((32 - rot) & 31))) >>> 0);
    }
    // four bytes each, little-endian: word w is out[2w] (low) and out[2w + 1] (high)
    [this.l0, this.h0, this.l1, this.h1, this.l2, this.h2, this.l3, this.h3] = out as [number, number, number, number, number, number, number, number];
    return this;
  }

  /** The next 64 random bits (xoshiro256++): the high half returned, the low half in lastLo. */
  private u64Parts(): number {
    // result = rotl(s0 + s3, 23) + s0
    const sumL = this.l0 + this.l3;
    const sl = sumL >>> 0;
    const sh = (this.h0 + this.h3 + (sumL >= TWO_32 ? 1 : 0)) >>> 0;
    const rh = ((sh << 23) | (sl >>> 9)) >>> 0;
    const rl = ((sl << 23) | (sh >>> 9)) >>> 0;
    const resL = rl + this.l0;
    this.lastLo = resL >>> 0;
    const resH = (rh + this.h0 + (resL >= TWO_32 ? 1 : 0)) >>> 0;
    // t = s1 << 17
    const th = ((this.h1 << 17) | (this.l1 >>> 15)) >>> 0;
    const tl = (this.l1 << 17) >>> 0;
    this.h2 = (this.h2 ^ this.h0) >>> 0;
    this.l2 = (this.l2 ^ this.l0) >>> 0;
    this.h3 = (this.h3 ^ this.h1) >>> 0;
    this.l3 = (this.l3 ^ this.l1) >>> 0;
    this.h1 = (this.h1 ^ this.h2) >>> 0;
    this.l1 = (this.l1 ^ this.l2) >>> 0;
    this.h0 = (this.h0 ^ this.h3) >>> 0;
    this.l0 = (this.l0 ^ this.l3) >>> 0;
    this.h2 = (this.h2 ^ th) >>> 0;
    this.l2 = (this.l2 ^ tl) >>> 0;
    // s3 = rotl(s3, 45): swap the halves, then rotate by 13
    const h3 = this.l3;
    const l3 = this.h3;
    this.h3 = ((h3 << 13) | (l3 >>> 19)) >>> 0;
    this.l3 = ((l3 << 13) | (h3 >>> 19)) >>> 0;
    return resH;
  }

  /** The next 64 random bits (xoshiro256++). */
  u64(): bigint {
    const hi = this.u64Parts();
    return (BigInt(hi) << 32n) | BigInt(this.lastLo);
  }

  /** The next 32 random bits (the upper half of u64, as rand's xoshiro gives next_u32). */
  u32(): number {
    return this.u64Parts();
  }

  /** An integer uniform in [lo, hi) (lo < hi, |hi - lo| < 2^64): `Uniform::from(lo..hi)`. */
  bigRange(lo: bigint, hi: bigint): bigint {
    const span = BigInt.asUintN(64, hi - lo);
    if (span === 0n) return BigInt.asIntN(64, this.u64());
    const zone = MASK - ((MASK - span + 1n) % span);
    for (;;) {
      const m = this.u64() * span;
      if ((m & MASK) <= zone) return lo + (m >> 64n);
    }
  }

  /** An integer uniform in [lo, hi) (safe integers, lo < hi): bigRange's draws, in numbers for a span below 2^32. */
  range(lo: number, hi: number): number {
    const span = hi - lo;
    if (span >= TWO_32) return lo + Number(this.bigRange(0n, BigInt(span)));
    // reject the draws whose low 64 bits of draw × span are >= 2^64 - (2^64 mod span)
    const r32 = TWO_32 % span;
    const reject = (((r32 * 65536) % span) * 65536) % span;
    for (;;) {
      const vh = this.u64Parts();
      const vl = this.lastLo;
      // draw × span = vh × span × 2^32 + vl × span
      const ah = mul32(vl, span);
      const al = lastLow;
      const bh = mul32(vh, span);
      const mid = lastLow + ah;
      const high = bh + (mid >= TWO_32 ? 1 : 0);
      const lowHigh = mid % TWO_32;
      if (reject === 0 || lowHigh !== TWO_32 - 1 || al < TWO_32 - reject) return lo + high;
    }
  }

  /** An integer uniform in [0, n) (1 <= n <= 2^53). */
  below(n: number): number {
    return this.range(0, n);
  }

  /** A float in [0, 1) from 52 bits (rand's UniformFloat draws). */
  float(): number {
    return Number(this.u64() >> 12n) / TWO_52;
  }

  /** A float in [0, 1) from 53 bits (rand's Standard f64, which Zipf draws). */
  standardFloat(): number {
    return Number(this.u64() >> 11n) / TWO_53;
  }

  /** `len` alphanumeric characters ([A-Za-z0-9]), as rand's Alphanumeric draws them. */
  alnum(len: number): string {
    return alphanumeric(len, () => this.u32());
  }

  /** A Zipf-distributed rank in [1, n] (ZipfTable's rejection-inversion, drawing rand's Standard f64). */
  zipf(z: ZipfTable): number {
    return z.sample(() => this.standardFloat());
  }
}
