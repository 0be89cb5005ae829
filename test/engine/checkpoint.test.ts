/**
 * Circuit.exportState / CompiledProgram.restoreCircuit: a circuit restored from a checkpoint (its parts put
 * through v8.serialize and back, as the pipeline's storage writes them) holds the same contents and gives the
 * same changes on every following step as the circuit that was never stopped: keyed and keyless tables,
 * aggregates, joins, DISTINCT, LATENESS watermarks and the state they released, emit_final's held rows, NOW().
 * A checkpoint of another program, or one cut short or damaged, is refused (EngineStateError). DOUBLE sums are
 * exact here (quarters): a rebuilt sum adds the same values in another order, so its last bits may differ, as
 * after a refused step.
 */
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, EngineStateError, type Circuit, type CircuitStatePart, type CompiledProgram, type InputChange } from '../../src/engine/index.js';

const PROGRAM = `
CREATE TABLE e (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR, k INT, v BIGINT);
CREATE TABLE p (id INT NOT NULL PRIMARY KEY, name VARCHAR, score DOUBLE);
CREATE VIEW by_k AS SELECT k, SUM(v) AS s, COUNT(*) AS n, MAX(v) AS mx FROM e GROUP BY k;
CREATE VIEW joined AS SELECT p.name, e.v FROM e JOIN p ON e.k = p.id;
CREATE VIEW names AS SELECT DISTINCT name FROM p;
CREATE VIEW hourly WITH ('emit_final' = 'window_start') AS SELECT window_start, SUM(v) AS s FROM TABLE(TUMBLE(TABLE e, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start;
CREATE VIEW total AS SELECT COUNT(*) AS n, SUM(score) AS s FROM p;
`;

function program(sql = PROGRAM): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

/** The parts as a checkpoint file holds them: each through v8's serializer. */
function roundTrip(c: Circuit): CircuitStatePart[] {
  const parts: Buffer[] = [];
  c.exportState((p) => parts.push(serialize(p)));
  return parts.map((b) => deserialize(b) as CircuitStatePart);
}

function sorted(rows: unknown[]): string[] {
  return rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).sort();
}

const RELATIONS = ['e', 'p', 'by_k', 'joined', 'names', 'hourly', 'total'];

function contentsOf(c: Circuit): Record<string, string[]> {
  return Object.fromEntries(RELATIONS.map((r) => [r, sorted(c.contents(r))]));
}

function changesOf(c: Circuit, step: InputChange[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of c.step(step).changes) out[k] = sorted(v);
  return out;
}

