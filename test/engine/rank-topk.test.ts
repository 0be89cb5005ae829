/** Top ranks of a window function: when the incremental top-k is used, and that it equals the full evaluation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, type WeightedRow } from '../../src/engine/index.js';
import { bindProgram } from '../../src/engine/bind/program.js';
import type { PlanNode } from '../../src/engine/plan/nodes.js';

const TABLE = 'CREATE TABLE t (id INT NOT NULL, a INT, b INT);\n';
const RANKED = 'SELECT id, a, b, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn FROM t';

/** rankLimit of each window node under the named view (undefined where the full evaluation is kept). */
function limits(sql: string, view: string): Array<number | undefined> {
  const { program, errors } = bindProgram(TABLE + sql, 'upper');
  if (!program) throw new Error(JSON.stringify(errors));
  const v = program.views.find((x) => x.name === view)!;
  const out: Array<number | undefined> = [];
  const seen = new Set<PlanNode>();
  const walk = (n: PlanNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.kind === 'window') out.push(n.rankLimit);
    n.inputs.forEach(walk);
  };
  walk(v.node);
  return out;
}

describe('when only the top ranks are read', () => {
  it('the window keeps a top-k for WHERE rn <= k, rn < k, k >= rn, rn = k and QUALIFY', () => {
    expect(limits(`CREATE VIEW v AS SELECT * FROM (${RANKED}) q WHERE rn <= 3;`, 'V')).toEqual([3]);
    expect(limits(`CREATE VIEW v AS SELECT * FROM (${RANKED}) q WHERE rn < 3 AND b > 0;`, 'V')).toEqual([2]);
    expect(limits(`CREATE VIEW v AS SELECT id FROM (${RANKED}) q WHERE 5 >= rn;`, 'V')).toEqual([5]);
    expect(limits(`CREATE VIEW v AS SELECT id FROM (${RANKED}) q WHERE rn = 1;`, 'V')).toEqual([1]);
    expect(limits(`CREATE VIEW v AS SELECT id FROM t QUALIFY RANK() OVER (PARTITION BY a ORDER BY b) <= 2;`, 'V')).toEqual([2]);
    expect(limits(`CREATE LOCAL VIEW r AS ${RANKED};\nCREATE VIEW v AS SELECT * FROM r WHERE rn <= 4;`, 'V')).toEqual([4]);
  });

  it('the full evaluation stays when anything else reads the ranks', () => {
    // the ranked view is an output of its own
    expect(limits(`CREATE VIEW r AS ${RANKED};\nCREATE VIEW v AS SELECT * FROM r WHERE rn <= 4;`, 'V')).toEqual([undefined]);
    // two readers of one CTE
    expect(limits(`CREATE VIEW v AS WITH r AS (${RANKED}) SELECT id FROM r WHERE rn <= 2 UNION ALL SELECT id FROM r;`, 'V')).toEqual([undefined]);
    // a bound on an expression of the rank, or on another column
    expect(limits(`CREATE VIEW v AS SELECT * FROM (${RANKED}) q WHERE rn * 2 <= 6;`, 'V')).toEqual([undefined]);
    expect(limits(`CREATE VIEW v AS SELECT * FROM (${RANKED}) q WHERE b <= 6;`, 'V')).toEqual([undefined]);
    // no bound at all, or two window functions in one node
    expect(limits(`CREATE VIEW v AS ${RANKED};`, 'V')).toEqual([undefined]);
    expect(
      limits(`CREATE VIEW v AS SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn, LAG(b) OVER (PARTITION BY a ORDER BY b) AS p FROM t) q WHERE rn <= 2;`, 'V'),
    ).toEqual([undefined]);
  });
});

