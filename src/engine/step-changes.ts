/**
 * The changes of one step, by output name. Rows are turned into their JSON form only when a relation's
 * changes are read, so a step pays nothing for the outputs nobody watches (a table's own changes, most
 * often). Reading the same relation twice returns the same array.
 */
import type { WeightedRow } from './api.js';

export class StepChanges implements ReadonlyMap<string, WeightedRow[]> {
  private readonly formatters = new Map<string, () => WeightedRow[]>();
  private readonly formatted = new Map<string, WeightedRow[]>();

  /** Registers a relation that changed; `format` is called at most once, on first read. */
  add(name: string, format: () => WeightedRow[]): void {
    this.formatters.set(name, format);
  }

  get size(): number {
    return this.formatters.size;
  }

  has(name: string): boolean {
    return this.formatters.has(name);
  }

  get(name: string): WeightedRow[] | undefined {
    let rows = this.formatted.get(name);
    if (rows) return rows;
    const format = this.formatters.get(name);
    if (!format) return undefined;
    rows = format();
    this.formatted.set(name, rows);
    return rows;
  }

  keys(): MapIterator<string> {
    return this.formatters.keys();
  }

  *values(): MapIterator<WeightedRow[]> {
    for (const name of this.formatters.keys()) yield this.get(name)!;
  }

  *entries(): MapIterator<[string, WeightedRow[]]> {
    for (const name of this.formatters.keys()) yield [name, this.get(name)!];
  }

  [Symbol.iterator](): MapIterator<[string, WeightedRow[]]> {
    return this.entries();
  }

  forEach(callback: (rows: WeightedRow[], name: string, map: ReadonlyMap<string, WeightedRow[]>) => void, thisArg?: unknown): void {
    for (const [name, rows] of this.entries()) callback.call(thisArg, rows, name, this);
  }
}
