/**
 * Differential corpus views for join planning (bind/join-order.ts): explicit JOIN chains written in bad
 * orders (cross products first, keys late), the same conditions in ON or in WHERE, chains mixing inner and
 * outer joins (a condition must never move across an outer join), inner chains inside outer joins, NULL
 * keys, keys over three tables, and ON names that resolve only among the tables of their own join.
 */
export const JOIN_VIEWS: Array<[string, string?]> = [
  // bad orders: a cross product written first, the keys in a later ON
  ['SELECT t.id, u.id AS uid, k.name FROM t CROSS JOIN k JOIN u ON u.c = k.grp AND t.a = u.a'],
  ['SELECT t1.id, t2.id AS id2, t3.id AS id3 FROM t AS t1 JOIN t AS t3 ON t3.b > 0 JOIN t AS t2 ON t1.a = t2.a AND t2.b = t3.a'],
  // a five-table chain t - u - k - u2 - k2, written with its ends first
  ["SELECT t.id, u.id AS uid, k.id AS kid, u2.id AS u2id, k2.id AS k2id FROM t JOIN k AS k2 ON k2.name <> 'z' JOIN u ON t.a = u.a JOIN u AS u2 ON u2.c = k2.grp JOIN k ON k.id = u.c AND k.grp = u2.a"],
  // the same join with its conditions in ON or in WHERE
  ['SELECT t.id, u.id AS uid FROM t JOIN u ON t.a = u.a AND t.b > 0 AND u.c < 2'],
  ['SELECT t.id, u.id AS uid FROM t JOIN u ON t.a = u.a WHERE t.b > 0 AND u.c < 2'],
  ['SELECT t.id, u.id AS uid, k.id AS kid FROM t CROSS JOIN u CROSS JOIN k WHERE k.id = u.c AND t.a = u.a AND k.grp <> t.b'],
  // mixed inner and outer chains
  ['SELECT t.id, u.id AS uid, k.name FROM t LEFT JOIN u ON t.a = u.a JOIN k ON k.id = t.b'],
  ['SELECT t.id, u.id AS uid, k.name FROM t LEFT JOIN u ON t.a = u.a JOIN k ON k.grp = u.c'],
  ['SELECT t.id, u.id AS uid, k.name FROM t LEFT JOIN u ON t.a = u.a JOIN k ON k.id = t.b WHERE u.c IS NULL'],
  ['SELECT k.id, t.id AS tid, u.id AS uid FROM k JOIN t ON k.id = t.a LEFT JOIN u ON u.a = t.b AND u.c > 0 WHERE k.grp IS NOT NULL'],
  ['SELECT t.id, u.id AS uid, k.id AS kid FROM t JOIN k ON k.id = t.a RIGHT JOIN u ON u.c = k.grp'],
  ['SELECT t.id, u.id AS uid, k.id AS kid FROM t FULL JOIN u ON t.a = u.a JOIN k ON k.id = u.c OR k.id = t.b'],
  // an ON conjunct on the optional side of an outer join filters that side; one on the kept side must not
  ['SELECT t.id, u.id AS uid FROM t RIGHT JOIN u ON t.a = u.a AND t.b > 0'],
  ['SELECT t.id, u.id AS uid FROM t LEFT JOIN u ON t.a = u.a AND t.b > 0 AND u.c <> 1'],
  ['SELECT t.id, u.id AS uid FROM t FULL JOIN u ON t.a = u.a AND t.b > 0 AND u.c <> 1'],
  // a WHERE condition on the kept side of an outer join filters that side; one on the optional side must not
  ['SELECT t.id, u.id AS uid FROM t LEFT JOIN u ON t.a = u.a WHERE t.b > 0 AND u.c IS NULL'],
  ['SELECT t.id, u.id AS uid, k.name FROM k JOIN u ON k.id = u.c RIGHT JOIN t ON t.a = u.a WHERE t.b <> 1 AND (k.grp > 0 OR k.grp IS NULL)'],
  ['SELECT t.id, u.id AS uid FROM t FULL JOIN u ON t.a = u.a WHERE t.b > 0'],
  ['SELECT t.id, u.id AS uid FROM k, t LEFT JOIN u ON t.a = u.a AND t.b > 0 WHERE k.id = t.a AND t.s IS NOT NULL'],
  // an inner chain inside an outer join, written in a bad order
  ['SELECT t.id, u.id AS uid, k.name FROM t LEFT JOIN (u CROSS JOIN k) ON t.a = u.a AND k.id = u.c'],
  ['SELECT k.id, q.tid, q.uid FROM k LEFT JOIN (SELECT t.id AS tid, u.id AS uid, u.c FROM t CROSS JOIN u JOIN k AS k2 ON k2.id = u.c AND t.a = k2.grp) AS q ON q.c = k.grp'],
  // NULL keys never meet; IS NOT DISTINCT FROM does
  ['SELECT t.id, u.id AS uid FROM t CROSS JOIN u JOIN k ON k.grp = t.a AND k.grp = u.c'],
  ['SELECT t.id, u.id AS uid FROM k JOIN u ON k.id = u.c JOIN t ON t.a IS NOT DISTINCT FROM u.a WHERE k.grp = 1'],
  // a key over three tables
  ['SELECT t.id, u.id AS uid, k.id AS kid FROM t CROSS JOIN u JOIN k ON t.a + u.a = k.grp'],
  // ON names resolve among their own join's tables (ua is ambiguous in the whole FROM)
  ['SELECT q.uid, k.name, r.ua FROM (SELECT id AS uid, a AS ua FROM u) AS q JOIN k ON ua = grp CROSS JOIN (SELECT a AS ua FROM t) AS r WHERE r.ua = k.id'],
  // USING inside a planned chain
  ['SELECT t.a, u.c, k.name FROM k CROSS JOIN t JOIN u USING (a) WHERE k.id = u.c'],
];
