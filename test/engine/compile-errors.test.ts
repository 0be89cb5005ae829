/** Compile errors: kind, message and the line/column they point to. */
import { describe, expect, it } from 'vitest';
import { compile, type CompileError } from '../../src/engine/index.js';

function errorsOf(sql: string): CompileError[] {
  const r = compile(sql);
  if (r.ok) throw new Error('expected a compile error');
  return r.errors;
}

describe('compile errors', () => {
  const cases: Array<[string, string, number, number, RegExp]> = [
    ['unknown column', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT b FROM t;', 2, 25, /Column 'b' not found/],
    ['unknown table', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS\n  SELECT a FROM nosuch;', 3, 17, /'nosuch' not found/],
    ['unknown qualifier', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT x.a FROM t;', 2, 25, /Table 'x' not found/],
    ['type mismatch', 'CREATE TABLE t (a INT, s VARCHAR);\nCREATE VIEW v AS SELECT a + s FROM t;', 2, 25, /Cannot apply '\+'/],
    ['syntax error', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a = );', 2, 44, /Expected: an expression/],
    ['syntax error at end of statement', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a =;', 2, 43, /EOF/],
    ['not grouped', 'CREATE TABLE t (a INT, b INT);\nCREATE VIEW v AS SELECT a, COUNT(*) FROM t;', 2, 25, /not being grouped/],
    ['scalar subquery inside an aggregate', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT SUM(a + (SELECT 1)) FROM t;', 2, 34, /scalar subquery is supported only in/],
    ['unknown column in a subquery', 'CREATE TABLE t (a INT);\nCREATE TABLE u (b INT);\nCREATE VIEW v AS SELECT (SELECT MAX(zz) FROM u WHERE u.b = t.a) FROM t;', 3, 37, /Column 'zz' not found/],
    [
      'correlated EXISTS over an ungrouped aggregate',
      'CREATE TABLE t (a INT);\nCREATE TABLE u (b INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a > 1 OR EXISTS (SELECT MAX(b) FROM u WHERE u.b = t.a);',
      3,
      57,
      /always TRUE/,
    ],
    ['scalar subquery of two columns', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a > (SELECT a, a FROM t);', 2, 45, /exactly one column/],
    ['bad connectors JSON', "CREATE TABLE t (a INT) WITH ('connectors' = '[{bad');", 1, 45, /Invalid JSON in 'connectors'/],
    ['FLOAT rejected', 'CREATE TABLE t (a FLOAT);', 1, 17, /FLOAT is ambiguous/],
    ['nullable primary key', 'CREATE TABLE t (a INT NOT NULL, b INT, PRIMARY KEY (b));', 1, 53, /PRIMARY KEY cannot be nullable/],
    ['CREATE AGGREGATE unsupported', 'CREATE TABLE t (a INT);\n\n  CREATE AGGREGATE f(x INT) RETURNS INT;', 3, 10, /CREATE AGGREGATE is not supported/],
    ['a Rust function', 'CREATE TABLE t (a INT);\n\n  CREATE FUNCTION f(x INT) RETURNS INT;', 3, 19, /user-defined functions implemented in Rust are not supported/],
    ['non-deterministic function', 'CREATE TABLE t (a INT);\n-- comment\n/* block */ CREATE VIEW v AS SELECT RAND() FROM t;', 3, 37, /RAND is not deterministic/],
    [
      'NOW() where it has no clock',
      "CREATE TABLE t (a INT);\n-- comment\n/* block */ CREATE VIEW v AS SELECT a FROM t JOIN t AS u ON NOW() > TIMESTAMP '2020-01-01 00:00:00';",
      3,
      61,
      /NOW\(\) cannot be used in ON/,
    ],
    ['IN subquery of two columns under OR', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a > 1 OR a IN (SELECT a, a FROM t);', 2, 49, /exactly one column/],
    ['duplicate view', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t;\nCREATE VIEW V AS SELECT a FROM t;', 3, 13, /Duplicate declaration/],
    ['unknown function', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT FOO(a) FROM t;', 2, 25, /No match found for function signature FOO/],
    ['aggregate in WHERE', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE SUM(a) > 1;', 2, 40, /not allowed in WHERE/],
    ['WHERE not boolean', 'CREATE TABLE t (a INT);\nCREATE VIEW v AS SELECT a FROM t WHERE a + 1;', 2, 40, /BOOLEAN/],
    ['UNION column count', 'CREATE TABLE t (a INT, b INT);\nCREATE VIEW v AS SELECT a FROM t UNION SELECT a, b FROM t;', 2, 18, /Column count mismatch/],
    ['ambiguous column', 'CREATE TABLE t (a INT);\nCREATE TABLE u (a INT);\nCREATE VIEW v AS SELECT a FROM t, u;', 3, 25, /ambiguous/],
  ];
  it('a bad connectors option is of kind connector', () => {
    for (const v of ['[{bad', '{}', '[{"format": {"name": "json"}}]']) {
      expect(errorsOf(`CREATE TABLE t (a INT) WITH ('connectors' = '${v}');`)[0]!.kind).toBe('connector');
    }
  });
  for (const [name, sql, line, column, msg] of cases) {
    it(name, () => {
      const errs = errorsOf(sql);
      expect(errs[0]!.message).toMatch(msg);
      expect([errs[0]!.line, errs[0]!.column]).toEqual([line, column]);
    });
  }

  it('reports errors of several statements', () => {
    const errs = errorsOf('CREATE TABLE t (a INT);\nCREATE VIEW v1 AS SELECT b FROM t;\nCREATE VIEW v2 AS SELECT c FROM t;');
    expect(errs.map((e) => e.line)).toEqual([2, 3]);
    expect(errs.every((e) => e.kind === 'unknown_column')).toBe(true);
  });

  it('rejects a non-string program and an empty one compiles to nothing', () => {
    expect(compile(42 as never).ok).toBe(false);
    const r = compile('  -- nothing here\n');
    expect(r.ok && r.program.tables.length === 0 && r.program.views.length === 0).toBe(true);
  });
});
