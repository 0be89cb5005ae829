/**
 * Aggregates of the registry (src/engine/bind/fns/aggregate.ts, state in src/engine/ops/accs/): documented
 * results as table-driven cases (NULL and empty inputs included), and incremental maintenance under random
 * inserts and deletes checked against a full re-evaluation of the same rows after every step (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type CompiledProgram, type WeightedRow } from '../../src/engine/index.js';

const TABLE = 'CREATE TABLE t (g INT, v INT, k INT, x DOUBLE, d DECIMAL(8, 2), b BOOLEAN, s VARCHAR);';

function prog(sql: string): CompiledProgram {
  const r = compile(TABLE + sql);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

type TRow = [number | null, number | null, number | null, number | null, string | null, boolean | null, string | null];

/** One aggregate over the given rows (no GROUP BY): the single output value. */
function agg(expr: string, rows: TRow[]): unknown {
  const c = prog(`CREATE VIEW v AS SELECT ${expr} AS r FROM t;`).newCircuit();
  c.step(rows.map((row) => ({ table: 't', op: 'insert' as const, row: row as never })));
  return c.contents('v')[0]!.row.R;
}

const R = (v: number | null, k: number | null = null, s: string | null = null, b: boolean | null = null, x: number | null = null, d: string | null = null): TRow => [1, v, k, x, d, b, s];

describe('ARG_MAX and ARG_MIN with FILTER and GROUP BY, Feldera-style (a table, a view, the rows Feldera answers)', () => {
  it('answer the value of the only filtered row of a group even where its compared is NULL', () => {
    const p = prog(`CREATE VIEW m AS SELECT g,
      ARG_MAX(s, k) FILTER (WHERE v > 2) AS amax, ARG_MIN(s, k) FILTER (WHERE v > 2) AS amin,
      ARG_MAX(k, v) FILTER (WHERE v > 2) AS kmax, ARG_MIN(v, k) AS vmin
      FROM t GROUP BY g;`);
    const c = p.newCircuit();
    const row = (g: number, v: number, k: number | null, s: string | null) => ({ table: 't', op: 'insert' as const, row: { G: g, V: v, K: k, S: s } });
    c.step([row(0, 5, 3, 'x'), row(0, 1, 9, 'big-but-filtered'), row(0, 4, null, 'nokey'), row(1, 1, 2, 'filtered'), row(1, 3, null, 'only'), row(2, 7, null, 'p'), row(2, 8, null, 'q')]);
    const byG = Object.fromEntries(c.contents('m').map(({ row: r }) => [r.G as number, r]));
    // group 0: the filtered rows are (v 5, k 3) and (v 4, k NULL): a known k wins
    expect(byG[0]).toEqual({ G: 0, AMAX: 'x', AMIN: 'x', KMAX: 3, VMIN: 5 });
    // group 1: one row passes the filter, its k NULL: still its value (NULL before Feldera's semantics)
    expect(byG[1]).toEqual({ G: 1, AMAX: 'only', AMIN: 'only', KMAX: null, VMIN: 1 });
    // group 2: every k NULL: the largest value for ARG_MAX, the smallest for ARG_MIN
    expect(byG[2]).toEqual({ G: 2, AMAX: 'q', AMIN: 'p', KMAX: null, VMIN: 7 });
    // and incrementally: a row with a known k arrives, then leaves
    c.step([row(1, 6, 1, 'known')]);
    expect(c.contents('m').find(({ row: r }) => r.G === 1)!.row).toMatchObject({ AMAX: 'known', AMIN: 'known' });
    c.step([{ ...row(1, 6, 1, 'known'), op: 'delete' as const }]);
    expect(c.contents('m').find(({ row: r }) => r.G === 1)!.row).toMatchObject({ AMAX: 'only', AMIN: 'only' });
  });
});

