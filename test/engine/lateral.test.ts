/**
 * UNNEST (arrays, maps, WITH ORDINALITY), VALUES as a relation and LATERAL subqueries (bind/lateral.ts):
 * table-driven cases written from Feldera's docs (docs/sql/array.md, map.md, grammar.md), NULL and empty
 * cases, refusals, and incremental maintenance under inserts and deletes compared with a fresh evaluation of
 * the final table contents.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile, type CompiledProgram, type InputChange, type JsonRow, type WeightedRow } from '../../src/engine/index.js';

const TABLES = `
CREATE TABLE data (id INT NOT NULL, country VARCHAR, cities VARCHAR ARRAY, zips MAP<VARCHAR, INT>, nums INT ARRAY);
CREATE TABLE other (id INT NOT NULL, n INT, tag VARCHAR);
`;

function prog(view: string): CompiledProgram {
  const r = compile(`${TABLES} CREATE VIEW v AS ${view};`, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

function compileError(view: string): string {
  const r = compile(`${TABLES} CREATE VIEW v AS ${view};`, { outputCase: 'lower' });
  return r.ok ? '' : r.errors.map((e) => e.message).join('; ');
}

/** The view's rows (weights expanded) as sorted JSON lines. */
function rowsOf(list: WeightedRow[]): string[] {
  const out: string[] = [];
  for (const { row, weight } of list) {
    if (weight < 0) out.push(`NEGATIVE ${weight} ${JSON.stringify(row)}`);
    for (let i = 0; i < weight; i++) out.push(JSON.stringify(row));
  }
  return out.sort();
}

const DATA: JsonRow[] = [
  { id: 1, country: 'fr', cities: ['Paris', 'Lyon', 'Paris'], zips: { Paris: 75000, Lyon: 69000 }, nums: [3, null, 1] },
  { id: 2, country: 'de', cities: [], zips: {}, nums: [] },
  { id: 3, country: 'it', cities: null, zips: null, nums: null },
  { id: 4, country: 'es', cities: ['Madrid'], zips: { Madrid: 28000 }, nums: [9] },
];
const OTHER: JsonRow[] = [
  { id: 1, n: 10, tag: 'a' },
  { id: 1, n: 20, tag: 'b' },
  { id: 4, n: 30, tag: null },
  { id: 9, n: 40, tag: 'c' },
];

function run(view: string): string[] {
  const p = prog(view);
  const c = p.newCircuit();
  c.step([...DATA.map((row) => ({ table: 'data', op: 'insert' as const, row })), ...OTHER.map((row) => ({ table: 'other', op: 'insert' as const, row }))]);
  return rowsOf(c.contents('v'));
}

const j = (o: Record<string, unknown>): string => JSON.stringify(o);

