/**
 * A circuit's step guard (CircuitOptions.guard): called as joins produce rows, it may stop the step; the
 * step then throws the guard's error and the circuit refuses to step again; without a guard nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { compile, type InputChange } from '../../src/engine/index.js';
import { GUARD_ROWS, GUARD_WORK } from '../../src/engine/step-guard.js';
import { stepRowsBuilt } from '../../src/engine/index.js';

const SQL = 'CREATE TABLE a (x INT); CREATE TABLE b (y INT); CREATE VIEW j AS SELECT x, y FROM a, b; CREATE VIEW c AS SELECT COUNT(*) AS n FROM a;';
const program = () => {
  const r = compile(SQL);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
};
const rows = (table: string, col: string, n: number): InputChange[] => Array.from({ length: n }, (_, i) => ({ table, op: 'insert', row: { [col]: i } }));

describe('step guard', () => {
  it('is called as a join produces rows, about once per GUARD_ROWS pairs, and not for a step without joins', () => {
    let calls = 0;
    const circuit = program().newCircuit({ guard: () => void calls++ });
    circuit.step(rows('A', 'X', 10)); // no pairs yet: b is empty
    expect(calls).toBe(0);
    const r = circuit.step(rows('B', 'Y', 3300)); // 10 x 3,300 = 33,000 pairs: two GUARD_ROWS crossed
    expect(r.changes.get('J')).toHaveLength(33_000);
    expect(calls).toBe(Math.floor(33_000 / GUARD_ROWS));
  });

  it('a guard that throws stops the step with its error; the circuit then refuses to step; another circuit is unaffected', () => {
    const p = program();
    const stop = new Error('too big');
    const guarded = p.newCircuit({
      guard: () => {
        throw stop;
      },
    });
    const free = p.newCircuit();
    guarded.step(rows('A', 'X', 100));
    free.step(rows('A', 'X', 100));
    expect(() => guarded.step(rows('B', 'Y', 1000))).toThrow(stop);
    expect(() => guarded.step(rows('B', 'Y', 1))).toThrow(/stopped by its guard/);
    const r = free.step(rows('B', 'Y', 1000));
    expect(r.changes.get('J')).toHaveLength(100_000);
  });

  it("a guard that throws while a step's input is converted stops the step with its own error too", () => {
    // (it escaped as the guard's wrapper, 'the step was stopped by its guard': an ad-hoc query whose time
    // limit passed while its tables were copied answered 500 rather than its 400)
    const stop = new Error('too long');
    const circuit = program().newCircuit({
      guard: () => {
        throw stop;
      },
    });
    expect(() => circuit.step(rows('A', 'X', GUARD_ROWS + 1))).toThrow(stop);
    expect(() => circuit.step(rows('A', 'X', 1))).toThrow(/stopped by its guard/);
  });

  it("the guard is only its own circuit's: another circuit's steps do not call it", () => {
    let calls = 0;
    const p = program();
    const a = p.newCircuit({ guard: () => void calls++ });
    a.step(rows('A', 'X', 100));
    a.step(rows('B', 'Y', 1000)); // 100,000 pairs: called
    const seen = calls;
    expect(seen).toBeGreaterThan(0);
    const b = p.newCircuit();
    b.step(rows('A', 'X', 100));
    b.step(rows('B', 'Y', 1000));
    expect(calls).toBe(seen);
  });

  it('string work counts too: a step of one row whose text is long calls the guard, which can stop it', () => {
    const r = compile("CREATE TABLE t (s VARCHAR); CREATE VIEW m AS SELECT s RLIKE '(a+)+b' AS hit, REGEXP_REPLACE(s, 'ab', 'c') AS r FROM t;");
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    let calls = 0;
    const text = 'a'.repeat(GUARD_WORK);
    r.program.newCircuit({ guard: () => void calls++ }).step([{ table: 'T', op: 'insert', row: { S: text } }]);
    expect(calls).toBeGreaterThanOrEqual(2); // the match, then the replacement's search
    const stop = new Error('out of time');
    const stopped = r.program.newCircuit({
      guard: () => {
        throw stop;
      },
    });
    expect(() => stopped.step([{ table: 'T', op: 'insert', row: { S: text } }])).toThrow(stop);
  });

  it('stepRowsBuilt tells the guard the rows the step has built so far', () => {
    const seen: number[] = [];
    const circuit = program().newCircuit({ guard: () => void seen.push(stepRowsBuilt()) });
    circuit.step(rows('A', 'X', 100));
    circuit.step(rows('B', 'Y', 1000)); // 100,000 pairs
    expect(seen.length).toBeGreaterThan(2);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)!).toBeGreaterThanOrEqual(90_000);
    expect(seen.at(-1)!).toBeLessThanOrEqual(250_000);
  });
});