describe('ARRAY_AGG without ORDER BY lists elements in the order of the aggregate input row, as Feldera', () => {
  const row = (g: number, v: number | null, k: number | null, s: string | null) => ({ table: 't', op: 'insert' as const, row: { G: g, V: v, K: k, S: s } });
  const rows = [row(0, 9, 1, 'x'), row(0, 2, 8, 'y'), row(1, null, 5, 'p'), row(0, 2, 3, null), row(1, 4, 4, 'q'), row(1, 4, 4, 'q')];

  it('orders every call by (first argument, second argument, ...) with NULLs first, not each by its own value', () => {
    const c = prog('CREATE VIEW a AS SELECT ARRAY_AGG(v) AS av, ARRAY_AGG(k) AS ak FROM t;').newCircuit();
    c.step(rows);
    // input rows (v, k) sorted: (NULL,5) (2,3) (2,8) (4,4) (4,4) (9,1)
    expect(c.contents('a')[0]!.row).toEqual({ AV: [null, 2, 2, 4, 4, 9], AK: [5, 3, 8, 4, 4, 1] });
  });

  it('per group, with a ROW argument, and FILTER leaving a group empty answers []', () => {
    const c = prog(`CREATE VIEW a AS SELECT g, ARRAY_AGG(ROW(s, v)) AS ar, ARRAY_AGG(k) AS ak,
      ARRAY_AGG(k) FILTER (WHERE v > 5) AS af FROM t GROUP BY g;`).newCircuit();
    c.step(rows);
    const byG = Object.fromEntries(c.contents('a').map(({ row: r }) => [r.G as number, r]));
    const R2 = (s: string | null, v: number | null) => ({ EXPR$0: s, EXPR$1: v });
    // group 0 input rows ((s, v), k): ((NULL,2),3) ((x,9),1) ((y,2),8)
    expect(byG[0]).toEqual({ G: 0, AR: [R2(null, 2), R2('x', 9), R2('y', 2)], AK: [3, 1, 8], AF: [1] });
    expect(byG[1]).toEqual({ G: 1, AR: [R2('p', null), R2('q', 4), R2('q', 4)], AK: [5, 4, 4], AF: [] });
  });

  it('keeps the order through deletes', () => {
    const c = prog('CREATE VIEW a AS SELECT ARRAY_AGG(v) AS av, ARRAY_AGG(k) AS ak FROM t;').newCircuit();
    c.step(rows);
    c.step([
      { ...rows[1]!, op: 'delete' as const },
      { ...rows[4]!, op: 'delete' as const },
    ]);
    expect(c.contents('a')[0]!.row).toEqual({ AV: [null, 2, 4, 9], AK: [5, 3, 4, 1] });
    c.step(rows.filter((_, i) => i !== 1 && i !== 4).map((r) => ({ ...r, op: 'delete' as const })));
    expect(c.contents('a')[0]!.row).toEqual({ AV: [], AK: [] });
  });
});