describe('the top-k gives the rows of the full evaluation', () => {
  const key = (r: WeightedRow): string => JSON.stringify(r);
  const kinds = ['ROW_NUMBER', 'RANK', 'DENSE_RANK'] as const;
  const change = fc.record({
    op: fc.constantFrom('insert', 'insert', 'delete'),
    id: fc.integer({ min: 0, max: 12 }),
    a: fc.option(fc.integer({ min: 0, max: 2 }), { freq: 6 }),
    b: fc.option(fc.integer({ min: 0, max: 4 }), { freq: 6 }),
  });

  for (const kind of kinds) {
    it(`${kind}, after every step of random inserts and deletes (duplicates and ties included)`, () => {
      const r = compile(`${TABLE}
CREATE VIEW full_ranks AS SELECT id, a, b, ${kind}() OVER (PARTITION BY a ORDER BY b DESC) AS k FROM t;
CREATE VIEW top AS SELECT * FROM (SELECT id, a, b, ${kind}() OVER (PARTITION BY a ORDER BY b DESC) AS k FROM t) q WHERE k <= 2;`);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(limits(`CREATE VIEW top AS SELECT * FROM (SELECT id, a, b, ${kind}() OVER (PARTITION BY a ORDER BY b DESC) AS k FROM t) q WHERE k <= 2;`, 'TOP')).toEqual([2]);
      fc.assert(
        fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { maxLength: 25 }), (steps) => {
          const c = r.program.newCircuit();
          for (const step of steps) {
            c.step(step.map(({ op, ...row }) => ({ table: 't', op, row })));
            const expected = c
              .contents('full_ranks')
              .filter((x) => (x.row.K as number) <= 2)
              .map(key)
              .sort();
            expect(c.contents('top').map(key).sort()).toEqual(expected);
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe('LAG, LEAD, bounded ROWS frames and RANGE frames re-evaluated only where a change reaches', () => {
  const change = fc.record({
    op: fc.constantFrom('insert', 'insert', 'delete'),
    id: fc.integer({ min: 0, max: 10 }),
    a: fc.option(fc.integer({ min: 0, max: 1 }), { freq: 8 }),
    b: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 6 }),
  });
  // each group shares one ORDER BY, so its window node re-evaluates only where changes reach
  const groups: Array<[string, string]> = [
    [
      'ORDER BY b',
      `LAG(b) OVER (PARTITION BY a ORDER BY b) AS lg, LEAD(id, 2) OVER (PARTITION BY a ORDER BY b) AS ld,
       SUM(id) OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS s,
       MAX(id) OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS m,
       SUM(id) OVER (PARTITION BY a ORDER BY b) AS run,
       MIN(id) OVER (PARTITION BY a ORDER BY b RANGE BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS ahead`,
    ],
    [
      'ORDER BY b DESC',
      `COUNT(*) OVER (PARTITION BY a ORDER BY b DESC RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS near,
       AVG(id) OVER (PARTITION BY a ORDER BY b DESC RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest,
       COUNT(b) OVER (PARTITION BY a ORDER BY b DESC RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS peers`,
    ],
    ['', 'SUM(b) OVER (PARTITION BY a) AS total'],
  ];

  for (const [order, fnsSql] of groups) {
    it(`${order || 'no ORDER BY'}: equal the full evaluation after every step (duplicates, ties, deletes of absent rows)`, () => {
      // the second view adds a ROW_NUMBER to the same window node, which makes it re-evaluate whole partitions
      const r = compile(`${TABLE}
CREATE VIEW local_w AS SELECT id, a, b, ${fnsSql} FROM t;
CREATE VIEW full_w AS SELECT id, a, b, ${fnsSql}, ROW_NUMBER() OVER (PARTITION BY a ${order}) AS rn FROM t;`);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      // as a multiset: one entry per unit of weight (the full view's rows differ by RN, so equal rows there
      // are separate entries of weight 1 where the other view has one of weight 2)
      const strip = (x: WeightedRow): string[] => {
        const { RN: _rn, ...row } = x.row;
        return Array.from({ length: Math.abs(x.weight) }, () => JSON.stringify({ row, sign: Math.sign(x.weight) }));
      };
      fc.assert(
        fc.property(fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { maxLength: 25 }), (steps) => {
          const c = r.program.newCircuit();
          for (const step of steps) {
            c.step(step.map(({ op, ...row }) => ({ table: 't', op, row })));
            // values over ties depend on the tie order, which both evaluations share (row key)
            expect(c.contents('local_w').flatMap(strip).sort()).toEqual(c.contents('full_w').flatMap(strip).sort());
          }
        }),
        { numRuns: 120 },
      );
    });
  }
});
