/**
 * Words Feldera takes as identifiers that the generic parser reserves (parse/prepass.ts PARSER_RESERVED): as
 * column names in CREATE TABLE (also PRIMARY KEY columns), in SELECT, WHERE, GROUP BY, ON, qualified, as
 * aliases and table names; the keywords of Feldera's own syntax (PRIMARY KEY, CREATE VIEW) keep working.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/engine/index.js';

const WORDS = ['key', 'index', 'fulltext', 'spatial', 'view', 'returning', 'sort', 'cluster', 'distribute', 'top'];

function run(sql: string) {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.line}:${e.column} ${e.message}`).join('; '));
  return r.program;
}

describe('words the parser reserves, as identifiers', () => {
  it.each(WORDS)('%s: a column everywhere a column is named', (w) => {
    const p = run(`
CREATE TABLE t (id INT NOT NULL PRIMARY KEY, ${w} BIGINT, Value VARCHAR);
CREATE TABLE s (${w} BIGINT NOT NULL, n INT, PRIMARY KEY (${w}));
CREATE VIEW v AS SELECT t.${w}, ${w.toUpperCase()} + 1 AS ${w}_next, COUNT(*) AS c FROM t WHERE ${w} > 0 GROUP BY t.${w};
CREATE MATERIALIZED VIEW j AS SELECT t.id AS ${w}, s.n FROM t JOIN s ON t.${w} = s.${w};
CREATE VIEW ${w}s AS SELECT ${w} FROM s AS ${w};`);
    expect(p.relation('t')!.columns.map((c) => c.name)).toEqual(['id', w, 'value']);
    expect(p.relation('s')!.primaryKey).toEqual([w]);
    expect(p.relation('v')!.columns.map((c) => c.name)).toEqual([w, `${w}_next`, 'c']);
    const c = p.newCircuit();
    c.step([
      { table: 't', op: 'insert', row: { id: 1, [w]: 5, value: 'a' } },
      { table: 's', op: 'insert', row: { [w]: 5, n: 7 } },
    ]);
    expect(c.contents('v')).toEqual([{ row: { [w]: 5, [`${w}_next`]: 6, c: 1 }, weight: 1 }]);
    expect(c.contents('j')).toEqual([{ row: { [w]: 1, n: 7 }, weight: 1 }]);
    expect(c.contents(`${w}s`)).toEqual([{ row: { [w]: 5 }, weight: 1 }]);
  });

  it('upper-case output folds them as any unquoted name; a quoted one keeps its spelling', () => {
    const r = compile('CREATE TABLE t (key INT, "Key" INT, view INT); CREATE VIEW v AS SELECT key, "Key", view FROM t;', { outputCase: 'upper' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.program.relation('v')!.columns.map((c) => c.name)).toEqual(['KEY', 'Key', 'VIEW']);
  });

  it('an error after such a word still points at the right place', () => {
    const r = compile('CREATE TABLE t (key INT);\nCREATE VIEW v AS SELECT key, nope FROM t;', { outputCase: 'lower' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toMatchObject([{ line: 2, column: 30, message: "Column 'nope' not found in any table" }]);
  });
});

describe('words the parser reserves, in syntax errors', () => {
  it('a syntax error quotes the word as written, not its stand-in', () => {
    const r = compile('CREATE TABLE t (key INT);\nCREATE VIEW v AS SELECT key FROM t WHERE key = 1 key;', { outputCase: 'lower' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]!.message).toContain('found: key');
      expect(r.errors[0]!.message).not.toMatch(/\u01c2/);
    }
  });
});