describe('aggregate results', () => {
  const rows = [R(1, 10, 'a', true, 1.5, '1.00'), R(3, 30, 'c', false, 2.5, '2.00'), R(3, 20, 'b', true, 4, '4.00'), R(null, 40, null, null, null, null)];
  it.each<[string, TRow[], unknown]>([
    ['ARG_MAX(s, k)', rows, null], // the row with the largest k has s = NULL
    ['ARG_MAX(s, v)', rows, 'c'], // ties on v = 3: the largest value wins
    ['ARG_MIN(s, k)', rows, 'a'],
    ['ARG_MIN(k, s)', rows, 10],
    ['ARG_MAX(v, k)', [], null],
    // a NULL compared loses to any other, but counts when every compared is NULL (as Feldera's)
    ['ARG_MAX(s, k)', [R(1, null, 'a')], 'a'],
    ['ARG_MIN(s, k)', [R(1, null, 'a')], 'a'],
    ['ARG_MAX(s, k)', [R(1, null, 'a'), R(2, null, 'b')], 'b'],
    ['ARG_MIN(s, k)', [R(1, null, 'a'), R(2, null, 'b')], 'a'],
    ['ARG_MIN(s, k)', [R(1, null, 'a'), R(2, 5, 'z'), R(3, 7, 'y')], 'z'],
    ['ARG_MAX(s, k)', [R(1, null, 'z'), R(2, -5, 'a')], 'a'],
    ['ARG_MIN(s, k)', [R(1, 2, null), R(1, 2, 'x')], null], // ties: NULL is the smallest value
    ['ARG_MAX(s, k)', [R(1, 2, null), R(1, 2, 'x')], 'x'],
    ['ARG_MAX(s, k) FILTER (WHERE v > 1)', [R(1, 9, 'a'), R(2, null, 'b')], 'b'],
    ['ARG_MIN(s, k) FILTER (WHERE v > 1)', [R(1, 9, 'a'), R(2, null, 'b'), R(3, 4, 'c')], 'c'],
    ['ARG_MAX(s, k) FILTER (WHERE v > 5)', [R(1, 9, 'a')], null],
    ['ARRAY_AGG(v)', rows, [null, 1, 3, 3]],
    ['ARRAY_AGG(v IGNORE NULLS)', rows, [1, 3, 3]],
    ['ARRAY_AGG(DISTINCT v)', rows, [null, 1, 3]],
    ['ARRAY_AGG(s ORDER BY k DESC)', rows, [null, 'c', 'b', 'a']],
    ['ARRAY_AGG(s ORDER BY v, k)', rows, [null, 'a', 'b', 'c']], // NULLs first ascending (Feldera: Calcite's NullCollation.LOW)
    ['ARRAY_AGG(s ORDER BY v DESC, k)', rows, ['b', 'c', 'a', null]], // and last descending
    ['ARRAY_AGG(s ORDER BY v NULLS LAST, k)', rows, ['a', 'b', 'c', null]],
    ['ARRAY_AGG(s ORDER BY v NULLS FIRST, k)', rows, [null, 'a', 'b', 'c']],
    ['ARRAY_AGG(k) FILTER (WHERE b)', rows, [10, 20]],
    ['ARRAY_AGG(v)', [], []], // Feldera answers an empty array for no rows (its empty-set and FILTER tests)
    ['ARRAY_AGG(v) FILTER (WHERE v > 100)', rows, []],
    ['BIT_AND(v)', [R(7), R(3), R(null)], 3],
    ['BIT_OR(v)', [R(4), R(1), R(null)], 5],
    ['BIT_XOR(v)', [R(6), R(3)], 5],
    ['BIT_XOR(DISTINCT v)', [R(6), R(6), R(3)], 5],
    ['BIT_AND(v)', [R(-1), R(-2)], -2],
    ['BIT_OR(v)', [], null],
    ['COUNTIF(b)', rows, 2],
    ['COUNTIF(v > 5)', rows, 0],
    ['COUNTIF(b)', [], 0],
    ['COUNTIF(DISTINCT v > 1)', rows, 2], // Feldera counts the rows where it holds (DISTINCT of a boolean would be 1)
    ['COUNT(v, s)', rows, 3],
    ['MODE(v)', rows, 3],
    ['MODE(s)', rows, 'a'], // all tied at 1: the smallest
    ['MODE(v)', [R(null)], null],
    ['LOGICAL_AND(b)', rows, false],
    ['LOGICAL_OR(b)', rows, true],
    ['BOOL_AND(b)', [R(1, 1, null, true)], true],
    ['EVERY(b)', [], null],
    ['VAR_POP(x)', rows, 19 / 18 + 0 * 1], // values 1.5, 2.5, 4: mean 8/3
    ['VAR_SAMP(x)', rows, 19 / 12],
    ['VARIANCE(x)', rows, 19 / 12],
    ['STDDEV_POP(x)', rows, Math.sqrt(19 / 18)],
    ['STDDEV_SAMP(x)', rows, Math.sqrt(19 / 12)],
    ['STDDEV(x)', rows, Math.sqrt(19 / 12)],
    ['VAR_SAMP(x)', [R(1, 1, null, null, 2)], null],
    ['VAR_POP(x)', [R(1, 1, null, null, 2)], 0],
    ['VAR_POP(v)', rows, 1], // integers as Feldera: 1, 3, 3: (19 - 49/3) / 3 = (19 - 16) / 3 = 1 (the exact 8/9 would truncate to 0)
    ['STDDEV_SAMP(v)', [R(5), R(4)], 1], // sqrt((41 - 81/2) / 1) = 1 (sqrt 0.5 would truncate to 0)
    ['STDDEV_POP(v)', [R(5), R(4)], 0], // sqrt((41 - 40) / 2) = 0
    ['STDDEV_POP(v)', [R(4), R(2), R(2)], 1], // sqrt((24 - 64/3) / 3) = sqrt(1) (sqrt 0.89 would truncate to 0)
    ['VAR_SAMP(v)', [R(5), R(2)], 5], // (29 - 49/2) / 1 = 5 (the exact 4.5 would truncate to 4)
    ['STDDEV_SAMP(v)', [R(-3), R(2), R(7)], 5], // (62 - 36/3) / 2 = 25, root 5; negatives squared exactly
    ['VAR_SAMP(k)', rows, 166], // 10, 30, 20, 40: 500/3 truncated
    ['VAR_POP(d)', rows, '1.55'], // 1, 2, 4: 14/9 = 1.555... truncated to the argument's scale
    ['STDDEV_SAMP(d)', rows, '1.52'],
    ['COVAR_POP(x, k)', rows, (1.5 * 10 + 2.5 * 30 + 4 * 20 - (8 * 60) / 3) / 3],
    ['COVAR_SAMP(x, k)', rows, (1.5 * 10 + 2.5 * 30 + 4 * 20 - (8 * 60) / 3) / 2],
    ['COVAR_SAMP(x, k)', [R(1, 1, null, null, 2)], null],
    ['REGR_COUNT(x, k)', rows, 3],
    ['REGR_COUNT(x, k)', [], 0],
    ['REGR_SXX(x, k)', rows, 200],
    ['REGR_SYY(x, k)', rows, 19 / 6],
  ])('%s', (expr, input, want) => {
    const got = agg(expr, input);
    if (typeof want === 'number' && !Number.isInteger(want)) expect(got).toBeCloseTo(want, 10);
    else expect(got).toEqual(want);
  });

  it('reports bad calls as compile errors', () => {
    const err = (sql: string): string => {
      const r = compile(TABLE + sql);
      return r.ok ? '' : r.errors.map((e) => e.message).join('; ');
    };
    expect(err('CREATE VIEW v AS SELECT ARG_MAX(v) FROM t;')).toMatch(/Invalid number of arguments to function 'ARG_MAX'/);
    expect(err('CREATE VIEW v AS SELECT BIT_AND(s) FROM t;')).toMatch(/Cannot apply 'BIT_AND'/);
    expect(err('CREATE VIEW v AS SELECT STDDEV(s) FROM t;')).toMatch(/Cannot apply 'STDDEV'/);
    expect(err('CREATE VIEW v AS SELECT SUM(v ORDER BY k) FROM t;')).toMatch(/ORDER BY inside SUM/);
    expect(err('CREATE VIEW v AS SELECT MODE(*) FROM t;')).toMatch(/MODE\(\*\) is not valid/);
    expect(err('CREATE VIEW v AS SELECT UPPER(s ORDER BY k) FROM t;')).toMatch(/Bad call of UPPER/);
    expect(err('CREATE VIEW v AS SELECT ARRAY_AGG(DISTINCT s ORDER BY k) FROM t;')).toMatch(/ORDER BY expressions must appear in the argument list/);
    expect(err('CREATE VIEW v AS SELECT MODE(DISTINCT s) FROM t;')).toMatch(/DISTINCT is not supported in MODE/);
  });

  it('types: ARRAY_AGG is an array of the argument type, the moments keep the argument type', () => {
    const p = prog('CREATE VIEW v AS SELECT g, ARRAY_AGG(s) AS a, VAR_POP(d) AS vd, STDDEV(v) AS sv, COUNTIF(b) AS c, ARG_MAX(s, v) AS am FROM t GROUP BY g;');
    expect(p.relation('v')!.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ['G', 'INTEGER', true],
      ['A', 'VARCHAR ARRAY', true],
      ['VD', 'DECIMAL(8, 2)', true],
      ['SV', 'INTEGER', true],
      ['C', 'BIGINT', false],
      ['AM', 'VARCHAR', true],
    ]);
  });
});

