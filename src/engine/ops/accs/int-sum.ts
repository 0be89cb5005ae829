/**
 * SUM and AVG over TINYINT..BIGINT, exact: the running sum is a number while it is a safe integer and a
 * bigint beyond (so no partial sum loses digits, whatever the order of the changes); the result is checked
 * against the argument type (SUM's result type, as Feldera's) only when read, so a step's result does not
 * depend on the order of its changes. Retractable as every accumulator (add(v, -w) undoes add(v, w)).
 */
import type { Acc } from '../aggregate.js';
import type { TypeKind } from '../../types/types.js';
import { checkInt, normInt, type Int, type IntSite } from '../../types/int64.js';
import type { Value } from '../../types/values.js';

export class SumIntAcc implements Acc {
  s: Int = 0;
  n = 0;
  constructor(
    protected readonly kind: TypeKind,
    protected readonly site: IntSite,
  ) {}
  add(v: Value, w: number): void {
    this.n += w;
    const s = this.s;
    if (typeof v === 'number' && typeof s === 'number') {
      const p = v * w;
      if (Number.isSafeInteger(p)) {
        const r = s + p;
        if (Number.isSafeInteger(r)) {
          this.s = r;
          return;
        }
      }
    }
    this.s = normInt(BigInt(s) + BigInt(v as Int) * BigInt(w));
  }
  result(): Value {
    return this.n === 0 ? null : checkInt(this.s, this.kind, this.site);
  }
  empty(): boolean {
    return this.n === 0 && (this.s === 0 || this.s === 0n);
  }
}

/** Integer AVG truncates toward zero (as Calcite); the average of in-range values is in range. */
export class AvgIntAcc extends SumIntAcc {
  override result(): Value {
    if (this.n === 0) return null;
    const s = this.s;
    if (typeof s === 'number') {
      const r = Math.trunc(s / this.n);
      return r === 0 ? 0 : r;
    }
    return normInt(s / BigInt(this.n));
  }
}
