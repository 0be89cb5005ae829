/** Linear operators: their incremental form is the operator itself (DBSP), no state. */
import { rowsProduced } from '../step-guard.js';
import type { Row, Value } from '../types/values.js';
import { type Delta, type Operator } from './zset.js';

export class FilterOp implements Operator {
  constructor(private readonly pred: (row: Row) => Value) {}
  step([d]: Delta[]): Delta {
    const out: Delta = [];
    for (const e of d!) if (this.pred(e[0]) === true) out.push(e);
    return out;
  }
  stateSize(): number {
    return 0;
  }
}

export class MapOp implements Operator {
  private readonly project: (row: Row) => Row;
  constructor(fns: Array<(row: Row) => Value>) {
    this.project = projection(fns);
  }
  step([d]: Delta[]): Delta {
    const project = this.project;
    const out: Delta = new Array(d!.length);
    rowsProduced(d!.length); // rows made: the step's guard, if any, may stop a step grown too big
    for (let i = 0; i < d!.length; i++) {
      const [row, w] = d![i]!;
      out[i] = [project(row), w];
    }
    return out;
  }
  stateSize(): number {
    return 0;
  }
}

/** Each input row becomes zero or more output rows (TUMBLE/HOP add window columns). */
export class FlatMapOp implements Operator {
  constructor(private readonly fn: (row: Row) => Row[]) {}
  step([d]: Delta[]): Delta {
    const out: Delta = [];
    for (const [row, w] of d!) for (const r of this.fn(row)) out.push([r, w]);
    return out;
  }
  stateSize(): number {
    return 0;
  }
}

/** UNION ALL (and negation, for weights given per input). */
export class UnionOp implements Operator {
  constructor(private readonly signs: number[]) {}
  step(inputs: Delta[]): Delta {
    const out: Delta = [];
    inputs.forEach((d, i) => {
      const s = this.signs[i]!;
      for (const [row, w] of d) out.push([row, w * s]);
    });
    return out;
  }
  stateSize(): number {
    return 0;
  }
}

/** A constant relation (VALUES, SELECT without FROM): emitted once at circuit start. */
export class ConstantOp implements Operator {
  constructor(private readonly rows: Row[]) {}
  init(): Delta {
    return this.rows.map((r) => [r, 1] as [Row, number]);
  }
  step(): Delta {
    return [];
  }
  stateSize(): number {
    return this.rows.length;
  }
}

/**
 * The row of the values fns[0](row), fns[1](row), ... (computed in that order), made by one array literal:
 * the row is allocated at its size with room for any value at once (filled cell by cell from new Array(n),
 * its storage is reallocated as a number, then another value, is written into it).
 */
function projection(fns: Array<(row: Row) => Value>): (row: Row) => Row {
  const n = fns.length;
  if (n === 0 || n > 256) {
    return (row) => {
      const r: Row = new Array(n);
      for (let j = 0; j < n; j++) r[j] = fns[j]!(row);
      return r;
    };
  }
  const names = fns.map((_, j) => `f${j}`);
  const make = new Function(...names, `return (row) => [${names.map((f) => `${f}(row)`).join(', ')}];`) as (...fs: Array<(row: Row) => Value>) => (row: Row) => Row;
  return make(...fns);
}