/* ---------- incremental maintenance vs full re-evaluation ---------- */

const AGG_VIEWS = `
CREATE VIEW grouped AS SELECT g,
  ARG_MAX(s, k) AS amax, ARG_MIN(s, k) AS amin, ARG_MAX(v, x) AS amx,
  ARRAY_AGG(v) AS av, ARRAY_AGG(DISTINCT s ORDER BY s DESC) AS ads, ARRAY_AGG(k ORDER BY v, k) FILTER (WHERE b) AS af,
  BIT_AND(v) AS band, BIT_OR(v) AS bor, BIT_XOR(v) AS bxor, BIT_XOR(DISTINCT k) AS bxd,
  VAR_POP(x) AS vp, VAR_SAMP(v) AS vs, STDDEV_POP(d) AS sp, STDDEV_SAMP(x) AS ss,
  COVAR_POP(x, v) AS cp, COVAR_SAMP(v, k) AS cs, REGR_COUNT(v, k) AS rc, REGR_SXX(x, k) AS rxx, REGR_SYY(x, k) AS ryy,
  COUNTIF(b) AS ci, MODE(v) AS mo, MODE(s) AS ms, LOGICAL_AND(b) AS la, LOGICAL_OR(b) AS lo, COUNT(v, s) AS c2
FROM t GROUP BY g;
CREATE VIEW global AS SELECT ARG_MAX(g, v) AS am, ARRAY_AGG(s ORDER BY k NULLS FIRST, s) AS a, BIT_OR(k) AS bo, MODE(k) AS mo, VAR_SAMP(d) AS vd, COUNTIF(v > 0) AS ci FROM t;
CREATE VIEW windowed AS SELECT g, k, v,
  ARRAY_AGG(v) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS aw,
  MODE(v) OVER (PARTITION BY g) AS mw,
  BIT_OR(v) OVER (PARTITION BY g ORDER BY k) AS bw
FROM t;
`;