describe('UNNEST', () => {
  const cases: Array<[string, string, Array<Record<string, unknown>>]> = [
    [
      'comma form, alias with a column list; duplicates kept, NULL and empty arrays give no rows',
      'SELECT city, country FROM data, UNNEST(cities) AS t (city)',
      [
        { city: 'Paris', country: 'fr' },
        { city: 'Lyon', country: 'fr' },
        { city: 'Paris', country: 'fr' },
        { city: 'Madrid', country: 'es' },
      ],
    ],
    [
      'CROSS JOIN form, an alias without a column list names the element column',
      'SELECT city, data.country FROM data CROSS JOIN UNNEST(data.cities) AS city',
      [
        { city: 'Paris', country: 'fr' },
        { city: 'Lyon', country: 'fr' },
        { city: 'Paris', country: 'fr' },
        { city: 'Madrid', country: 'es' },
      ],
    ],
    [
      'CROSS APPLY is another spelling',
      'SELECT city, data.country FROM data CROSS APPLY UNNEST(data.cities) AS city',
      [
        { city: 'Paris', country: 'fr' },
        { city: 'Lyon', country: 'fr' },
        { city: 'Paris', country: 'fr' },
        { city: 'Madrid', country: 'es' },
      ],
    ],
    [
      'WITH ORDINALITY numbers the elements from 1; NULL elements are rows',
      'SELECT id, x, i FROM data, UNNEST(nums) WITH ORDINALITY AS u (x, i)',
      [
        { id: 1, x: 3, i: 1 },
        { id: 1, x: null, i: 2 },
        { id: 1, x: 1, i: 3 },
        { id: 4, x: 9, i: 1 },
      ],
    ],
    [
      'COALESCE(arr, ARRAY[NULL]) keeps the rows whose array is NULL',
      'SELECT id, city FROM data, UNNEST(COALESCE(cities, ARRAY[NULL])) AS t (city) WHERE id >= 3',
      [
        { id: 3, city: null },
        { id: 4, city: 'Madrid' },
      ],
    ],
    [
      'a MAP gives one row per pair, in key order',
      'SELECT data.country, city, zip FROM data CROSS JOIN UNNEST(data.zips) AS zips (city, zip)',
      [
        { country: 'fr', city: 'Lyon', zip: 69000 },
        { country: 'fr', city: 'Paris', zip: 75000 },
        { country: 'es', city: 'Madrid', zip: 28000 },
      ],
    ],
    [
      'a MAP WITH ORDINALITY',
      'SELECT id, k, o FROM data, UNNEST(zips) WITH ORDINALITY AS z (k, zv, o)',
      [
        { id: 1, k: 'Lyon', o: 1 },
        { id: 1, k: 'Paris', o: 2 },
        { id: 4, k: 'Madrid', o: 1 },
      ],
    ],
    [
      'a constant array is a constant relation',
      'SELECT * FROM UNNEST(ARRAY[3, 1, 3]) WITH ORDINALITY AS u (x, n)',
      [
        { x: 3, n: 1 },
        { x: 1, n: 2 },
        { x: 3, n: 3 },
      ],
    ],
    [
      'several arrays are zipped, the shorter padded with NULL',
      "SELECT x, y FROM UNNEST(ARRAY[1, 2, 3], ARRAY['a']) AS u (x, y)",
      [
        { x: 1, y: 'a' },
        { x: 2, y: null },
        { x: 3, y: null },
      ],
    ],
    [
      'JOIN UNNEST ... ON filters the pairs',
      'SELECT id, x FROM data JOIN UNNEST(nums) AS u (x) ON x > 2',
      [
        { id: 1, x: 3 },
        { id: 4, x: 9 },
      ],
    ],
    [
      'an element column in WHERE, GROUP BY and an aggregate',
      "SELECT city, COUNT(*) AS c FROM data, UNNEST(cities) AS t (city) WHERE city <> 'Lyon' GROUP BY city",
      [
        { city: 'Madrid', c: 1 },
        { city: 'Paris', c: 2 },
      ],
    ],
    [
      'a comma list: the UNNEST joins the item it reads, the row keeps FROM order',
      'SELECT * FROM data AS d, other AS o, UNNEST(d.nums) AS u (x) WHERE o.id = d.id AND x IS NOT NULL',
      [
        { id: 1, country: 'fr', cities: ['Paris', 'Lyon', 'Paris'], zips: { Lyon: 69000, Paris: 75000 }, nums: [3, null, 1], id0: 1, n: 10, tag: 'a', x: 3 },
        { id: 1, country: 'fr', cities: ['Paris', 'Lyon', 'Paris'], zips: { Lyon: 69000, Paris: 75000 }, nums: [3, null, 1], id0: 1, n: 10, tag: 'a', x: 1 },
        { id: 1, country: 'fr', cities: ['Paris', 'Lyon', 'Paris'], zips: { Lyon: 69000, Paris: 75000 }, nums: [3, null, 1], id0: 1, n: 20, tag: 'b', x: 3 },
        { id: 1, country: 'fr', cities: ['Paris', 'Lyon', 'Paris'], zips: { Lyon: 69000, Paris: 75000 }, nums: [3, null, 1], id0: 1, n: 20, tag: 'b', x: 1 },
        { id: 4, country: 'es', cities: ['Madrid'], zips: { Madrid: 28000 }, nums: [9], id0: 4, n: 30, tag: null, x: 9 },
      ],
    ],
    ['two UNNESTs of the same row: a cross product of its elements', 'SELECT id, c, x FROM data, UNNEST(cities) AS a (c), UNNEST(nums) AS b (x) WHERE id = 4', [{ id: 4, c: 'Madrid', x: 9 }]],
    [
      'an UNNEST reading two items',
      'SELECT o.n, x FROM data AS d, other AS o, UNNEST(ARRAY[d.id, o.n]) AS u (x) WHERE d.id = 4 AND o.id = 9',
      [
        { n: 40, x: 4 },
        { n: 40, x: 40 },
      ],
    ],
  ];
  it.each(cases)('%s', (_what, view, expected) => {
    expect(run(view)).toEqual(expected.map(j).sort());
  });

  it.each([
    ['EXISTS over UNNEST of an outer column', 'SELECT id FROM data WHERE EXISTS (SELECT 1 FROM UNNEST(nums) AS u (x) WHERE x > 2)', [{ id: 1 }, { id: 4 }]],
    [
      'a scalar aggregate over UNNEST of an outer column',
      'SELECT id, (SELECT SUM(x) FROM UNNEST(nums) AS u (x)) AS s FROM data',
      [
        { id: 1, s: 4 },
        { id: 2, s: null },
        { id: 3, s: null },
        { id: 4, s: 9 },
      ],
    ],
    [
      'COUNT over UNNEST with a condition',
      "SELECT id, (SELECT COUNT(*) FROM UNNEST(cities) AS c (city) WHERE city LIKE 'P%') AS np FROM data",
      [
        { id: 1, np: 2 },
        { id: 2, np: 0 },
        { id: 3, np: 0 },
        { id: 4, np: 0 },
      ],
    ],
    ['IN over UNNEST', "SELECT id FROM data WHERE 'Lyon' IN (SELECT c FROM UNNEST(cities) AS u (c))", [{ id: 1 }]],
    [
      'LATERAL over UNNEST',
      'SELECT d.id, q.x FROM data AS d, LATERAL (SELECT x FROM UNNEST(d.nums) AS u (x) WHERE x IS NOT NULL) AS q',
      [
        { id: 1, x: 3 },
        { id: 1, x: 1 },
        { id: 4, x: 9 },
      ],
    ],
  ])('in a subquery reading the outer row: %s', (_what, view, expected) => {
    expect(run(view)).toEqual(expected.map(j).sort());
  });

  it('unnests arrays of maps (a MAP<K, V> ARRAY column) and arrays of arrays (an element of INT ARRAY ARRAY)', () => {
    const r = compile(
      `CREATE TABLE n (id INT, ms MAP<VARCHAR, INT> ARRAY, aa INT ARRAY ARRAY NOT NULL);
       CREATE VIEW maps AS SELECT id, CARDINALITY(m) AS c, m['k'] AS k, i FROM n, UNNEST(ms) WITH ORDINALITY AS u (m, i);
       CREATE VIEW inner_elems AS SELECT id, x * 10 AS x10 FROM n, UNNEST(aa[2]) AS u (x);`,
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.program.newCircuit();
    c.step([
      { table: 'n', op: 'insert', row: { id: 1, ms: [{ k: 5, z: 6 }, null, {}], aa: [[1], [2, null]] } },
      { table: 'n', op: 'insert', row: { id: 2, ms: null, aa: [[3]] } },
    ]);
    expect(rowsOf(c.contents('maps'))).toEqual(
      [
        { id: 1, c: 2, k: 5, i: 1 },
        { id: 1, c: null, k: null, i: 2 },
        { id: 1, c: 0, k: null, i: 3 },
      ]
        .map(j)
        .sort(),
    );
    expect(rowsOf(c.contents('inner_elems'))).toEqual(
      [
        { id: 1, x10: 20 },
        { id: 1, x10: null },
      ]
        .map(j)
        .sort(),
    );
  });

  // ROW types come with helper codec's work; until they are on the branch this test has nothing to run against
  const rowTypes = compile('CREATE TABLE x (r ROW(a INT) ARRAY);').ok;
  it.skipIf(!rowTypes)('unnests an array of ROWs into one column per field (a NULL element: a row of NULLs)', () => {
    const r = compile(
      `CREATE TABLE o (id INT, items ROW(sku VARCHAR, qty INT NOT NULL) ARRAY);
       CREATE VIEW lines AS SELECT id, sku, qty, n FROM o, UNNEST(items) WITH ORDINALITY AS u (sku, qty, n);
       CREATE VIEW named AS SELECT u.* FROM o, UNNEST(items) AS u;`,
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.program.relation('named')!.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ['sku', 'VARCHAR', true],
      ['qty', 'INTEGER', true],
    ]);
    const c = r.program.newCircuit();
    c.step([
      { table: 'o', op: 'insert', row: { id: 1, items: [{ sku: 'a', qty: 2 }, null, { sku: null, qty: 5 }] } },
      { table: 'o', op: 'insert', row: { id: 2, items: null } },
    ]);
    expect(rowsOf(c.contents('lines'))).toEqual(
      [
        { id: 1, sku: 'a', qty: 2, n: 1 },
        { id: 1, sku: null, qty: null, n: 2 },
        { id: 1, sku: null, qty: 5, n: 3 },
      ]
        .map(j)
        .sort(),
    );
    c.step([{ table: 'o', op: 'delete', row: { id: 1, items: [{ sku: 'a', qty: 2 }, null, { sku: null, qty: 5 }] } }]);
    expect(c.contents('lines')).toEqual([]);
  });

  it('gives the documented column names and types', () => {
    const cols = (view: string) =>
      prog(view)
        .relation('v')!
        .columns.map((c) => `${c.name} ${c.type}${c.nullable ? '' : ' NOT NULL'}`);
    expect(cols('SELECT * FROM UNNEST(ARRAY[1, 2]) WITH ORDINALITY')).toEqual(['EXPR$0 INTEGER', 'ordinality INTEGER NOT NULL']);
    expect(cols('SELECT u.* FROM data, UNNEST(zips) AS u')).toEqual(['key VARCHAR NOT NULL', 'value INTEGER']);
    expect(cols('SELECT c FROM data, UNNEST(cities) AS c')).toEqual(['c VARCHAR']);
  });

  it.each([
    ['a scalar argument', 'SELECT * FROM data, UNNEST(id) AS u (x)', /UNNEST needs an ARRAY or a MAP, not INTEGER/],
    ['a column list of the wrong length', 'SELECT * FROM data, UNNEST(nums) AS u (x, y)', /same degree.*1 column/],
    ['LEFT JOIN UNNEST (not supported in Feldera either)', 'SELECT * FROM data LEFT JOIN UNNEST(nums) AS u (x) ON TRUE', /LEFT JOIN UNNEST is not supported/],
    ['OUTER APPLY', 'SELECT * FROM data OUTER APPLY UNNEST(nums) AS u (x)', /OUTER APPLY.*not supported/],
    ['an unknown column', 'SELECT * FROM data, UNNEST(nope) AS u (x)', /nope/i],
    ['a MAP among several arguments', 'SELECT * FROM data, UNNEST(zips, nums) AS u (a, b, c)', /UNNEST of a MAP takes that one argument/],
  ])('refuses %s with a clear error', (_what, view, message) => {
    expect(compileError(view)).toMatch(message);
  });
});

