/**
 * Differential tests: random change sequences (fast-check) applied to the engine and, as table contents,
 * to PGlite; after every step each view's integrated contents must equal Postgres's answer (as multisets).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile, type CompiledProgram, type InputChange } from '../../src/engine/index.js';
import { Oracle, norm, type Model } from './oracle.js';
import { VIEWS, programSql, pgProgramSql } from './corpus.js';

const COLS: Record<string, string[]> = {
  t: ['id', 'a', 'b', 's', 'd', 'x', 'ts', 'flag', 'dt'],
  u: ['id', 'a', 'c', 's'],
  k: ['id', 'name', 'grp'],
};

const small = (lo: number, hi: number) => fc.option(fc.integer({ min: lo, max: hi }), { freq: 5 });
const str = fc.option(fc.constantFrom('a', 'b', 'ab', 'ba', '', 'c'), { freq: 5 });
const tRow = fc.record({
  id: fc.integer({ min: 0, max: 9 }),
  a: small(0, 4),
  b: small(-3, 3),
  s: str,
  d: fc.option(fc.constantFrom('1.50', '-2.25', '0.00', '10.10', '3.33'), { freq: 5 }),
  x: fc.option(fc.constantFrom(0.5, 1.25, -3, 2), { freq: 5 }),
  ts: fc.option(fc.constantFrom('2024-01-01 10:00:00', '2024-01-01 10:30:00', '2024-01-01 11:15:00', '2024-01-01 13:00:00', '2024-01-02 00:00:00'), { freq: 5 }),
  flag: fc.option(fc.boolean(), { freq: 5 }),
  dt: fc.option(fc.constantFrom('2024-01-01', '2024-01-02', '2024-02-29', '2023-12-31'), { freq: 5 }),
});
const uRow = fc.record({ id: fc.integer({ min: 0, max: 9 }), a: small(0, 4), c: small(-2, 3), s: str });
const kRow = fc.record({ id: fc.integer({ min: 0, max: 5 }), name: fc.option(fc.constantFrom('x', 'y', 'z'), { freq: 5 }), grp: small(0, 2) });

type Op = { kind: 'ins'; table: 't' | 'u' | 'k'; row: Record<string, unknown> } | { kind: 'del'; table: 't' | 'u' | 'k'; pick: number } | { kind: 'upd'; pick: number; set: Record<string, unknown> };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: tRow.map((row) => ({ kind: 'ins' as const, table: 't' as const, row })) },
  { weight: 3, arbitrary: uRow.map((row) => ({ kind: 'ins' as const, table: 'u' as const, row })) },
  { weight: 2, arbitrary: kRow.map((row) => ({ kind: 'ins' as const, table: 'k' as const, row })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('del' as const), table: fc.constantFrom('t' as const, 'u' as const, 'k' as const), pick: fc.nat(50) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('upd' as const),
      pick: fc.nat(50),
      set: fc.oneof(
        kRow.map((r) => ({ name: r.name })),
        kRow.map((r) => ({ grp: r.grp })),
        kRow.map((r) => ({ name: r.name, grp: r.grp })),
      ),
    }),
  },
);
const stepsArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 });

let oracle: Oracle;
let program: CompiledProgram;

beforeAll(async () => {
  const r = compile(programSql(), { outputCase: 'lower' });
  if (!r.ok) throw new Error('corpus does not compile: ' + JSON.stringify(r.errors, null, 1));
  program = r.program;
  oracle = new Oracle();
  await oracle.init(pgProgramSql());
}, 120_000);

afterAll(async () => {
  await oracle?.db?.close();
});

function engineContents(c: ReturnType<CompiledProgram['newCircuit']>, view: string): string[] {
  const schema = program.relation(view)!;
  const out: string[] = [];
  for (const { row, weight } of c.contents(view)) {
    const line = schema.columns.map((col) => norm(row[col.name])).join(' | ');
    for (let i = 0; i < weight; i++) out.push(line);
    if (weight < 0) out.push(`NEGATIVE WEIGHT ${weight}: ${line}`);
  }
  return out.sort();
}

async function runSequence(steps: Op[][]): Promise<string[]> {
  const circuit = program.newCircuit();
  const model: Model = { t: [], u: [], k: [] };
  const failures: string[] = [];
  // a watcher that reads a snapshot first: the contents at creation plus every step's changes
  const integrated = new Map<string, Map<string, number>>();
  for (const v of VIEWS) {
    const acc = new Map<string, number>();
    for (const { row, weight } of circuit.contents(v.name)) acc.set(JSON.stringify(row), weight);
    if (acc.size) integrated.set(v.name, acc);
  }
  for (const step of steps) {
    const changes: InputChange[] = [];
    for (const op of step) {
      const rows = model[op.kind === 'upd' ? 'k' : op.table]!;
      if (op.kind === 'ins') {
        if (op.table === 'k') {
          const i = rows.findIndex((r) => r.id === op.row.id);
          if (i >= 0) rows.splice(i, 1);
        }
        rows.push(op.row);
        changes.push({ table: op.table, op: 'insert', row: op.row as never });
      } else if (op.kind === 'upd') {
        const krows = model.k!;
        if (!krows.length) continue;
        const row = krows[op.pick % krows.length]!;
        Object.assign(row, op.set);
        changes.push({ table: 'k', op: 'update', row: { id: row.id, ...op.set } as never });
      } else {
        if (!rows.length) continue;
        const [row] = rows.splice(op.pick % rows.length, 1);
        changes.push({ table: op.table, op: 'delete', row: (op.table === 'k' ? { id: row!.id } : row) as never });
      }
    }
    const res = circuit.step(changes);
    // the step's output changes, integrated, must equal the contents
    for (const [name, delta] of res.changes) {
      const acc = integrated.get(name) ?? new Map<string, number>();
      for (const { row, weight } of delta) {
        const k = JSON.stringify(row);
        const w = (acc.get(k) ?? 0) + weight;
        if (w === 0) acc.delete(k);
        else acc.set(k, w);
      }
      integrated.set(name, acc);
    }
    await oracle.load(model, COLS);
    const expected = await oracle.contents(VIEWS.map((v) => v.name));
    for (const v of VIEWS) {
      const fromChanges = [...(integrated.get(v.name) ?? new Map<string, number>())].map(([k, w]) => `${w}:${k}`).sort();
      const contents = circuit
        .contents(v.name)
        .map(({ row, weight }) => `${weight}:${JSON.stringify(row)}`)
        .sort();
      if (JSON.stringify(fromChanges) !== JSON.stringify(contents))
        failures.push(`${v.name}: integrated changes differ from contents\n  ${JSON.stringify(fromChanges)}\n  ${JSON.stringify(contents)}`);
      const got = engineContents(circuit, v.name);
      const want = expected.get(v.name)!;
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        failures.push(`${v.name}: ${v.sql}\n  engine:   ${JSON.stringify(got)}\n  postgres: ${JSON.stringify(want)}`);
      }
    }
    if (failures.length) break;
  }
  return failures;
}

describe('differential: engine vs PGlite', () => {
  it('has a corpus of at least 60 views', () => {
    expect(VIEWS.length).toBeGreaterThanOrEqual(60);
  });

  it('integrated view contents equal Postgres after every step', async () => {
    await fc.assert(
      fc.asyncProperty(stepsArb, async (steps) => {
        const failures = await runSequence(steps);
        if (failures.length) throw new Error(failures.slice(0, 5).join('\n'));
      }),
      { numRuns: Number(process.env.DIFF_RUNS ?? 20), seed: process.env.DIFF_SEED ? Number(process.env.DIFF_SEED) : undefined, endOnFailure: true },
    );
  }, 300_000);
});