const key = (rows: WeightedRow[]): string[] => rows.map(({ row, weight }) => `${weight}:${JSON.stringify(row)}`).sort();

describe('incremental aggregates equal a full re-evaluation after every step', () => {
  const program = prog(AGG_VIEWS);
  const row = fc.tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.option(fc.integer({ min: -4, max: 6 }), { freq: 4 }),
    fc.option(fc.integer({ min: 0, max: 5 }), { freq: 4 }),
    fc.option(fc.constantFrom(0.5, -1.25, 2, 3), { freq: 4 }),
    fc.option(fc.constantFrom('1.50', '-2.25', '0.10'), { freq: 4 }),
    fc.option(fc.boolean(), { freq: 4 }),
    fc.option(fc.constantFrom('a', 'b', 'c'), { freq: 4 }),
  );
  const op = fc.oneof({ weight: 3, arbitrary: row.map((r) => ({ del: false, row: r as TRow, pick: 0 })) }, { weight: 2, arbitrary: fc.nat(40).map((pick) => ({ del: true, row: undefined, pick })) });

  it('under random inserts and deletes (duplicates included)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 10 }), (steps) => {
        const c = program.newCircuit();
        const live: TRow[] = [];
        // the contents at creation (the global aggregate's row over nothing) plus every step's changes
        const integrated = new Map<string, Map<string, number>>(
          ['grouped', 'global', 'windowed'].map((v) => [v.toUpperCase(), new Map(c.contents(v).map(({ row: r, weight }) => [JSON.stringify(r), weight]))]),
        );
        for (const step of steps) {
          const changes = [];
          for (const o of step) {
            if (!o.del) {
              live.push(o.row!);
              changes.push({ table: 't', op: 'insert' as const, row: o.row! as never });
            } else if (live.length) {
              const [gone] = live.splice(o.pick % live.length, 1);
              changes.push({ table: 't', op: 'delete' as const, row: gone! as never });
            }
          }
          const out = c.step(changes);
          for (const [name, delta] of out.changes) {
            const acc = integrated.get(name) ?? new Map<string, number>();
            for (const { row: r, weight } of delta) {
              const k = JSON.stringify(r);
              const w = (acc.get(k) ?? 0) + weight;
              if (w === 0) acc.delete(k);
              else acc.set(k, w);
            }
            integrated.set(name, acc);
          }
          const fresh = program.newCircuit();
          fresh.step(live.map((r) => ({ table: 't', op: 'insert' as const, row: r as never })));
          for (const v of ['grouped', 'global', 'windowed']) {
            expect(key(c.contents(v))).toEqual(key(fresh.contents(v)));
            const fromChanges = [...(integrated.get(v.toUpperCase()) ?? new Map<string, number>())].map(([k, w]) => `${w}:${k}`).sort();
            expect(fromChanges).toEqual(key(c.contents(v)));
          }
        }
      }),
      { numRuns: Number(process.env.AGG_RUNS ?? 60) },
    );
  });
});

