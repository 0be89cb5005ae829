/** Ad-hoc INSERT (ingress/adhoc-insert.ts): the statement's parts, and its rows through a real runtime and engine. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../../../src/engine/index.js';
import { hasStatementAfterFirst } from '../../../../src/services/pipelines/worker/egress/adhoc.js';
import { FelderaError } from '../../../../src/services/pipelines/shared/errors.js';
import { answerInsert, parseInsert } from '../../../../src/services/pipelines/worker/ingress/adhoc-insert.js';
import { isInsertStatement } from '../../../../src/services/pipelines/shared/sql-words.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/worker/runtime.js';

describe('parseInsert', () => {
  it('finds the table, the column list and the source, past comments and quoted names', () => {
    expect(parseInsert("INSERT INTO t VALUES (1, 'a');")).toEqual({ table: 't', columns: null, source: "VALUES (1, 'a')" });
    expect(parseInsert('  -- a comment\n/* and another */ insert\ninto "My ""T""" ( a , "B c" ) select 1, 2 from x')).toEqual({
      table: '"My ""T"""',
      columns: ['a', '"B c"'],
      source: 'select 1, 2 from x',
    });
    // a parenthesized source is not a column list
    expect(parseInsert('INSERT INTO t (SELECT a FROM u)')).toEqual({ table: 't', columns: null, source: '(SELECT a FROM u)' });
    expect(parseInsert('INSERT INTO t (a) WITH w AS (SELECT 1 AS a) SELECT a FROM w')).toEqual({ table: 't', columns: ['a'], source: 'WITH w AS (SELECT 1 AS a) SELECT a FROM w' });
    // a column whose name starts like a keyword is a column
    expect(parseInsert('INSERT INTO t (values_n, selected, with_x) VALUES (1, 2, 3)')?.columns).toEqual(['values_n', 'selected', 'with_x']);
    // a column named like a keyword, when quoted, is a column
    expect(parseInsert('INSERT INTO t ("select") VALUES (1)')?.columns).toEqual(['"select"']);
  });

  it('is null for statements that are not INSERTs', () => {
    for (const sql of ['SELECT 1', 'VALUES (1)', '-- INSERT INTO t\nSELECT 1', 'INSERTED', '']) expect(parseInsert(sql), sql).toBeNull();
    expect(isInsertStatement('/* x */ INSERT INTO t VALUES (1)')).toBe(true);
    expect(isInsertStatement('SELECT * FROM inserts')).toBe(false);
  });

  it('refuses malformed INSERTs with a 400 AdHocQueryError saying what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['INSERT t VALUES (1)', /Expected INTO/],
      ['INSERT OVERWRITE t VALUES (1)', /OVERWRITE is not supported/],
      ['INSERT INTO (a) VALUES (1)', /needs a table name/],
      ['INSERT INTO s.t VALUES (1)', /without a schema/],
      ['INSERT INTO t (a b) VALUES (1)', /Expected ',' or '\)'/],
      ['INSERT INTO t (a, ) VALUES (1)', /Expected a column name/],
      ['INSERT INTO t (a)', /needs VALUES .* after the table and its column list/],
      ['INSERT INTO t DEFAULT VALUES', /DEFAULT VALUES is not supported/],
      ['INSERT INTO t SET a = 1', /needs VALUES/],
    ];
    for (const [sql, message] of cases) {
      let err: unknown;
      try {
        parseInsert(sql);
      } catch (e) {
        err = e;
      }
      expect(err, sql).toBeInstanceOf(FelderaError);
      expect((err as FelderaError).status).toBe(400);
      expect((err as FelderaError).code).toBe('AdHocQueryError');
      expect((err as FelderaError).message, sql).toMatch(message);
    }
  });
});

describe('hasStatementAfterFirst', () => {
  it("sees a second statement after a ';' outside strings, quoted names and comments", () => {
    for (const sql of ['VALUES (1); SELECT 1', "SELECT 'a;b'; SELECT 2", 'SELECT 1;INSERT INTO t VALUES (1)', 'SELECT 1 /* ; */; x']) expect(hasStatementAfterFirst(sql), sql).toBe(true);
    for (const sql of ['SELECT 1', 'SELECT 1;', "SELECT ';' AS s, 'it''s;' AS t", 'SELECT "a;b" FROM t;  ', 'SELECT 1; -- done', 'SELECT 1 /* ; x */', 'SELECT 1; /* x */ '])
      expect(hasStatementAfterFirst(sql), sql).toBe(false);
  });
});

