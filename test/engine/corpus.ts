/**
 * Differential-test corpus: one program of tables and views; each view has our SQL and, where Calcite and
 * Postgres differ on purpose, the Postgres text that computes the same thing (documented differences:
 * integer and DECIMAL AVG truncate in Calcite; TUMBLE/HOP do not exist in Postgres).
 */
import { FN_VIEWS } from './corpus-fns.js';
import { SURFACE_VIEWS } from './corpus-surface.js';
import { JOIN_VIEWS } from './corpus-joins.js';

export const TABLES_SQL = `
CREATE TABLE t (id INT NOT NULL, a INT, b INT, s VARCHAR, d DECIMAL(10,2), x DOUBLE, ts TIMESTAMP, flag BOOLEAN, dt DATE);
CREATE TABLE u (id INT NOT NULL, a INT, c INT, s VARCHAR);
CREATE TABLE k (id INT NOT NULL PRIMARY KEY, name VARCHAR, grp INT);
`;

export const PG_TABLES_SQL = TABLES_SQL.replace('x DOUBLE', 'x DOUBLE PRECISION');

export interface CorpusView {
  name: string;
  sql: string;
  pg?: string;
}

const V: Array<[string, string?]> = [
  ['SELECT * FROM t'],
  ['SELECT id, a + b AS ab, a - b AS amb, a * b AS atb FROM t'],
  ['SELECT id FROM t WHERE a > 2'],
  ['SELECT id, a FROM t WHERE a IS NULL OR b IS NOT NULL'],
  ["SELECT id, CASE WHEN a > 2 THEN 'big' WHEN a IS NULL THEN 'none' ELSE 'small' END AS sz FROM t"],
  ['SELECT id, COALESCE(a, b, -1) AS c, NULLIF(a, 0) AS n FROM t'],
  ["SELECT id FROM t WHERE a IN (1, 3) OR s IN ('a', 'c')"],
  ['SELECT id FROM t WHERE a NOT IN (1, 2)'],
  ['SELECT id FROM t WHERE a BETWEEN 1 AND 3'],
  ["SELECT id FROM t WHERE s LIKE 'a%'"],
  ["SELECT id, UPPER(s) AS us, LOWER(s) AS ls, CHAR_LENGTH(s) AS ln, s || 'x' AS sx FROM t"],
  ["SELECT id, SUBSTRING(s FROM 1 FOR 1) AS f, TRIM(s) AS tr, POSITION('b' IN s) AS p FROM t"],
  [
    'SELECT id, CAST(a AS VARCHAR) AS sa, CAST(a AS DECIMAL(10,2)) AS da, CAST(d AS DOUBLE) AS dd FROM t',
    'SELECT id, CAST(a AS VARCHAR) AS sa, CAST(a AS DECIMAL(10,2)) AS da, CAST(d AS DOUBLE PRECISION) AS dd FROM t',
  ],
  ['SELECT id, d * 2 AS d2, d + 1 AS d1, d - d AS z, d * d AS dsq FROM t'],
  ['SELECT id, x * 2 AS x2, x + a AS xa FROM t'],
  ['SELECT id, a / 2 AS h, a % 3 AS m, b / 2 AS hb, b % 2 AS mb FROM t'],
  ['SELECT id, EXTRACT(YEAR FROM ts) AS y, EXTRACT(HOUR FROM ts) AS h, EXTRACT(DAY FROM ts) AS dd FROM t'],
  ["SELECT id FROM t WHERE ts > TIMESTAMP '2024-01-01 12:00:00'"],
  ["SELECT id, ts + INTERVAL '1' HOUR AS later, ts - INTERVAL '30' MINUTE AS earlier FROM t"],
  ['SELECT id FROM t WHERE flag AND a > 1'],
  ['SELECT id FROM t WHERE NOT flag OR flag IS NULL'],
  ['SELECT a, COUNT(*) AS c FROM t GROUP BY a'],
  ['SELECT a, COUNT(b) AS cb, SUM(b) AS sb, MIN(b) AS mn, MAX(b) AS mx FROM t GROUP BY a'],
  ['SELECT a, AVG(b) AS av FROM t GROUP BY a', 'SELECT a, TRUNC(AVG(b)) AS av FROM t GROUP BY a'],
  ['SELECT s, SUM(d) AS sd, AVG(d) AS ad FROM t GROUP BY s', 'SELECT s, SUM(d) AS sd, TRUNC(AVG(d), 2) AS ad FROM t GROUP BY s'],
  ['SELECT COUNT(*) AS c, SUM(a) AS sa, MAX(s) AS ms, MIN(ts) AS mt FROM t'],
  ['SELECT COUNT(DISTINCT a) AS da, COUNT(DISTINCT s) AS ds, SUM(DISTINCT b) AS sdb FROM t'],
  ['SELECT a, COUNT(*) FILTER (WHERE b > 0) AS pos, SUM(b) FILTER (WHERE flag) AS sf FROM t GROUP BY a'],
  ['SELECT a, COUNT(*) AS c FROM t GROUP BY a HAVING COUNT(*) > 1'],
  ['SELECT DISTINCT a FROM t'],
  ['SELECT DISTINCT a, s FROM t'],
  ['SELECT t.id, u.c FROM t JOIN u ON t.a = u.a'],
  ['SELECT t.id, u.id AS uid FROM t JOIN u ON t.a = u.a AND t.b < u.c'],
  ['SELECT t.id, u.c FROM t LEFT JOIN u ON t.a = u.a'],
  ['SELECT t.id, u.c FROM t RIGHT JOIN u ON t.a = u.a'],
  ['SELECT t.id, u.id AS uid FROM t FULL JOIN u ON t.a = u.a'],
  ['SELECT t.id, u.id AS uid FROM t FULL OUTER JOIN u ON t.a = u.a AND t.s = u.s'],
  ['SELECT t.id, u.id AS uid FROM t LEFT JOIN u ON t.a = u.a AND u.c > 0'],
  ['SELECT t.id, k.name FROM t CROSS JOIN k'],
  ['SELECT t.id, k.name FROM t, k WHERE t.a = k.grp'],
  ['SELECT k.name, COUNT(*) AS c, SUM(t.b) AS sb FROM t JOIN k ON t.a = k.id GROUP BY k.name'],
  ['SELECT u.a, COUNT(t.id) AS c FROM u LEFT JOIN t ON t.a = u.a GROUP BY u.a'],
  ['SELECT a FROM t UNION SELECT a FROM u'],
  ['SELECT a FROM t UNION ALL SELECT a FROM u'],
  ['SELECT a FROM t EXCEPT SELECT a FROM u'],
  ['SELECT a FROM t INTERSECT SELECT a FROM u'],
  ['SELECT a FROM t EXCEPT ALL SELECT a FROM u'],
  ['SELECT a FROM t INTERSECT ALL SELECT a FROM u'],
  ['SELECT id FROM t WHERE a IN (SELECT a FROM u)'],
  ['SELECT id FROM t WHERE a NOT IN (SELECT a FROM u)'],
  ['SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c > 0)'],
  ['SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)'],
  ['SELECT q.a, q.c FROM (SELECT a, COUNT(*) AS c FROM t GROUP BY a) AS q WHERE q.c >= 2'],
  ['WITH big AS (SELECT * FROM t WHERE b > 0) SELECT a, COUNT(*) AS c FROM big GROUP BY a'],
  ['SELECT id, a FROM t ORDER BY a DESC, id LIMIT 3'],
  ['SELECT * FROM (SELECT id, a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY id) AS rn FROM t) q WHERE rn <= 2'],
  ['SELECT id, a, b, RANK() OVER (PARTITION BY a ORDER BY b) AS r, DENSE_RANK() OVER (PARTITION BY a ORDER BY b) AS dr FROM t'],
  // uncorrelated scalar subqueries (bind/scalar.ts)
  ['SELECT id, b FROM t WHERE b >= (SELECT MAX(c) FROM u)'],
  ['SELECT id, (SELECT COUNT(*) FROM u) AS nu FROM k'],
  ['SELECT a, COUNT(*) AS c FROM t GROUP BY a HAVING COUNT(*) > (SELECT COUNT(*) FROM u WHERE c > 0)'],
  ['SELECT a, SUM(b) - (SELECT MIN(c) FROM u) AS x FROM t GROUP BY a'],
  // top ranks only: an incremental top-k per partition (ops/rank-topk.ts)
  ['SELECT * FROM (SELECT id, a, b, RANK() OVER (PARTITION BY a ORDER BY b DESC) AS r FROM t) q WHERE r <= 2'],
  ['SELECT * FROM (SELECT a, b, DENSE_RANK() OVER (PARTITION BY a ORDER BY b) AS dr FROM t) q WHERE dr < 3'],
  ['SELECT id, a FROM (SELECT id, a, b, ROW_NUMBER() OVER (PARTITION BY a ORDER BY b, id) AS rn FROM t) q WHERE rn <= 2 AND id > 0'],
  ['SELECT s, d FROM (SELECT s, d, ROW_NUMBER() OVER (ORDER BY d DESC, s) AS rn FROM t) q WHERE 1 >= rn'],
  [
    'SELECT id, grp, name FROM k QUALIFY ROW_NUMBER() OVER (PARTITION BY grp ORDER BY name, id) <= 2',
    'SELECT id, grp, name FROM (SELECT id, grp, name, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY name, id) AS rn FROM k) q WHERE rn <= 2',
  ],
  ['SELECT id, grp, SUM(id) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2 FROM k'],
  ["SELECT id, b, SUM(b) OVER (PARTITION BY a ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS sb FROM t"],
  ['SELECT id, b, COUNT(*) OVER (PARTITION BY a ORDER BY b DESC RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING) AS cb FROM t'],
  [
    'SELECT id, grp, MIN(name) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS mn, MAX(id) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS mx FROM k',
  ],
  ['SELECT id, a, b, SUM(b) OVER (PARTITION BY a ORDER BY b) AS run, COUNT(b) OVER (PARTITION BY a ORDER BY b) AS nb FROM t'],
  [
    'SELECT id, a, b, LAG(b) OVER (PARTITION BY a ORDER BY b, id) AS pb, LEAD(b, 2, -1) OVER (PARTITION BY a ORDER BY b, id) AS nb2, SUM(b) OVER (PARTITION BY a ORDER BY b, id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS sb FROM t',
  ],
  ['SELECT id, grp, LAG(id) OVER (PARTITION BY grp ORDER BY id) AS prev, LEAD(id, 1) OVER (PARTITION BY grp ORDER BY id) AS nxt FROM k'],
  [
    "SELECT window_start, window_end, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR)) GROUP BY window_start, window_end",
    "SELECT date_trunc('hour', ts) AS window_start, date_trunc('hour', ts) + INTERVAL '1 hour' AS window_end, COUNT(*) AS c FROM t WHERE ts IS NOT NULL GROUP BY 1, 2",
  ],
  [
    "SELECT window_start, SUM(b) AS sb FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '2' HOUR)) GROUP BY window_start",
    "SELECT ws AS window_start, SUM(b) AS sb FROM t, LATERAL (SELECT generate_series(date_trunc('hour', ts) - INTERVAL '1 hour', date_trunc('hour', ts), INTERVAL '1 hour') AS ws) g WHERE ts IS NOT NULL GROUP BY ws",
  ],
  ['SELECT a, MAX(c) AS mc FROM (SELECT a, s, COUNT(*) AS c FROM t GROUP BY a, s) q GROUP BY a'],
  ['SELECT grp, COUNT(*) AS c, MIN(name) AS mn FROM k GROUP BY grp'],
  ['SELECT a, b FROM t WHERE a = b'],
  ['SELECT COUNT(*) AS c FROM t JOIN u ON t.s = u.s'],
  ['SELECT id FROM t WHERE (a > 1) IS NOT TRUE'],
  ['SELECT id, ABS(b) AS ab, CEIL(x) AS cx, FLOOR(x) AS fx, ROUND(d, 1) AS rd FROM t'],
  ['SELECT MIN(d) AS mn, MAX(d) AS mx, SUM(x) AS sx, AVG(x) AS ax FROM t'],
  ['SELECT a, b FROM t WHERE a = 1 UNION SELECT b, a FROM t WHERE b = 1'],
  ['SELECT t.a, COUNT(DISTINCT u.c) AS dc FROM t JOIN u ON t.a = u.a GROUP BY t.a'],
  ['SELECT k.id, k.name, t.id AS tid FROM k LEFT JOIN t ON k.id = t.id WHERE t.id IS NULL'],
  ['SELECT s, COUNT(*) AS c FROM t WHERE s IS NOT NULL GROUP BY s HAVING SUM(b) > 0 OR MIN(a) IS NULL'],
  ['SELECT id, CASE a WHEN 1 THEN 10 WHEN 2 THEN 20 END AS m FROM t'],
  [
    'SELECT GREATEST(a, b) AS g, LEAST(a, b) AS l FROM t',
    'SELECT CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE GREATEST(a, b) END AS g, CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE LEAST(a, b) END AS l FROM t',
  ],
  ['SELECT a, SUM(b) AS sb FROM t GROUP BY a ORDER BY a LIMIT 2'],
  ['SELECT t.id, u.c, k.name FROM t, u, k WHERE t.a = u.a AND u.c = k.grp AND t.b > k.id'],
  ['SELECT t.id, u.id AS uid FROM t, u WHERE t.a = u.a AND t.s = u.s OR t.b = u.c'],
  ['SELECT a + 1 AS a1, COUNT(*) AS c FROM t GROUP BY a1'],
  ["SELECT id, dt, EXTRACT(MONTH FROM dt) AS m, EXTRACT(DOY FROM dt) AS doy FROM t WHERE dt >= DATE '2024-02-01'"],
  ['SELECT dt, COUNT(*) AS c, MIN(ts) AS first_ts FROM t GROUP BY dt'],
  ['SELECT id FROM t WHERE CAST(ts AS DATE) = dt'],
  ['SELECT id, CAST(dt AS VARCHAR) AS sd, CAST(ts AS VARCHAR) AS sts FROM t', "SELECT id, CAST(dt AS VARCHAR) AS sd, to_char(ts, 'YYYY-MM-DD HH24:MI:SS') AS sts FROM t"],
  ['SELECT s, COUNT(*) AS c, MAX(ts) AS mt FROM t GROUP BY 1'],
  ['SELECT DISTINCT s FROM t WHERE a IS NOT NULL ORDER BY s LIMIT 2'],
  ['SELECT a, COUNT(*) AS c FROM (SELECT a FROM t UNION ALL SELECT a FROM u) q GROUP BY a'],
  ['SELECT t.a, u.c FROM t JOIN u USING (a)', 'SELECT t.a, u.c FROM t JOIN u USING (a)'],
  // subqueries anywhere (decorrelated: bind/decorrelate.ts)
  ['SELECT id FROM t WHERE a IN (SELECT a FROM u) OR b > 2'],
  ['SELECT id, a IN (SELECT c FROM u) AS m, a NOT IN (SELECT c FROM u) AS nm FROM t'],
  ['SELECT id, (SELECT COUNT(*) FROM t AS x WHERE x.b < t.b) AS c FROM t'],
  ['SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t AS x WHERE x.b < t.b)'],
  ['SELECT id FROM t WHERE a > 3 OR EXISTS (SELECT 1 FROM u WHERE u.c = t.b)'],
  ['SELECT id FROM t WHERE NOT (a IN (SELECT c FROM u WHERE u.id > t.id))'],
  ['SELECT id, (SELECT MAX(c) FROM u WHERE u.a = t.a) AS mc, (SELECT SUM(c) FROM u WHERE u.a = t.a AND u.c > t.b) AS sc FROM t'],
  ['SELECT id, (SELECT COUNT(*) + 1 FROM u WHERE u.a = t.a) AS c1 FROM t'],
  ['SELECT id FROM t WHERE b = (SELECT MIN(c) FROM u WHERE u.a = t.a)'],
  ['SELECT id, EXISTS (SELECT 1 FROM u WHERE u.s = t.s) AS e, NOT EXISTS (SELECT 1 FROM k WHERE k.grp = t.a) AS ne FROM t'],
  ['SELECT id FROM t WHERE a IN (SELECT grp FROM k) AND NOT (b IN (SELECT c FROM u))'],
  ['SELECT a, COUNT(*) AS n, (SELECT COUNT(*) FROM u WHERE u.a = t.a) AS un FROM t GROUP BY a'],
  ['SELECT a, COUNT(*) AS n FROM t GROUP BY a HAVING COUNT(*) > (SELECT COUNT(*) FROM u WHERE u.a = t.a)'],
  ['SELECT k.id, (SELECT name FROM k AS k2 WHERE k2.id = k.grp) AS gname FROM k'],
  ['SELECT id, CASE WHEN EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.c > t.b) THEN 1 ELSE 0 END AS f FROM t'],
  ['SELECT id FROM t WHERE a IN (SELECT u.a FROM u WHERE u.c >= t.b AND u.s = t.s) OR a IS NULL'],
  // planned comma joins: single-table conditions pushed down, joined along keys, FROM order kept in the row
  ["SELECT u.id AS uid, u.s, t.id, t.b, k.name FROM u, t, k WHERE t.a = k.grp AND k.id = u.c AND t.b > 0 AND u.s <> 'c'"],
  ['SELECT t.id, u.id AS uid FROM t, u, k WHERE u.a = k.grp AND t.id = 3'],
];