describe('GROUP BY ROLLUP, CUBE and GROUPING SETS', () => {
  it('the empty set () is one group even when no aggregate is selected, also over no rows', () => {
    const p = prog('CREATE VIEW v AS SELECT GROUPING(g) AS gg, GROUPING(v) AS gv FROM t GROUP BY GROUPING SETS ((g, v), ());');
    const c = p.newCircuit();
    c.step([]);
    expect(c.contents('v').map((x) => x.row)).toEqual([{ GG: 1, GV: 1 }]);
    c.step([1, 2, 3].map((g) => ({ table: 't', op: 'insert' as const, row: [g, g, null, null, null, null, null] as never })));
    const got: Array<Record<string, unknown>> = c.contents('v').map(({ row, weight }) => ({ ...(row as Record<string, unknown>), weight }));
    expect(got.sort((a, b) => (a.GG as number) - (b.GG as number))).toEqual([
      { GG: 0, GV: 0, weight: 3 },
      { GG: 1, GV: 1, weight: 1 },
    ]);
  });

  it('one GROUP BY per grouping set, NULL for the expressions left out, GROUPING_ID as a bit mask; maintained under deletes', () => {
    const p = prog(`CREATE VIEW r AS SELECT g, s, COUNT(*) AS c, GROUPING_ID(g, s) AS gid, GROUPING(s) AS gs FROM t GROUP BY ROLLUP(g, s);
      CREATE VIEW gs AS SELECT g, v, SUM(k) AS sk FROM t GROUP BY GROUPING SETS ((g), (v));`);
    const c = p.newCircuit();
    const rows: TRow[] = [
      [1, 5, 10, null, null, null, 'a'],
      [1, 6, 20, null, null, null, 'b'],
      [2, 5, 30, null, null, null, 'a'],
    ];
    c.step(rows.map((row) => ({ table: 't', op: 'insert' as const, row: row as never })));
    const sorted = (v: string): string[] =>
      c
        .contents(v)
        .map((x) => JSON.stringify(x.row))
        .sort();
    expect(sorted('r')).toEqual(
      [
        { G: 1, S: 'a', C: 1, GID: 0, GS: 0 },
        { G: 1, S: 'b', C: 1, GID: 0, GS: 0 },
        { G: 2, S: 'a', C: 1, GID: 0, GS: 0 },
        { G: 1, S: null, C: 2, GID: 1, GS: 1 },
        { G: 2, S: null, C: 1, GID: 1, GS: 1 },
        { G: null, S: null, C: 3, GID: 3, GS: 1 },
      ]
        .map((x) => JSON.stringify(x))
        .sort(),
    );
    expect(sorted('gs')).toEqual(
      [
        { G: 1, V: null, SK: 30 },
        { G: 2, V: null, SK: 30 },
        { G: null, V: 5, SK: 40 },
        { G: null, V: 6, SK: 20 },
      ]
        .map((x) => JSON.stringify(x))
        .sort(),
    );
    c.step([{ table: 't', op: 'delete', row: rows[0] as never }]);
    expect(sorted('r')).toContain(JSON.stringify({ G: null, S: null, C: 2, GID: 3, GS: 1 }));
    expect(sorted('r')).not.toContain(JSON.stringify({ G: 1, S: 'a', C: 1, GID: 0, GS: 0 }));
    expect(p.relation('r')!.columns.map((x) => x.name)).toEqual(['G', 'S', 'C', 'GID', 'GS']);
    const bad = compile(TABLE + 'CREATE VIEW b AS SELECT g, GROUPING(v) FROM t GROUP BY ROLLUP(g);');
    expect(bad.ok ? '' : bad.errors[0]!.message).toMatch(/Argument to GROUPING operator must be a grouped expression/);
  });
});

