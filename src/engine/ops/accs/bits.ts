/**
 * BIT_AND / BIT_OR / BIT_XOR over integers, retractable: per bit of the 64-bit two's complement form, the
 * weight of the values with that bit set, and the total weight. OR = bits with a positive count, AND = bits set
 * in every value, XOR = bits with an odd count. A change costs O(64).
 */
import type { Value } from '../../types/values.js';
import type { Acc } from '../aggregate.js';

/** An integer value as its 64-bit pattern (values may be numbers or, for exact BIGINT, bigints). */
const toBits = (v: Value): bigint => BigInt.asUintN(64, BigInt(v as number | bigint));

export class BitAcc implements Acc {
  private readonly counts = new Array<number>(64).fill(0);
  private n = 0;
  constructor(
    private readonly op: 'AND' | 'OR' | 'XOR',
    /** Turns the signed 64-bit result into the column's value representation. */
    private readonly out: (b: bigint) => Value,
  ) {}
  add(v: Value, w: number): void {
    let b = toBits(v);
    this.n += w;
    for (let i = 0; b !== 0n; i++, b >>= 1n) if (b & 1n) this.counts[i]! += w;
  }
  result(): Value {
    if (this.n <= 0) return null;
    let r = 0n;
    for (let i = 63; i >= 0; i--) {
      const c = this.counts[i]!;
      const set = this.op === 'OR' ? c > 0 : this.op === 'AND' ? c === this.n : (c & 1) === 1;
      r = (r << 1n) | (set ? 1n : 0n);
    }
    return this.out(BigInt.asIntN(64, r));
  }
}
