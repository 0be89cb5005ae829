/**
 * Differential corpus views for the function and aggregate registries (bind/fns/): the functions Postgres
 * also has with the same semantics, or with a Postgres text that computes the same thing (noted per view).
 */
export const FN_VIEWS: Array<[string, string?]> = [
  // retractable aggregates (ops/accs/)
  ['SELECT a, BIT_AND(b) AS ba, BIT_OR(b) AS bo, BIT_XOR(b) AS bx FROM t GROUP BY a'],
  ['SELECT a, VAR_POP(x) AS vp, VAR_SAMP(x) AS vs, STDDEV_POP(x) AS sp, STDDEV_SAMP(x) AS ss, VARIANCE(x) AS v2, STDDEV(x) AS s2 FROM t GROUP BY a'],
  // integer and DECIMAL variance keep the argument type (truncated)
  [
    'SELECT a, VAR_POP(b) AS vp, VAR_SAMP(b) AS vs, STDDEV_POP(b) AS sp, VAR_POP(d) AS vd, VAR_SAMP(d) AS vsd FROM t GROUP BY a',
    // integers: Feldera's integer formula, (Q - S*S/n) / n (or n - 1), each division truncating; STDDEV its truncated root
    `SELECT a, DIV(SUM(b::numeric * b) - DIV(SUM(b::numeric) * SUM(b), NULLIF(COUNT(b), 0)), NULLIF(COUNT(b), 0)) AS vp,
      DIV(SUM(b::numeric * b) - DIV(SUM(b::numeric) * SUM(b), NULLIF(COUNT(b), 0)), NULLIF(COUNT(b) - 1, 0)) AS vs,
      TRUNC(SQRT(DIV(SUM(b::numeric * b) - DIV(SUM(b::numeric) * SUM(b), NULLIF(COUNT(b), 0)), NULLIF(COUNT(b), 0)))) AS sp,
      TRUNC(VAR_POP(d), 2) AS vd, TRUNC(VAR_SAMP(d), 2) AS vsd FROM t GROUP BY a`,
  ],
  ['SELECT a, COVAR_POP(x, b) AS cp, COVAR_SAMP(x, b) AS cs, REGR_COUNT(x, b) AS rc, REGR_SXX(x, b) AS rxx, REGR_SYY(x, b) AS ryy FROM t GROUP BY a'],
  ['SELECT a, ARRAY_AGG(b ORDER BY b DESC, id) AS ab, ARRAY_AGG(DISTINCT s ORDER BY s) AS ds FROM t GROUP BY a'],
  // ARRAY_AGG over no rows: [] as Feldera answers; Postgres answers NULL
  ['SELECT ARRAY_AGG(id ORDER BY id) FILTER (WHERE flag) AS ids, BIT_OR(a) AS bo FROM t', "SELECT COALESCE(ARRAY_AGG(id ORDER BY id) FILTER (WHERE flag), '{}') AS ids, BIT_OR(a) AS bo FROM t"],
  ['SELECT a, MODE(b) AS mb FROM t GROUP BY a', 'SELECT a, mode() WITHIN GROUP (ORDER BY b) AS mb FROM t GROUP BY a'],
  [
    'SELECT a, COUNTIF(flag) AS cf, LOGICAL_AND(flag) AS la, LOGICAL_OR(flag) AS lo FROM t GROUP BY a',
    'SELECT a, COUNT(*) FILTER (WHERE flag) AS cf, BOOL_AND(flag) AS la, BOOL_OR(flag) AS lo FROM t GROUP BY a',
  ],
  // GROUP BY ROLLUP / CUBE / GROUPING SETS (bind/grouping-sets.ts)
  ['SELECT a, s, COUNT(*) AS c, SUM(b) AS sb, GROUPING(a, s) AS g FROM t GROUP BY ROLLUP(a, s)'],
  ['SELECT a, flag, COUNT(*) AS c, GROUPING(flag) AS gf FROM t GROUP BY CUBE(a, flag) HAVING COUNT(*) > 1'],
  ['SELECT a, s, COUNT(*) AS c FROM t GROUP BY GROUPING SETS ((a), (s), ())'],
  // scalar functions
  [
    "SELECT id, CONCAT_WS('-', s, a, 'z') AS cw, MD5(s) AS m, ASCII(s) AS asc1, CHR(65 + a) AS ch, REGEXP_REPLACE(s, 'a+', 'X') AS rr, OVERLAY(s PLACING 'XY' FROM 2 FOR 1) AS ov FROM t",
    "SELECT id, CONCAT_WS('-', s, a, 'z') AS cw, MD5(s) AS m, ASCII(s) AS asc1, CHR(65 + a) AS ch, REGEXP_REPLACE(s, 'a+', 'X', 'g') AS rr, OVERLAY(s PLACING 'XY' FROM 2 FOR 1) AS ov FROM t",
  ],
  ['SELECT id, SIN(x) AS sx, COS(x) AS cx, ATAN2(x, 2) AS at, DEGREES(x) AS dg, RADIANS(x) AS rd, SINH(x) AS sh, TANH(x) AS th, PI() AS p, CBRT(x) AS cb FROM t'],
  [
    "SELECT id, SPLIT(s, 'b') AS sp, ARRAY_TO_STRING(ARRAY[a, b], ',', '*') AS ats, ARRAY_REMOVE(ARRAY[a, b, 1], 1) AS ar, ARRAY_CONCAT(ARRAY[a], ARRAY[b]) AS ac, ARRAY_APPEND(ARRAY[a], b) AS aa, ARRAY_PREPEND(ARRAY[a], b) AS ap FROM t",
    "SELECT id, string_to_array(s, 'b') AS sp, ARRAY_TO_STRING(ARRAY[a, b], ',', '*') AS ats, ARRAY_REMOVE(ARRAY[a, b, 1], 1) AS ar, array_cat(ARRAY[a], ARRAY[b]) AS ac, ARRAY_APPEND(ARRAY[a], b) AS aa, array_prepend(b, ARRAY[a]) AS ap FROM t",
  ],
  [
    "SELECT id, TIMESTAMPDIFF(MINUTE, ts, TIMESTAMP '2024-01-02 00:00:00') AS mins, DATE_ADD(dt, INTERVAL '1' MONTH) AS nm, MAKE_DATE(2024, a + 1, 1) AS md, FORMAT_DATE('%Y/%m/%d', dt) AS fd FROM t",
    "SELECT id, trunc(extract(epoch from (TIMESTAMP '2024-01-02 00:00:00' - ts)) / 60) AS mins, (dt + INTERVAL '1 month')::date AS nm, MAKE_DATE(2024, a + 1, 1) AS md, to_char(dt, 'YYYY/MM/DD') AS fd FROM t",
  ],
];