describe('DISTINCT aggregates over numbers (counted per value, a number keyed by itself)', () => {
  it('take 0 and -0 as one value, numbers apart from texts and bigints, under inserts and deletes', () => {
    const c = prog(`CREATE VIEW m AS SELECT g, COUNT(DISTINCT CAST(s AS DOUBLE)) AS nd, COUNT(DISTINCT s) AS ns, SUM(DISTINCT x) AS sx,
      COUNT(DISTINCT CAST(v AS BIGINT) * 4294967296 * 4194304) AS big FROM t GROUP BY g;`).newCircuit();
    const row = (s: string, x: number, v: number) => ({ G: 1, S: s, X: x, V: v });
    const ins = (r: object) => ({ table: 't', op: 'insert' as const, row: r as never });
    const del = (r: object) => ({ table: 't', op: 'delete' as const, row: r as never });
    const view = () => c.contents('m').map((e) => e.row);
    // '0' and '-0' are one DOUBLE (two texts; 'NaN' casts to NULL); v * 2^54 are bigints
    c.step([ins(row('0', 0, 1)), ins(row('-0', -0, 1)), ins(row('NaN', 1.5, 2)), ins(row('NaN', 1.5, 2)), ins(row('1', 1, 3)), ins(row('1.0', 1, 3))]);
    expect(view()).toEqual([{ G: 1, ND: 2, NS: 5, SX: 2.5, BIG: 3 }]);
    // one of two equal rows goes: its values still counted
    c.step([del(row('NaN', 1.5, 2))]);
    expect(view()).toEqual([{ G: 1, ND: 2, NS: 5, SX: 2.5, BIG: 3 }]);
    // -0 goes, 0 stays: 0 still counted
    c.step([del(row('-0', -0, 1))]);
    expect(view()).toEqual([{ G: 1, ND: 2, NS: 4, SX: 2.5, BIG: 3 }]);
    c.step([del(row('0', 0, 1)), del(row('NaN', 1.5, 2))]);
    expect(view()).toEqual([{ G: 1, ND: 1, NS: 2, SX: 1, BIG: 1 }]);
  });
});