describe('answerInsert on a runtime', () => {
  const root = mkdtempSync(join(tmpdir(), 'ops-adhoc-insert-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function runtime(sql: string, outputCase: 'upper' | 'lower' = 'upper'): Promise<PipelineRuntime> {
    const c = compile(sql, { outputCase });
    if (!c.ok) throw new Error(JSON.stringify(c.errors));
    const rt = new PipelineRuntime(c.program, { emit: () => {}, endStreams: () => {}, log: () => {}, connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 } });
    await rt.init();
    rt.resume();
    return rt;
  }

  it('every column type takes its SQL literal as an ingress takes the same value', async () => {
    const rt = await runtime(
      `CREATE TABLE a (i TINYINT, b BIGINT, r REAL, d DOUBLE, dec DECIMAL(20, 4), bo BOOLEAN, s VARCHAR, c CHAR(3), bin VARBINARY,
         dt DATE, tm TIME, ts TIMESTAMP, arr INT ARRAY, m MAP<VARCHAR, INT>, tsv TIMESTAMP, dv DOUBLE, di DECIMAL(5, 1));`,
      'lower',
    );
    const sql = `INSERT INTO a VALUES (1, 9007199254740993, 1.5, 3.141592653589793, 12345.6789, TRUE, 'hello', 'ab', x'deadbeef',
      DATE '2024-05-13', TIME '12:34:56', TIMESTAMP '2024-05-13 12:34:56', ARRAY[10, 20], MAP['k', 1], '2024-05-13 01:02:03', 2, 7)`;
    expect(answerInsert(rt, parseInsert(sql)!, 'json', 'lower')).toBe('{"count":1}\n');
    expect(rt.circuit.contents('a')).toEqual([
      {
        row: {
          i: 1,
          b: 9007199254740993n,
          r: 1.5,
          d: 3.141592653589793,
          dec: '12345.6789',
          bo: true,
          s: 'hello',
          c: 'ab ',
          bin: [222, 173, 190, 239],
          dt: '2024-05-13',
          tm: '12:34:56',
          ts: '2024-05-13 12:34:56',
          arr: [10, 20],
          m: { k: 1 },
          tsv: '2024-05-13 01:02:03',
          dv: 2,
          di: '7.0',
        },
        weight: 1,
      },
    ]);
    expect(rt.totalInputRecords).toBe(1);
    expect(rt.steps).toBe(1);
  });

  it('quoted names are exact, unquoted ones fold; the answer in text', async () => {
    const rt = await runtime('CREATE TABLE "Mixed" ("Col" INT, col INT);');
    const out = answerInsert(rt, parseInsert('INSERT INTO "Mixed" ("Col", COL) VALUES (1, 2), (3, 4)')!, 'text', 'upper');
    expect(out).toBe(['+-------+', '| count |', '+-------+', '| 2     |', '+-------+', ''].join('\n'));
    expect(rt.circuit.contents('"Mixed"').map((r) => r.row)).toEqual([
      { Col: 1, COL: 2 },
      { Col: 3, COL: 4 },
    ]);
    expect(() => answerInsert(rt, parseInsert('INSERT INTO mixed VALUES (1, 2)')!, 'json', 'upper')).toThrow(/Unknown table 'mixed'/);
    expect(() => answerInsert(rt, parseInsert('INSERT INTO "Mixed" ("COL", "col") VALUES (1, 2)')!, 'json', 'upper')).toThrow(/Unknown column 'col'/);
    // one statement per request; a trailing comment is not one
    expect(() => answerInsert(rt, parseInsert('INSERT INTO "Mixed" VALUES (5, 6); SELECT 1')!, 'json', 'upper')).toThrow(/one statement per request/i);
    expect(answerInsert(rt, parseInsert('INSERT INTO "Mixed" VALUES (5, 6); -- the last one')!, 'json', 'upper')).toBe('{"count":1}\n');
    expect(rt.circuit.contents('"Mixed"')).toHaveLength(3);
  });
});
