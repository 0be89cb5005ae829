/** A growable list of 32-bit integers (event numbers, line numbers): 4 bytes an entry, not a JS array's 8+. */
export class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  get(i: number): number | undefined {
    return i >= 0 && i < this.length ? this.data[i] : undefined;
  }

  pop(): number | undefined {
    return this.length > 0 ? this.data[--this.length] : undefined;
  }

  last(): number | undefined {
    return this.length > 0 ? this.data[this.length - 1] : undefined;
  }
}
