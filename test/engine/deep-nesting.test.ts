/**
 * Deep nesting and long expressions: 200 levels of parentheses, chains of 5,000 terms (parse/chains.ts
 * turns them into balanced trees), and a clean syntax error, never a broken parser, beyond the limits
 * (parse/wasm-parser.ts).
 */
import { describe, expect, it } from 'vitest';
import { compile, type Circuit } from '../../src/engine/index.js';

const T = 'CREATE TABLE t (a INT, b INT);\n';

function circuit(view: string): Circuit {
  const r = compile(T + `CREATE VIEW v AS ${view};`);
  if (!r.ok) throw new Error(JSON.stringify(r.errors).slice(0, 500));
  return r.program.newCircuit();
}

function ids(c: Circuit): number[] {
  return c
    .contents('v')
    .map((r) => r.row.A as number)
    .sort((x, y) => x - y);
}

describe('deep nesting', () => {
  it('200 levels of parentheses around a condition', () => {
    const c = circuit(`SELECT a FROM t WHERE ${'('.repeat(200)}a > 1${')'.repeat(200)}`);
    c.step([1, 2, 3].map((a) => ({ table: 't', op: 'insert' as const, row: { a, b: 0 } })));
    expect(ids(c)).toEqual([2, 3]);
  });

  it('200 levels of nested OR/AND with three-valued logic', () => {
    // (a = 0 OR (a = 1 OR (... OR b = 1)))
    const c = circuit(`SELECT a FROM t WHERE ${Array.from({ length: 200 }, (_, i) => `(a = ${i * 2} OR`).join(' ')} b = 1${')'.repeat(200)}`);
    c.step([
      { table: 't', op: 'insert', row: { a: 4, b: 0 } },
      { table: 't', op: 'insert', row: { a: 5, b: 0 } },
      { table: 't', op: 'insert', row: { a: 7, b: 1 } },
      { table: 't', op: 'insert', row: { a: null, b: null } },
    ]);
    expect(ids(c)).toEqual([4, 7]);
  });

  it('5,000-term OR, AND and + chains', () => {
    const or = circuit(`SELECT a FROM t WHERE ${Array.from({ length: 5000 }, (_, i) => `a = ${i * 3}`).join(' OR ')}`);
    or.step([3, 4, 14997, 15000].map((a) => ({ table: 't', op: 'insert' as const, row: { a, b: 0 } })));
    expect(ids(or)).toEqual([3, 14997]);
    const and = circuit(`SELECT a FROM t WHERE ${Array.from({ length: 5000 }, (_, i) => `a <> ${i * 3 + 1}`).join(' AND ')} AND b BETWEEN 0 AND 5`);
    and.step([1, 2, 3, 6].map((a) => ({ table: 't', op: 'insert' as const, row: { a, b: a === 6 ? 9 : 0 } })));
    expect(ids(and)).toEqual([2, 3]);
    const sum = circuit(`SELECT ${Array.from({ length: 5000 }, (_, i) => (i % 2 ? 'a' : 'b * 2 - 1')).join(' + ')} AS a FROM t`);
    sum.step([{ table: 't', op: 'insert', row: { a: 1, b: 3 } }]);
    expect(ids(sum)).toEqual([2500 * 1 + 2500 * 5]);
  });

  it('too deep is a clean syntax error, and the parser keeps working after it', () => {
    const r = compile(T + `CREATE VIEW v AS SELECT a FROM t WHERE ${Array.from({ length: 2000 }, (_, i) => `(a = ${i} OR`).join(' ')} b = 1${')'.repeat(2000)};`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]!.kind).toBe('syntax');
    // a left-deep chain the rewrite does not recognise (terms of different operators)
    const mixed = compile(T + `CREATE VIEW v AS SELECT ${Array.from({ length: 3000 }, () => 'a').join(' - ')} AS x FROM t;`);
    if (!mixed.ok) expect(mixed.errors[0]!.kind).toBe('syntax');
    const after = compile(T + 'CREATE VIEW v AS SELECT a + 1 AS x FROM t;');
    expect(after.ok ? 'ok' : after.errors).toBe('ok');
  });
});