export const VIEWS: CorpusView[] = [...V, ...FN_VIEWS, ...JOIN_VIEWS, ...SURFACE_VIEWS].map(([sql, pg], i) => ({ name: `v${i + 1}`, sql, pg }));

// views over views
VIEWS.push({ name: 'vv1', sql: 'SELECT a, c FROM v22 WHERE c > 1' });
VIEWS.push({ name: 'vv2', sql: 'SELECT v32.id, v22.c FROM v32 JOIN v22 ON v32.id = v22.a' });

export function programSql(): string {
  return TABLES_SQL + VIEWS.map((v) => `CREATE VIEW ${v.name} AS ${v.sql};`).join('\n');
}

export function pgProgramSql(): string {
  return PG_TABLES_SQL + VIEWS.map((v) => `CREATE VIEW ${v.name} AS ${withLowNulls(v.pg ?? v.sql)};`).join('\n');
}

/**
 * `sql` with each ORDER BY item that does not say where NULLs go given Feldera's default (NULLs smaller than
 * any value: NULLS FIRST ascending, NULLS LAST descending), which Postgres's is the opposite of.
 */
export function withLowNulls(sql: string): string {
  const out: string[] = [];
  const re = /\bORDER BY\b/gi;
  let from = 0;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    let i = m.index + m[0].length;
    out.push(sql.slice(from, i));
    let depth = 0;
    let item = '';
    const flush = () => {
      const bare = item.trimEnd();
      out.push(/\bNULLS\s+(FIRST|LAST)$/i.test(bare) ? item : bare + (/\bDESC$/i.test(bare) ? ' NULLS LAST' : ' NULLS FIRST') + item.slice(bare.length));
      item = '';
    };
    for (; i < sql.length; i++) {
      const ch = sql[i]!;
      if (depth === 0 && (ch === ')' || /^\s(ROWS|RANGE|LIMIT|OFFSET)\b/i.test(sql.slice(i)))) break;
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (depth === 0 && ch === ',') {
        flush();
        out.push(',');
        continue;
      }
      item += ch;
    }
    flush();
    from = i;
    re.lastIndex = i;
  }
  out.push(sql.slice(from));
  return out.join('');
}
