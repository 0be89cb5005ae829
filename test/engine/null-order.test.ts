/**
 * Where NULLs sort when an ORDER BY does not say (CompileOptions.nulls): a program's as Feldera's compiler
 * (Calcite's NullCollation.LOW: smaller than any value, so first ascending and last descending), an ad-hoc
 * query's as DataFusion (larger: last ascending, first descending). In a query's ORDER BY ... LIMIT, a
 * window's ORDER BY and an aggregate's.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions, type JsonValue } from '../../src/engine/index.js';

const TABLE = 'CREATE TABLE t (id INT NOT NULL, v INT);\n';
const ROWS = [
  { id: 1, v: 5 },
  { id: 2, v: null },
  { id: 3, v: 1 },
  { id: 4, v: 9 },
];

function view(sql: string, options: CompileOptions = {}): JsonValue[] {
  const r = compile(TABLE + `CREATE VIEW q AS ${sql};`, { outputCase: 'lower', ...options });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const c = r.program.newCircuit();
  c.step(ROWS.map((row) => ({ table: 't', op: 'insert' as const, row })));
  return c
    .contents('q')
    .map((x) => (Object.values(x.row).length === 1 ? Object.values(x.row)[0]! : x.row))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('NULL order', () => {
  it("a program's ORDER BY ... LIMIT: NULLs first ascending, last descending, unless it says", () => {
    expect(view('SELECT v FROM t ORDER BY v LIMIT 2')).toEqual([1, null]);
    expect(view('SELECT v FROM t ORDER BY v DESC LIMIT 3')).toEqual([1, 5, 9]);
    expect(view('SELECT v FROM t ORDER BY v NULLS LAST LIMIT 2')).toEqual([1, 5]);
    expect(view('SELECT v FROM t ORDER BY v DESC NULLS FIRST LIMIT 1')).toEqual([null]);
  });

  it("a window's and an aggregate's ORDER BY the same", () => {
    expect(view('SELECT id FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY v) AS rn FROM t) WHERE rn = 1')).toEqual([2]);
    expect(view('SELECT id FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn FROM t) WHERE rn = 4')).toEqual([2]);
    expect(view('SELECT ARRAY_AGG(v ORDER BY v) AS a FROM t')).toEqual([[null, 1, 5, 9]]);
    expect(view('SELECT ARRAY_AGG(v ORDER BY v DESC) AS a FROM t')).toEqual([[9, 5, 1, null]]);
  });

  it("an ad-hoc query's (nulls: 'high', DataFusion's): NULLs last ascending, first descending", () => {
    expect(view('SELECT v FROM t ORDER BY v LIMIT 2', { nulls: 'high' })).toEqual([1, 5]);
    expect(view('SELECT v FROM t ORDER BY v DESC LIMIT 1', { nulls: 'high' })).toEqual([null]);
    expect(view('SELECT v FROM t ORDER BY v NULLS FIRST LIMIT 1', { nulls: 'high' })).toEqual([null]);
    expect(view('SELECT ARRAY_AGG(v ORDER BY v) AS a FROM t', { nulls: 'high' })).toEqual([[1, 5, 9, null]]);
  });
});

describe('ORDER BY ... LIMIT on an ARRAY', () => {
  // a query sorts on any key (only a window's OVER is refused an ARRAY or MAP key, as Feldera's compiler does)
  it('sorts the arrays, element by element, NULLs first ascending', () => {
    const r = compile('CREATE TABLE a (id INT NOT NULL, xs INT ARRAY);\nCREATE VIEW q AS SELECT id, xs FROM a ORDER BY xs DESC LIMIT 2;', { outputCase: 'lower' });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
    const c = r.program.newCircuit();
    const rows = [
      { id: 1, xs: [1, 2] },
      { id: 2, xs: [3] },
      { id: 3, xs: null },
      { id: 4, xs: [1, 2, 0] },
    ];
    c.step(rows.map((row) => ({ table: 'a', op: 'insert' as const, row })));
    expect(
      c
        .contents('q')
        .map((x) => x.row.id)
        .sort(),
    ).toEqual([2, 4]);
    const w = compile('CREATE TABLE a (id INT NOT NULL, xs INT ARRAY);\nCREATE VIEW q AS SELECT COUNT(*) OVER (ORDER BY xs) AS n FROM a;');
    expect(w.ok).toBe(false);
  });
});