describe('VALUES as a relation', () => {
  const cases: Array<[string, string, Array<Record<string, unknown>>]> = [
    [
      'in FROM with column aliases',
      "SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (2, 'b')) AS v (x, y)",
      [
        { x: 1, y: 'a' },
        { x: 2, y: 'b' },
        { x: 2, y: 'b' },
      ],
    ],
    [
      'joined to a table',
      "SELECT o.n, v.label FROM other AS o JOIN (VALUES (1, 'one'), (4, 'four')) AS v (k, label) ON o.id = v.k",
      [
        { n: 10, label: 'one' },
        { n: 20, label: 'one' },
        { n: 30, label: 'four' },
      ],
    ],
    ['in a comma list with the condition in WHERE', 'SELECT o.n FROM (VALUES (9), (4)) AS v (k), other AS o WHERE o.id = v.k', [{ n: 30 }, { n: 40 }]],
    ['as the list of IN', 'SELECT n FROM other WHERE id IN (VALUES (4), (9))', [{ n: 30 }, { n: 40 }]],
    [
      'with NULL and a common type',
      'SELECT * FROM (VALUES (1, NULL), (NULL, 2.5)) AS v (a, b)',
      [
        { a: 1, b: null },
        { a: null, b: '2.5' },
      ],
    ],
    [
      'UNNEST of a column of VALUES',
      'SELECT k, x FROM (VALUES (1, ARRAY[5, 6]), (2, ARRAY[7])) AS v (k, arr), UNNEST(v.arr) AS u (x)',
      [
        { k: 1, x: 5 },
        { k: 1, x: 6 },
        { k: 2, x: 7 },
      ],
    ],
  ];
  it.each(cases)('%s', (_what, view, expected) => {
    expect(run(view)).toEqual(expected.map(j).sort());
  });
});

