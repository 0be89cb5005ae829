/**
 * SESSION windows (bind/session.ts, ops/session.ts): the documented example of Feldera's docs/sql/table.md,
 * keys, NULL timestamps and keys, named arguments, refusals, sessions merging and splitting under inserts and
 * deletes, and incremental maintenance vs a fresh evaluation.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile, type CompiledProgram, type InputChange, type JsonRow, type WeightedRow } from '../../src/engine/index.js';

const TABLE = 'CREATE TABLE orders (id INT, product VARCHAR, rowtime TIMESTAMP, d DATE);';

function prog(view: string): CompiledProgram {
  const r = compile(`${TABLE} CREATE VIEW v AS ${view};`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

function rowsOf(list: WeightedRow[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of list) {
    if (weight < 0) out.push(`NEGATIVE ${weight} ${JSON.stringify(row)}`);
    for (let i = 0; i < weight; i++) out.push(JSON.stringify(row));
  }
  return out.sort();
}

const at = (hhmm: string): string => `2024-05-01 ${hhmm}:00`;
const order = (id: number, hhmm: string | null, product: string | null = 'p'): JsonRow => ({ id, product, rowtime: hhmm === null ? null : at(hhmm), d: null });
const ins = (row: JsonRow): InputChange => ({ table: 'orders', op: 'insert', row });
const del = (row: JsonRow): InputChange => ({ table: 'orders', op: 'delete', row });

const SESSIONS = "SELECT id, window_start, window_end FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime), INTERVAL '10' MINUTE))";

describe('SESSION', () => {
  it('groups rows less than size apart: the documented 10-minute example', () => {
    const c = prog(SESSIONS).newCircuit();
    c.step(['10:00', '10:04', '10:13', '10:20', '10:32', '10:36', '10:40', '10:51'].map((t, i) => ins(order(i + 1, t))));
    const s = (id: number, start: string, end: string) => JSON.stringify({ id, window_start: at(start), window_end: at(end) });
    expect(rowsOf(c.contents('v'))).toEqual(
      [
        s(1, '10:00', '10:30'),
        s(2, '10:00', '10:30'),
        s(3, '10:00', '10:30'),
        s(4, '10:00', '10:30'),
        s(5, '10:32', '10:50'),
        s(6, '10:32', '10:50'),
        s(7, '10:32', '10:50'),
        s(8, '10:51', '11:01'),
      ].sort(),
    );
  });

  it('a gap of exactly size starts a new session; a NULL timestamp gives no row', () => {
    const c = prog(SESSIONS).newCircuit();
    c.step([ins(order(1, '10:00')), ins(order(2, '10:10')), ins(order(3, null))]);
    expect(rowsOf(c.contents('v'))).toEqual([
      JSON.stringify({ id: 1, window_start: at('10:00'), window_end: at('10:10') }),
      JSON.stringify({ id: 2, window_start: at('10:10'), window_end: at('10:20') }),
    ]);
  });

  it('sessions are formed per key; a NULL key is a key; named arguments', () => {
    const c = prog(
      "SELECT id, product, window_start, window_end FROM TABLE(SESSION(DATA => TABLE orders, TIMECOL => DESCRIPTOR(rowtime), KEY => DESCRIPTOR(product), SIZE => INTERVAL '20' MINUTE))",
    ).newCircuit();
    c.step([ins(order(1, '10:00', 'a')), ins(order(2, '10:15', 'b')), ins(order(3, '10:19', 'a')), ins(order(4, '10:30', null)), ins(order(5, '10:45', null))]);
    const s = (id: number, product: string | null, start: string, end: string) => JSON.stringify({ id, product, window_start: at(start), window_end: at(end) });
    expect(rowsOf(c.contents('v'))).toEqual([s(1, 'a', '10:00', '10:39'), s(3, 'a', '10:00', '10:39'), s(2, 'b', '10:15', '10:35'), s(4, null, '10:30', '11:05'), s(5, null, '10:30', '11:05')].sort());
  });

  it('an insert that bridges two sessions merges them; deleting it splits them again (the changes say so)', () => {
    const c = prog(SESSIONS).newCircuit();
    c.step([ins(order(1, '10:00')), ins(order(2, '10:16'))]);
    const bridge = order(3, '10:08');
    const merged = c.step([ins(bridge)]).changes.get('v')!;
    const sess = (id: number, start: string, end: string) => ({ id, window_start: at(start), window_end: at(end) });
    expect(rowsOf(merged.filter((x) => x.weight > 0))).toEqual(rowsOf([sess(1, '10:00', '10:26'), sess(2, '10:00', '10:26'), sess(3, '10:00', '10:26')].map((row) => ({ row, weight: 1 }))));
    expect(rowsOf(merged.filter((x) => x.weight < 0).map((x) => ({ row: x.row, weight: -x.weight })))).toEqual(
      rowsOf([sess(1, '10:00', '10:10'), sess(2, '10:16', '10:26')].map((row) => ({ row, weight: 1 }))),
    );
    c.step([del(bridge)]);
    expect(rowsOf(c.contents('v'))).toEqual(rowsOf([sess(1, '10:00', '10:10'), sess(2, '10:16', '10:26')].map((row) => ({ row, weight: 1 }))));
  });

  it('feeds aggregates: one row per session', () => {
    const c = prog(
      "SELECT product, window_start, window_end, COUNT(*) AS n FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime), DESCRIPTOR(product), INTERVAL '5' MINUTE)) GROUP BY product, window_start, window_end",
    ).newCircuit();
    c.step([ins(order(1, '10:00', 'a')), ins(order(2, '10:03', 'a')), ins(order(3, '10:20', 'a')), ins(order(4, '10:01', 'b'))]);
    expect(rowsOf(c.contents('v'))).toEqual(
      [
        { product: 'a', window_start: at('10:00'), window_end: at('10:08'), n: 2 },
        { product: 'a', window_start: at('10:20'), window_end: at('10:25'), n: 1 },
        { product: 'b', window_start: at('10:01'), window_end: at('10:06'), n: 1 },
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });

  it('with a LATENESS time column, sessions that can no longer change leave the state; late rows are dropped', () => {
    const circuit = (lateness: string) => {
      const r = compile(
        `CREATE TABLE ev (id INT, at TIMESTAMP NOT NULL ${lateness}); CREATE VIEW v AS SELECT id, window_start, window_end FROM TABLE(SESSION(TABLE ev, DESCRIPTOR(at), INTERVAL '10' MINUTE));`,
        { outputCase: 'lower' },
      );
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.program.newCircuit();
    };
    const c = circuit("LATENESS INTERVAL '5' MINUTE");
    const control = circuit('');
    const ev = (id: number, hhmm: string): InputChange => ({ table: 'ev', op: 'insert', row: { id, at: at(hhmm) } });
    for (const k of [c, control]) k.step([ev(1, '10:00'), ev(2, '10:03')]);
    expect(c.stateSize()).toBe(control.stateSize());
    // watermark 10:55 - 5 min = 10:50: the session [10:00, 10:13) is final, its two rows leave the operator's state
    for (const k of [c, control]) k.step([ev(3, '10:55')]);
    expect(control.stateSize() - c.stateSize()).toBe(2);
    // a late row (before the watermark) changes nothing; a row after it joins the open session
    expect(c.step([ev(4, '10:05')]).changes.get('v') ?? []).toEqual([]);
    c.step([ev(5, '10:58')]);
    const s = (id: number, start: string, end: string) => JSON.stringify({ id, window_start: at(start), window_end: at(end) });
    expect(rowsOf(c.contents('v'))).toEqual([s(1, '10:00', '10:13'), s(2, '10:00', '10:13'), s(3, '10:55', '11:08'), s(5, '10:55', '11:08')].sort());
  });

  it.each([
    ['a DATE time column', "SELECT * FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(d), INTERVAL '1' DAY))", /SESSION needs a TIMESTAMP column/],
    ['a non-constant size', 'SELECT * FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime), id))', /SESSION size must be a constant day-time INTERVAL/],
    ['a zero size', "SELECT * FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime), INTERVAL '0' MINUTE))", /SESSION size must be positive/],
    ['a missing size', 'SELECT * FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime)))', /SESSION takes/],
  ])('refuses %s with a clear error', (_what, view, message) => {
    const r = compile(`${TABLE} CREATE VIEW v AS ${view};`);
    expect(r.ok ? '' : r.errors.map((e) => e.message).join('; ')).toMatch(message);
  });

  it('is maintained incrementally: inserts and deletes give what a fresh evaluation gives', () => {
    const p = prog("SELECT * FROM TABLE(SESSION(TABLE orders, DESCRIPTOR(rowtime), DESCRIPTOR(product), INTERVAL '10' MINUTE))");
    const row = fc.record({
      id: fc.integer({ min: 0, max: 3 }),
      product: fc.option(fc.constantFrom('a', 'b'), { freq: 5 }),
      rowtime: fc.option(
        fc.integer({ min: 0, max: 60 }).map((m) => `2024-05-01 10:${String(m % 60).padStart(2, '0')}:00`),
        { freq: 8 },
      ),
      d: fc.constant(null),
    });
    const op = fc.oneof(
      row.map((r) => ({ row: r as JsonRow })),
      fc.record({ del: fc.nat(30) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (steps) => {
        const c = p.newCircuit();
        const live: JsonRow[] = [];
        for (const s of steps) {
          const batch: InputChange[] = [];
          for (const o of s) {
            if ('row' in o) {
              live.push(o.row);
              batch.push(ins(o.row));
            } else if (live.length) batch.push(del(live.splice(o.del % live.length, 1)[0]!));
          }
          c.step(batch);
        }
        const fresh = p.newCircuit();
        fresh.step(live.map(ins));
        expect(rowsOf(c.contents('v'))).toEqual(rowsOf(fresh.contents('v')));
      }),
      { numRuns: 100 },
    );
  });
});
