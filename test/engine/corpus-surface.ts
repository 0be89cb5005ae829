/**
 * Differential corpus views for the FROM-clause and predicate constructs of bind/lateral.ts and the pre-pass
 * (UNNEST, WITH ORDINALITY, VALUES as a relation, LATERAL, BETWEEN SYMMETRIC, OVERLAPS), which Postgres also has,
 * and PIVOT, which it has not (its Postgres text is the GROUP BY with FILTERs that PIVOT stands for).
 * OVERLAPS differs: Postgres's periods are half-open, Calcite's (Feldera's) closed, so its Postgres text spells
 * Calcite's rule out (each period ordered by CASE, then e1 >= s2 AND e2 >= s1).
 */
const order = (a: string, b: string): [string, string] => [`CASE WHEN ${a} <= ${b} THEN ${a} ELSE ${b} END`, `CASE WHEN ${a} <= ${b} THEN ${b} ELSE ${a} END`];
const [s1, e1] = order('ts', "ts + INTERVAL '1' HOUR");
const [s2, e2] = order("TIMESTAMP '2024-01-01 10:45:00'", 'CAST(dt AS TIMESTAMP)');

export const SURFACE_VIEWS: Array<[string, string?]> = [
  ['SELECT t.id, e FROM t, UNNEST(ARRAY[a, b, id]) AS u (e)'],
  ['SELECT t.id, e, n FROM t CROSS JOIN UNNEST(ARRAY[a, b]) WITH ORDINALITY AS u (e, n) WHERE e IS NOT NULL'],
  ['SELECT u.id, e, f FROM u, UNNEST(ARRAY[u.a, u.c], ARRAY[u.s]) AS z (e, f)'],
  ['SELECT e, COUNT(*) AS c, SUM(id) AS si FROM t, UNNEST(ARRAY[a, b]) AS u (e) GROUP BY e'],
  ['SELECT k.name, t.id, e FROM k, t, UNNEST(ARRAY[t.a, k.grp]) AS z (e) WHERE k.grp = t.b'],
  ['SELECT id, (SELECT SUM(e) FROM UNNEST(ARRAY[a, b]) AS z (e)) AS s, (SELECT COUNT(*) FROM UNNEST(ARRAY[a, b, id]) AS z (e) WHERE e > 1) AS n FROM t'],
  ['SELECT id FROM t WHERE EXISTS (SELECT 1 FROM UNNEST(ARRAY[a, b]) AS z (e) WHERE e > 2) OR b IN (SELECT e FROM UNNEST(ARRAY[a, 1]) AS z (e))'],
  ["SELECT v.k, v.label, t.id FROM (VALUES (1, 'one'), (2, 'two'), (4, 'four')) AS v (k, label) JOIN t ON t.a = v.k"],
  ['SELECT id FROM t WHERE a IN (VALUES (1), (3))'],
  ['SELECT t.id, q.c FROM t, LATERAL (SELECT u.c FROM u WHERE u.a = t.a AND u.c > t.b) AS q'],
  ['SELECT t.id, q.c, q.sc FROM t, LATERAL (SELECT COUNT(*) AS c, SUM(u.c) AS sc FROM u WHERE u.a = t.a AND u.id <> t.id) AS q'],
  ['SELECT t.id, q.s, q.n FROM t CROSS JOIN LATERAL (SELECT u.s, COUNT(*) AS n FROM u WHERE u.a = t.a GROUP BY u.s) AS q'],
  // PIVOT: Postgres has none; its text is the GROUP BY with FILTERs that PIVOT means
  [
    'SELECT * FROM k PIVOT (COUNT(*) AS n, MAX(id) AS m FOR grp IN (0 AS g0, 1 AS g1))',
    'SELECT name, COUNT(*) FILTER (WHERE grp = 0) AS g0_n, MAX(id) FILTER (WHERE grp = 0) AS g0_m, COUNT(*) FILTER (WHERE grp = 1) AS g1_n, MAX(id) FILTER (WHERE grp = 1) AS g1_m FROM k GROUP BY name',
  ],
  [
    "SELECT * FROM (SELECT a, s, b FROM t) PIVOT (SUM(b) FOR (a, s) IN ((1, 'a') AS one_a, (2, 'b') AS two_b))",
    "SELECT SUM(b) FILTER (WHERE a = 1 AND s = 'a') AS one_a, SUM(b) FILTER (WHERE a = 2 AND s = 'b') AS two_b FROM t",
  ],
  ['SELECT t.id, q.c FROM t LEFT JOIN LATERAL (SELECT u.c FROM u WHERE u.a = t.a) AS q ON q.c > t.b'],
  ['SELECT t.id, v.e, v.tag FROM t CROSS JOIN LATERAL (VALUES (t.a, 1), (t.b, 2)) AS v (e, tag) WHERE v.e IS NOT NULL'],
  ['SELECT t.id, x.val FROM t, LATERAL (SELECT t.a + t.b AS val) AS x'],
  ['SELECT id FROM t WHERE a BETWEEN SYMMETRIC b AND 3'],
  ['SELECT id, a NOT BETWEEN SYMMETRIC b AND 2 AS nb FROM t'],
  ["SELECT id, (ts, INTERVAL '1' HOUR) OVERLAPS (TIMESTAMP '2024-01-01 10:45:00', CAST(dt AS TIMESTAMP)) AS o FROM t", `SELECT id, (${e1} >= ${s2} AND ${e2} >= ${s1}) AS o FROM t`],
];