describe('LATERAL', () => {
  const cases: Array<[string, string, Array<Record<string, unknown>>]> = [
    [
      'a correlated subquery in FROM',
      'SELECT d.id, q.n FROM data AS d, LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q',
      [
        { id: 1, n: 10 },
        { id: 1, n: 20 },
        { id: 4, n: 30 },
      ],
    ],
    [
      'CROSS JOIN LATERAL with a non-equality correlation',
      'SELECT d.id, q.n FROM data AS d CROSS JOIN LATERAL (SELECT n FROM other AS o WHERE o.n > d.id * 10) AS q WHERE d.id >= 3',
      [{ id: 3, n: 40 }],
    ],
    [
      'with GROUP BY inside',
      'SELECT d.id, q.tag, q.c FROM data AS d, LATERAL (SELECT tag, COUNT(*) AS c FROM other AS o WHERE o.id = d.id GROUP BY tag) AS q',
      [
        { id: 1, tag: 'a', c: 1 },
        { id: 1, tag: 'b', c: 1 },
        { id: 4, tag: null, c: 1 },
      ],
    ],
    [
      '* of the subquery is only its own columns',
      'SELECT q.* FROM data AS d, LATERAL (SELECT * FROM other AS o WHERE o.id = d.id AND o.n > 15) AS q',
      [
        { id: 1, n: 20, tag: 'b' },
        { id: 4, n: 30, tag: null },
      ],
    ],
    ['uncorrelated: an ordinary cross join', 'SELECT d.id, q.m FROM data AS d, LATERAL (SELECT MAX(n) AS m FROM other) AS q WHERE d.id = 2', [{ id: 2, m: 40 }]],
    [
      'JOIN LATERAL ... ON filters the pairs',
      'SELECT d.id, q.n FROM data AS d JOIN LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q ON q.n > 15',
      [
        { id: 1, n: 20 },
        { id: 4, n: 30 },
      ],
    ],
    [
      'a subquery without FROM reading the outer row',
      'SELECT d.id, x.val FROM data AS d, LATERAL (SELECT d.id * 2 + 1 AS val) AS x',
      [
        { id: 1, val: 3 },
        { id: 2, val: 5 },
        { id: 3, val: 7 },
        { id: 4, val: 9 },
      ],
    ],
    [
      'VALUES reading the outer row',
      "SELECT d.id, t.x, t.tag FROM data AS d CROSS JOIN LATERAL (VALUES (d.id, 'a'), (d.id * 10, 'b')) AS t (x, tag) WHERE d.id < 3",
      [
        { id: 1, x: 1, tag: 'a' },
        { id: 1, x: 10, tag: 'b' },
        { id: 2, x: 2, tag: 'a' },
        { id: 2, x: 20, tag: 'b' },
      ],
    ],
    [
      'LEFT JOIN LATERAL ... ON TRUE keeps the outer rows without a match',
      'SELECT d.id, q.n FROM data AS d LEFT JOIN LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q ON TRUE',
      [
        { id: 1, n: 10 },
        { id: 1, n: 20 },
        { id: 2, n: null },
        { id: 3, n: null },
        { id: 4, n: 30 },
      ],
    ],
    [
      'LEFT JOIN LATERAL ... ON a condition',
      'SELECT d.id, q.n FROM data AS d LEFT JOIN LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q ON q.n > d.id * 15',
      [
        { id: 1, n: 20 },
        { id: 2, n: null },
        { id: 3, n: null },
        { id: 4, n: null },
      ],
    ],
    [
      'LEFT JOIN LATERAL VALUES ... ON',
      'SELECT d.id, t.x FROM data AS d LEFT JOIN LATERAL (VALUES (d.id), (d.id + 10)) AS t (x) ON t.x > 12',
      [
        { id: 1, x: null },
        { id: 2, x: null },
        { id: 3, x: 13 },
        { id: 4, x: 14 },
      ],
    ],
    [
      'LEFT JOIN LATERAL of an ungrouped aggregate ... ON',
      'SELECT d.id, q.c FROM data AS d LEFT JOIN LATERAL (SELECT COUNT(*) AS c FROM other AS o WHERE o.id = d.id) AS q ON q.c > 0',
      [
        { id: 1, c: 2 },
        { id: 2, c: null },
        { id: 3, c: null },
        { id: 4, c: 1 },
      ],
    ],
    [
      'LEFT JOIN LATERAL of an uncorrelated subquery',
      'SELECT d.id, q.n FROM data AS d LEFT JOIN LATERAL (SELECT n FROM other WHERE n > 35) AS q ON q.n < d.id * 11',
      [
        { id: 1, n: null },
        { id: 2, n: null },
        { id: 3, n: null },
        { id: 4, n: 40 },
      ],
    ],
    ['column aliases', 'SELECT d.id, q.z FROM data AS d, LATERAL (SELECT n + 1 FROM other AS o WHERE o.id = d.id AND o.tag IS NULL) AS q (z)', [{ id: 4, z: 31 }]],
  ];
  it.each(cases)('%s', (_what, view, expected) => {
    expect(run(view)).toEqual(expected.map(j).sort());
  });

  it('an aggregate without GROUP BY gives one row per outer row, the aggregate over no rows where nothing matches', () => {
    expect(run('SELECT d.id, q.c, q.s FROM data AS d, LATERAL (SELECT COUNT(*) AS c, SUM(n) AS s FROM other AS o WHERE o.id = d.id) AS q')).toEqual(
      [
        { id: 1, c: 2, s: 30 },
        { id: 2, c: 0, s: null },
        { id: 3, c: 0, s: null },
        { id: 4, c: 1, s: 30 },
      ]
        .map(j)
        .sort(),
    );
    expect(run('SELECT d.id, q.c1 FROM data AS d, LATERAL (SELECT COUNT(*) + 1 FROM other AS o WHERE o.n > d.id * 10) AS q (c1)')).toEqual(
      [
        { id: 1, c1: 4 },
        { id: 2, c1: 3 },
        { id: 3, c1: 2 },
        { id: 4, c1: 1 },
      ]
        .map(j)
        .sort(),
    );
  });

  it('refuses RIGHT JOIN LATERAL, LIMIT inside, and an ungrouped aggregate reading outer columns outside WHERE with a clear error', () => {
    expect(compileError('SELECT d.id, q.c FROM data AS d, LATERAL (SELECT COUNT(*) + d.id AS c FROM other AS o WHERE o.id = d.id) AS q')).toMatch(/outer columns only in its WHERE/);
    expect(compileError('SELECT * FROM data AS d RIGHT JOIN LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q ON TRUE')).toMatch(/RIGHT JOIN LATERAL is not supported/);
    expect(compileError('SELECT * FROM data AS d, LATERAL (SELECT n FROM other AS o WHERE o.id = d.id LIMIT 1) AS q')).toMatch(/cannot have WITH or LIMIT/);
  });
});

