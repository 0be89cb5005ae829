/**
 * Compile errors name the line and column of the whole program, whatever stands before the statement
 * (other statements, comments, blank lines, tabs, CRLF line ends): each statement is parsed alone, put at
 * its place by blank text, and positions come from one index of the program's line starts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/index.js';

/** Line and column (1-based) of an offset, counted the plain way. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const filler = fc.array(fc.constantFrom(' ', '\t', '\n', '\r\n', '-- a comment\n', '/* c */', '\n\n'), { maxLength: 6 }).map((xs) => xs.join(''));

describe('compile error positions', () => {
  it('an unknown column and a syntax error are placed in the whole program', () => {
    fc.assert(
      fc.property(fc.array(filler, { minLength: 6, maxLength: 6 }), fc.integer({ min: 0, max: 3 }), (gaps, bad) => {
        const views = Array.from({ length: 4 }, (_, i) => (i === bad ? `CREATE VIEW v${i} AS ${gaps[5]}SELECT wrong_${i} FROM t;` : `CREATE VIEW v${i} AS SELECT x FROM t;`));
        const sql = `${gaps[0]}CREATE TABLE t (x INT);${gaps[1]}${views.join(gaps[2])}${gaps[3]}CREATE VIEW z AS SELECT x FROM t WHERE;${gaps[4]}`;
        const r = compile(sql);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        const unknown = r.errors.find((e) => e.kind === 'unknown_column');
        expect(unknown && { line: unknown.line, column: unknown.column }).toEqual(position(sql, sql.indexOf(`wrong_${bad}`)));
        const syntax = r.errors.find((e) => e.kind === 'syntax');
        expect(syntax && { line: syntax.line, column: syntax.column }).toEqual(position(sql, sql.indexOf('WHERE;') + 'WHERE'.length));
      }),
      { numRuns: 200 },
    );
  });

  it('a program of 2,000 chained views compiles (each statement parsed with blank text before it, not the whole program again)', () => {
    const parts = ['CREATE TABLE t (x INT);', 'CREATE VIEW v0 AS SELECT x FROM t;'];
    for (let i = 1; i < 2000; i++) parts.push(`CREATE VIEW v${i} AS SELECT x + 1 AS x FROM v${i - 1};`);
    parts.push('CREATE VIEW last AS SELECT nope FROM v1999;');
    const sql = parts.join('\n');
    const r = compile(sql);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ ...position(sql, sql.indexOf('nope')), kind: 'unknown_column' })]);
    expect(position(sql, sql.indexOf('nope'))).toEqual({ line: 2002, column: 28 });
  });
});