const ts = (minute: number): string => {
  const d = new Date(Date.UTC(2024, 0, 1) + minute * 60_000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

const change = fc.oneof(
  fc
    .record({ minute: fc.integer({ min: 0, max: 600 }), k: fc.integer({ min: 0, max: 5 }), v: fc.integer({ min: -1000, max: 1000 }), del: fc.boolean() })
    .map(({ minute, k, v, del }): InputChange => ({ table: 'e', op: del ? 'delete' : 'insert', row: { ts: ts(minute), k, v } })),
  fc
    .record({ id: fc.integer({ min: 0, max: 5 }), name: fc.constantFrom('ada', 'bob', 'cy', null), score: fc.integer({ min: -10, max: 10 }).map((n) => n / 4), del: fc.boolean() })
    .map(({ id, name, score, del }): InputChange => (del ? { table: 'p', op: 'delete', row: { id, name, score } } : { table: 'p', op: 'upsert', row: { id, name, score } })),
);

describe('circuit checkpoints', () => {
  it('a restored circuit holds what the original held and steps as it does, wherever it is cut', () => {
    const prog = program();
    fc.assert(
      fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 14 }), fc.nat(), (steps, cutAt) => {
        const cut = 1 + (cutAt % (steps.length - 1));
        const original = prog.newCircuit();
        for (const s of steps.slice(0, cut)) original.step(s);
        const restored = prog.restoreCircuit(roundTrip(original));
        expect(contentsOf(restored)).toEqual(contentsOf(original));
        for (const s of steps.slice(cut)) expect(changesOf(restored, s)).toEqual(changesOf(original, s));
        expect(contentsOf(restored)).toEqual(contentsOf(original));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the watermark: a row late before the checkpoint is late after it, and emit_final rows held come out once', () => {
    const prog = program();
    const c = prog.newCircuit();
    c.step([{ table: 'e', op: 'insert', row: { ts: '2024-01-01 10:05:00', k: 1, v: 1 } }]);
    c.step([{ table: 'e', op: 'insert', row: { ts: '2024-01-01 10:50:00', k: 1, v: 2 } }]);
    const r = prog.restoreCircuit(roundTrip(c));
    // late (watermark 09:50): dropped, so by_k does not change
    expect(r.step([{ table: 'e', op: 'insert', row: { ts: '2024-01-01 08:00:00', k: 1, v: 100 } }]).changes.get('BY_K')).toBeUndefined();
    // the held 10:00 window comes out once the watermark passes 11:00
    const out = r.step([{ table: 'e', op: 'insert', row: { ts: '2024-01-01 12:30:00', k: 2, v: 4 } }]).changes.get('HOURLY');
    expect(out).toEqual([{ row: { WINDOW_START: '2024-01-01 10:00:00', S: 3 }, weight: 1 }]);
  });

  it("keeps NOW()'s value: the next step at the same time changes nothing, a later one moves the views by the difference", () => {
    const prog = program("CREATE TABLE t (ts TIMESTAMP NOT NULL, v INT);\nCREATE VIEW recent AS SELECT v FROM t WHERE ts >= NOW() - INTERVAL '1' HOUR;");
    let now = Date.UTC(2024, 0, 1, 12);
    const clock = (): number => now;
    const c = prog.newCircuit({ clock });
    c.step([
      { table: 't', op: 'insert', row: { ts: '2024-01-01 11:30:00', v: 1 } },
      { table: 't', op: 'insert', row: { ts: '2024-01-01 11:50:00', v: 2 } },
    ]);
    const r = prog.restoreCircuit(roundTrip(c), { clock });
    expect(sorted(r.contents('recent'))).toEqual(sorted(c.contents('recent')));
    expect(r.step([]).changes.size).toBe(0);
    now = Date.UTC(2024, 0, 1, 12, 40);
    expect(r.step([]).changes.get('RECENT')).toEqual([{ row: { V: 1 }, weight: -1 }]);
  });

  it('a program whose constants and global aggregates exist before any step restores them once', () => {
    const prog = program('CREATE TABLE t (v INT);\nCREATE VIEW n AS SELECT COUNT(*) AS c FROM t;\nCREATE VIEW k AS SELECT 1 AS one;');
    const c = prog.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { v: 5 } }]);
    const r = prog.restoreCircuit(roundTrip(c));
    expect(r.contents('n')).toEqual([{ row: { C: 1 }, weight: 1 }]);
    expect(r.contents('k')).toEqual([{ row: { ONE: 1 }, weight: 1 }]);
    expect(r.step([{ table: 't', op: 'insert', row: { v: 6 } }]).changes.get('N')).toEqual([
      { row: { C: 1 }, weight: -1 },
      { row: { C: 2 }, weight: 1 },
    ]);
  });

  it('refuses the checkpoint of another program, one cut short, and damaged parts', () => {
    const prog = program();
    const c = prog.newCircuit();
    c.step([{ table: 'p', op: 'upsert', row: { id: 1, name: 'ada', score: 1 } }]);
    const parts = roundTrip(c);
    const other = program(PROGRAM.replace('score DOUBLE', 'score INT'));
    expect(() => other.restoreCircuit(parts)).toThrow(EngineStateError);
    expect(() => other.restoreCircuit(parts)).toThrow(/relations differ.*SCORE|relations differ/);
    expect(() => prog.restoreCircuit(parts.slice(0, -1))).toThrow(/ends early/);
    expect(() => prog.restoreCircuit([])).toThrow(/empty/);
    expect(() => prog.restoreCircuit(parts.slice(1))).toThrow(/does not begin/);
    const bad = parts.map((p) => (p.kind === 'rows' ? { ...p, output: 99 } : p));
    expect(() => prog.restoreCircuit(bad)).toThrow(EngineStateError);
    const wrongCount = parts.map((p) => (p.kind === 'end' ? { ...p, rows: 12345 } : p));
    expect(() => prog.restoreCircuit(wrongCount)).toThrow(/ends after/);
  });
});