describe('incremental maintenance equals a fresh evaluation', () => {
  const VIEWS = [
    'SELECT id, x, i FROM data, UNNEST(nums) WITH ORDINALITY AS u (x, i)',
    'SELECT country, city, zip FROM data CROSS JOIN UNNEST(zips) AS z (city, zip)',
    'SELECT x, COUNT(*) AS c, SUM(id) AS s FROM data, UNNEST(nums) AS u (x) GROUP BY x',
    'SELECT d.id, o.n, x FROM data AS d, other AS o, UNNEST(d.nums) AS u (x) WHERE o.id = d.id AND x > o.n / 10',
    'SELECT d.id, q.n FROM data AS d, LATERAL (SELECT n FROM other AS o WHERE o.id = d.id AND o.n > d.id) AS q',
    'SELECT d.id, q.c, q.m FROM data AS d, LATERAL (SELECT COUNT(*) AS c, MAX(n) AS m FROM other AS o WHERE o.id = d.id) AS q',
    'SELECT d.id, q.n FROM data AS d LEFT JOIN LATERAL (SELECT n FROM other AS o WHERE o.id = d.id) AS q ON q.n > d.id',
    'SELECT d.id, t.x FROM data AS d LEFT JOIN LATERAL (VALUES (d.id), (CARDINALITY(d.nums))) AS t (x) ON t.x > 1',
    'SELECT v.k, o.n FROM (VALUES (1), (2), (4)) AS v (k) JOIN other AS o ON o.id = v.k',
    'SELECT id, (SELECT SUM(x) FROM UNNEST(nums) AS u (x) WHERE x > 1) AS s FROM data',
  ];
  const num = fc.option(fc.integer({ min: 0, max: 5 }), { freq: 4 });
  const dataRow = fc.record({
    id: fc.integer({ min: 0, max: 5 }),
    country: fc.option(fc.constantFrom('fr', 'de'), { freq: 4 }),
    cities: fc.option(fc.array(fc.option(fc.constantFrom('a', 'b', 'c'), { freq: 4 }), { maxLength: 3 }), { freq: 4 }),
    zips: fc.option(fc.dictionary(fc.constantFrom('a', 'b', 'c'), num, { maxKeys: 3 }), { freq: 4 }),
    nums: fc.option(fc.array(num, { maxLength: 4 }), { freq: 4 }),
  });
  const otherRow = fc.record({ id: fc.integer({ min: 0, max: 5 }), n: fc.option(fc.integer({ min: 0, max: 60 }), { freq: 4 }), tag: fc.option(fc.constantFrom('a', 'b'), { freq: 4 }) });
  type Op = { table: 'data' | 'other'; row?: JsonRow; del?: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    dataRow.map((row) => ({ table: 'data' as const, row })),
    otherRow.map((row) => ({ table: 'other' as const, row })),
    fc.record({ table: fc.constantFrom('data' as const, 'other' as const), del: fc.nat(20) }),
  );

  it.each(VIEWS)('%s', (view) => {
    const p = prog(view);
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }), (steps) => {
        const c = p.newCircuit();
        const live: Record<string, JsonRow[]> = { data: [], other: [] };
        for (const s of steps) {
          const batch: InputChange[] = [];
          for (const o of s) {
            if (o.row) {
              live[o.table]!.push(o.row);
              batch.push({ table: o.table, op: 'insert', row: o.row });
            } else if (live[o.table]!.length) {
              const [row] = live[o.table]!.splice(o.del! % live[o.table]!.length, 1);
              batch.push({ table: o.table, op: 'delete', row: row! });
            }
          }
          c.step(batch);
        }
        const fresh = p.newCircuit();
        fresh.step(Object.entries(live).flatMap(([table, rows]) => rows.map((row) => ({ table, op: 'insert' as const, row }))));
        expect(rowsOf(c.contents('v'))).toEqual(rowsOf(fresh.contents('v')));
      }),
      { numRuns: 60 },
    );
  });
});
