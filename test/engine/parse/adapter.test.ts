/** Golden tests for the pre-pass and the parser adapter: they pin the parser's AST shapes we depend on. */
import { describe, expect, it } from 'vitest';
import { prepass } from '../../../src/engine/parse/prepass.js';
import { Adapter, parseRaw, parserErrorPosition } from '../../../src/engine/parse/adapter.js';
import type { Statement, Query, Select } from '../../../src/engine/parse/ast.js';

function parseOne(sql: string): Statement {
  const pre = prepass(sql);
  expect(pre.errors).toEqual([]);
  const st = pre.statements[0]!;
  const raw = parseRaw(st.text);
  return new Adapter({ line: 1, column: 1 }).statement(raw[0], st.local);
}

const strip = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (k, v) => (k === 'pos' ? undefined : v)));

describe('pre-pass', () => {
  it('keeps text length and line breaks, and records Feldera-only syntax', () => {
    const sql = `CREATE LOCAL VIEW v AS SELECT 1;
CREATE TABLE t (
  a INT ARRAY,
  ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR,
  p INT FOREIGN KEY REFERENCES other(id) -- comment; with a semicolon
);
SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE));
LATENESS v.ts INTERVAL 1 HOUR;`;
    const { statements, errors } = prepass(sql);
    expect(errors).toEqual([]);
    expect(statements).toHaveLength(4);
    for (const st of statements.slice(0, 3)) {
      expect(st.text.length).toBe(st.end - st.start);
      expect(st.text.split('\n').length).toBe(sql.slice(st.start, st.end).split('\n').length);
    }
    expect(statements[0]!.local).toBe(true);
    expect(statements[0]!.text).not.toMatch(/LOCAL/);
    expect(statements[1]!.text).toMatch(/a INT \[\]/);
    expect(statements[1]!.text).not.toMatch(/LATENESS|FOREIGN/);
    expect(statements[1]!.columnAttrs).toEqual([{ column: 'ts', kind: 'LATENESS', expr: "INTERVAL '1' HOUR", start: expect.any(Number) }]);
    expect(statements[2]!.text).toMatch(/TUMBLE\(\s+t, DESCRIPTOR/);
    expect(statements[3]!.lateness).toEqual({ target: ['v', 'ts'], expr: 'INTERVAL 1 HOUR' });
  });

  it('reports unsupported statements with their offset', () => {
    const { errors } = prepass('CREATE TABLE t (a INT);\nCREATE INDEX i ON t(a);\nDECLARE RECURSIVE VIEW r (x INT);');
    expect(errors.map((e) => e.message)).toEqual(['CREATE INDEX is not supported', 'DECLARE RECURSIVE VIEW is not supported']);
  });
});

describe('adapter', () => {
  it('CREATE TABLE: columns, types, NOT NULL, primary keys, connectors', () => {
    const s = parseOne(`CREATE TABLE "Tab" (id BIGINT NOT NULL PRIMARY KEY, d DECIMAL(10, 2), s VARCHAR(5), PRIMARY KEY (id)) WITH ('connectors' = '[]', 'materialized' = 'true')`);
    expect(s.k).toBe('createTable');
    if (s.k !== 'createTable') return;
    expect(s.name).toMatchObject({ value: 'Tab', quoted: true });
    expect(s.columns.map((c) => [c.name.value, c.notNull, c.primaryKey])).toEqual([
      ['id', true, true],
      ['d', false, false],
      ['s', false, false],
    ]);
    expect(s.columns[1]!.type).toEqual({ Decimal: { PrecisionAndScale: [10, 2] } });
    expect(s.primaryKey.map((p) => p.value)).toEqual(['id', 'id']);
    expect(s.options.map((o) => [o.key, o.value])).toEqual([
      ['connectors', '[]'],
      ['materialized', 'true'],
    ]);
  });

  it('SELECT: items, joins, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT', () => {
    const s = parseOne(`CREATE MATERIALIZED VIEW v (x, n) AS
      SELECT DISTINCT t.a AS x, COUNT(*) FILTER (WHERE b > 1) FROM t LEFT JOIN u USING (a) WHERE a IN (1, 2) AND NOT b IS NULL
      GROUP BY t.a HAVING COUNT(*) > 1 ORDER BY x DESC LIMIT 3`);
    if (s.k !== 'createView') throw new Error('not a view');
    expect(s.materialized).toBe(true);
    expect(s.columns.map((c) => c.value)).toEqual(['x', 'n']);
    const q: Query = s.query;
    expect(q.limit).toMatchObject({ k: 'num', text: '3' });
    expect(q.orderBy).toMatchObject([{ asc: false, expr: { k: 'col' } }]);
    const sel = q.body as Select;
    expect(sel.distinct).toBe(true);
    expect(strip(sel.items[1])).toEqual({
      k: 'expr',
      expr: {
        k: 'func',
        name: 'COUNT',
        args: [],
        star: true,
        distinct: false,
        filter: { k: 'bin', op: 'Gt', left: { k: 'col', parts: [{ value: 'b', quoted: false }] }, right: { k: 'num', text: '1' } },
      },
    });
    expect(sel.from[0]).toMatchObject({ k: 'join', kind: 'LEFT', using: [{ value: 'a' }] });
    expect(sel.where).toMatchObject({ k: 'bin', op: 'And', left: { k: 'inlist', not: false }, right: { k: 'un', op: 'NOT', expr: { k: 'is', what: 'NULL' } } });
    expect(sel.groupBy).toMatchObject([{ k: 'col', parts: [{ value: 't' }, { value: 'a' }] }]);
    expect(sel.having).toMatchObject({ k: 'bin', op: 'Gt' });
  });

  it('windows, TUMBLE, CASE, CAST, EXTRACT, intervals, set operations', () => {
    const s = parseOne(`CREATE VIEW v AS
      SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS rn,
             CASE WHEN a > 1 THEN 'x' ELSE 'y' END, CAST(a AS DECIMAL(5, 1)), EXTRACT(YEAR FROM ts), ts + INTERVAL '2' DAY
      FROM TABLE(TUMBLE(t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
      UNION ALL SELECT 1, 'z', NULL, 2, NULL`);
    if (s.k !== 'createView') throw new Error('not a view');
    expect(s.query.body).toMatchObject({ k: 'setop', op: 'UNION', all: true });
    const sel = (s.query.body as { left: Select }).left;
    const items = sel.items.map((i) => (i.k === 'expr' ? strip(i.expr) : i)) as Array<Record<string, unknown>>;
    expect(items[0]).toMatchObject({
      k: 'func',
      name: 'ROW_NUMBER',
      over: { partitionBy: [{ k: 'col' }], orderBy: [{ asc: true }], frame: { units: 'RANGE', start: { kind: 'PRECEDING', offset: { k: 'interval', unit: 'HOUR' } }, end: { kind: 'CURRENT' } } },
    });
    expect(items[1]).toMatchObject({ k: 'case', whens: [{ cond: { k: 'bin' }, result: { k: 'str', value: 'x' } }], else: { k: 'str', value: 'y' } });
    expect(items[2]).toMatchObject({ k: 'cast', type: { Decimal: { PrecisionAndScale: [5, 1] } } });
    expect(items[3]).toMatchObject({ k: 'extract', field: 'YEAR' });
    expect(items[4]).toMatchObject({ k: 'bin', op: 'Plus', right: { k: 'interval', unit: 'DAY', value: { k: 'str', value: '2' } } });
    expect(sel.from[0]).toMatchObject({ k: 'tvf', name: 'TUMBLE', args: [{ k: 'col' }, { k: 'descriptor', cols: [{ value: 'ts' }] }, { k: 'interval' }] });
  });

  it('parser errors carry line and column', () => {
    let err: unknown;
    try {
      parseRaw('SELECT a,\n b FROM t WHERE x = )');
    } catch (e) {
      err = e;
    }
    expect(parserErrorPosition(err)).toEqual({ message: 'Expected: an expression, found: )', line: 2, column: 21 });
  });
});
