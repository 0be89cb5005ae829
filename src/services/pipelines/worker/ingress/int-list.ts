/**
 * A growable list of 32-bit integers (event numbers, line numbers) kept as runs of arithmetic sequences:
 * the usual lists (event i on line i + 1, change i from event i, every element of one line's array on that
 * line) take a few bytes in all, not 4 bytes an entry; the worst case (no two steps alike) is 12 bytes an
 * entry. get() is a binary search over the runs (constant time for the usual single run).
 */
export class IntList {
  /** Per run: index of its first entry, its first value, and the step between its entries. */
  private starts = new Int32Array(16);
  private values = new Int32Array(16);
  private steps = new Int32Array(16);
  private runs = 0;
  length = 0;

  push(v: number): void {
    const r = this.runs - 1;
    if (r >= 0) {
      const count = this.length - this.starts[r]!;
      if (count === 1) {
        this.steps[r] = v - this.values[r]!;
        this.length++;
        return;
      }
      if (this.values[r]! + count * this.steps[r]! === v) {
        this.length++;
        return;
      }
    }
    if (this.runs === this.starts.length) this.grow();
    this.starts[this.runs] = this.length;
    this.values[this.runs] = v;
    this.steps[this.runs] = 0;
    this.runs++;
    this.length++;
  }

  get(i: number): number | undefined {
    if (i < 0 || i >= this.length) return undefined;
    let lo = 0;
    let hi = this.runs - 1;
    if (i >= this.starts[hi]!) lo = hi;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return this.values[lo]! + (i - this.starts[lo]!) * this.steps[lo]!;
  }

  pop(): number | undefined {
    if (this.length === 0) return undefined;
    const v = this.last()!;
    this.length--;
    const r = this.runs - 1;
    if (this.starts[r] === this.length) this.runs--;
    return v;
  }

  last(): number | undefined {
    return this.length > 0 ? this.get(this.length - 1) : undefined;
  }

  private grow(): void {
    const n = this.starts.length * 2;
    const bigger = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.starts = bigger(this.starts);
    this.values = bigger(this.values);
    this.steps = bigger(this.steps);
  }
}
