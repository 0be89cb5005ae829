/**
 * Regular expressions and LIKE on RE2 (src/engine/bind/fns/regex.ts): patterns that backtrack for ever in
 * JavaScript's RegExp answer at once, in views as in expressions over data; Rust regex semantics (Feldera's
 * sqllib) for matching and replacement; what RE2 cannot do (backreferences, look-around) refused by name.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile } from '../../../../src/engine/index.js';
import { compileLike, compileRegex, parseReplacement, replaceAll } from '../../../../src/engine/bind/fns/regex.js';

/** The value of `expr` in a view over one row of `t` (s VARCHAR, p VARCHAR) holding `row`. */
function evalOver(expr: string, row: { s: string | null; p: string | null } = { s: null, p: null }): unknown {
  const r = compile(`CREATE TABLE t (s VARCHAR, p VARCHAR); CREATE VIEW v AS SELECT ${expr} AS r FROM t;`);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const out = r.program.newCircuit().step([{ table: 't', op: 'insert', row }]);
  return out.changes.get('V')![0]!.row.R;
}

function compileError(expr: string): string {
  const r = compile(`CREATE TABLE t (s VARCHAR, p VARCHAR); CREATE VIEW v AS SELECT ${expr} AS r FROM t;`);
  return r.ok ? '' : r.errors.map((e) => e.message).join('; ');
}

const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;

describe('catastrophic patterns run in linear time', () => {
  const evil = 'a'.repeat(50_000) + '!';
  it.each([
    ["REGEXP_REPLACE(s, p, 'b')", '(a+)+$', evil],
    ["REGEXP_REPLACE(s, '(a|aa)+$', 'b')", null, evil],
    ['s RLIKE p', '^(a|a?)+$', evil],
    ["s RLIKE '(.*a){20}$'", null, evil],
    ['s LIKE p', '%a%a%a%a%a%a%a%a%a%a%b', evil],
    ["s ILIKE '%A%A%A%A%A%A%A%A%A%A%B'", null, evil],
  ])('%s with p = %s', (expr, p, s) => {
    const started = Date.now();
    const got = evalOver(expr, { s, p });
    expect(Date.now() - started).toBeLessThan(20_000); // seconds at most where JavaScript's RegExp took hours
    expect(got === false || got === evil || (typeof got === 'string' && got.length === evil.length)).toBe(true);
  });
});

describe('regular expressions keep Rust regex semantics', () => {
  it.each<[string, unknown]>([
    ["'foobar' RLIKE 'o+b'", true],
    ["'foobar' RLIKE '^b'", false],
    ["'Foo' RLIKE '(?i)^foo$'", true],
    ["'a\nb' RLIKE 'a.b'", false],
    ["'a\nb' RLIKE '(?s)a.b'", true],
    ["'x\ny' RLIKE '(?m)^y$'", true],
    ["'αβγ' RLIKE '^\\p{Greek}+$'", true],
    ["'日本' RLIKE '^..$'", true],
    ["'2020-01-02' RLIKE '^(?P<y>\\d{4})-(?<m>\\d\\d)'", true],
    ["REGEXP_REPLACE('2020-01-02', '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1')", '02/01/2020'],
    ["REGEXP_REPLACE('2020-01-02', '(?P<y>\\d+)-(?P<m>\\d+)-(?P<d>\\d+)', '${d}.${m}.${y}')", '02.01.2020'],
    ["REGEXP_REPLACE('ab', '(?P<x>a)', '[$x]')", '[a]b'],
    // `$1a` names the group "1a", which does not exist: empty text (Rust's longest-name rule); ${1}a is group 1
    ["REGEXP_REPLACE('ab', '(a)', '$1a')", 'b'],
    ["REGEXP_REPLACE('ab', '(a)', '${1}a')", 'aab'],
    ["REGEXP_REPLACE('ab', '(a)', '$9')", 'b'],
    ["REGEXP_REPLACE('ab', 'a', '$$')", '$b'],
    ["REGEXP_REPLACE('ab', 'a', 'x$')", 'x$b'],
    ["REGEXP_REPLACE('ab', '(a)|(z)', '<$2>')", '<>b'],
    // an empty match touching the end of the previous match is skipped, as Rust's replace_all
    ["REGEXP_REPLACE('baaac', 'a*', '-')", '-b-c-'],
    ["REGEXP_REPLACE('abc', 'x*', '-')", '-a-b-c-'],
    ["REGEXP_REPLACE('a😀b', '', '.')", '.a.😀.b.'],
    ["REGEXP_REPLACE('abcabc', 'b+', 'X')", 'aXcaXc'],
    ["REGEXP_REPLACE('abc', 'z', 'X')", 'abc'],
    ["REGEXP_REPLACE('a1b22c', '[0-9]')", 'abc'],
    // \d \w \s are Unicode, as Rust's (RE2's are ASCII); escapes, \Q..\E and POSIX classes are left alone
    ["'٣' RLIKE '^\\d$'", true],
    ["'٣' RLIKE '^\\D$'", false],
    ["'x' RLIKE '^\\D$'", true],
    ["'é' RLIKE '^\\w+$'", true],
    ["'é-' RLIKE '^\\w\\W$'", true],
    ["'  ' RLIKE '^\\s+$'", true],
    ["'é' RLIKE '^\\S$'", true],
    ["'٣' RLIKE '^[\\d]$'", true],
    ["'ж' RLIKE '^[\\w-]$'", true],
    ["'-' RLIKE '^[\\w-]$'", true],
    ["'a٣' RLIKE '^[^\\d]\\d$'", true],
    ["']' RLIKE '^[]\\d]$'", true],
    ["'٣' RLIKE '^[]\\d]$'", true],
    ["'٣' RLIKE '^[[:alpha:]\\d]$'", true],
    ["'a' RLIKE '^[[:alpha:]\\d]$'", true],
    ["'a\\d' RLIKE '^a\\\\d$'", true],
    ["'٣' RLIKE '^\\\\d$'", false],
    ["'x\\d' RLIKE '^\\Qx\\d\\E$'", true],
    ["REGEXP_REPLACE('a٣b ٤', '\\d', '#')", 'a#b #'],
  ])('%s', (expr, want) => {
    expect(evalOver(expr)).toEqual(want);
  });

  it('patterns from data: a good one matches, a bad one matches nothing (as Feldera: false, the text unchanged)', () => {
    expect(evalOver('s RLIKE p', { s: 'abc', p: 'b.' })).toBe(true);
    expect(evalOver("REGEXP_REPLACE(s, p, '-')", { s: 'abc', p: '[bc]' })).toBe('a--');
    expect(evalOver('s RLIKE p', { s: 'abc', p: '(' })).toBe(false);
    expect(evalOver('s RLIKE p', { s: 'aa', p: '(a)\\1' })).toBe(false);
    expect(evalOver("REGEXP_REPLACE(s, p, '-')", { s: 'abc', p: '(' })).toBe('abc');
  });
});

describe('what a linear-time engine cannot do is refused with the reason', () => {
  it.each([
    ["'aa' RLIKE '(a)\\1'", /RLIKE: invalid regular expression '\(a\)\\1': backreferences \(such as \\1\) are not supported/],
    ["REGEXP_REPLACE('ab', '(?=a)a', 'x')", /REGEXP_REPLACE: invalid regular expression .*look-around assertions .* are not supported/],
    ["'ab' RLIKE '(?<=a)b'", /look-around assertions .* are not supported/],
    ["'ab' RLIKE '(?<!a)b'", /look-around assertions/],
    ["'ab' RLIKE '['", /RLIKE: invalid regular expression '\[': missing closing \]/],
    ["'ab' RLIKE '[\\d'", /RLIKE: invalid regular expression '\[\\d': missing closing \]: `\[\\d`/], // in the pattern's own words
  ])('%s', (expr, re) => {
    expect(compileError(expr)).toMatch(re);
  });
});

describe('LIKE and ILIKE', () => {
  it.each<[string, string, boolean]>([
    ['abc', 'a%', true],
    ['abc', 'a_c', true],
    ['abc', 'a_', false],
    ['abc', '%', true],
    ['', '%', true],
    ['', '_', false],
    ['a\nc', 'a_c', true],
    ['a\nb\nc', 'a%c', true],
    ['a.c', 'a.c', true],
    ['abc', 'a.c', false],
    ['a(b)*c', 'a(b)*c', true],
    ['a$^c', 'a$^c', true],
    ['100%', '100\\%', true],
    ['1000', '100\\%', false],
    ['a_b', 'a\\_b', true],
    ['axb', 'a\\_b', false],
    ['😀x', '_x', true],
  ])('%s LIKE %s', (s, p, want) => {
    expect(evalOver(`${q(s)} LIKE ${q(p)}`)).toBe(want);
    expect(evalOver('s LIKE p', { s, p })).toBe(want); // the same from data
  });

  it('ILIKE ignores case; ESCAPE names another escape character', () => {
    expect(evalOver("'ÄbC' ILIKE 'äb%'")).toBe(true);
    expect(evalOver("'ÄbC' LIKE 'äb%'")).toBe(false);
    expect(evalOver("'STRASSE' ILIKE 'strasse'")).toBe(true);
    expect(evalOver("'ΟΔΟΣ' ILIKE 'οδο_'")).toBe(true);
    expect(evalOver("'A%B' ILIKE 'a\\%b'")).toBe(true);
    expect(evalOver("'a%b' LIKE 'a#%b' ESCAPE '#'")).toBe(true);
    expect(evalOver("'axb' LIKE 'a#%b' ESCAPE '#'")).toBe(false);
    expect(evalOver("'abc' NOT LIKE 'a%'")).toBe(false);
  });
});

describe('LIKE matchers agree with a reference matcher on random patterns', () => {
  /** LIKE by dynamic programming over code points (the definition, no regex). */
  function reference(text: string, pattern: string, escape: string | undefined): boolean {
    const t = [...text];
    const p: ({ lit: string } | '%' | '_')[] = [];
    const pc = [...pattern];
    for (let i = 0; i < pc.length; i++) {
      if (escape !== undefined && pc[i] === escape && i + 1 < pc.length) p.push({ lit: pc[++i]! });
      else if (pc[i] === '%' || pc[i] === '_') p.push(pc[i] as '%' | '_');
      else p.push({ lit: pc[i]! });
    }
    let row = t.map(() => false).concat(false);
    row[0] = true;
    for (const tok of p) {
      const next = row.map(() => false);
      for (let j = 0; j <= t.length; j++) {
        if (tok === '%') next[j] = row[j]! || (j > 0 && next[j - 1]!);
        else if (j > 0) next[j] = row[j - 1]! && (tok === '_' || tok.lit === t[j - 1]);
      }
      row = next;
    }
    return row[t.length]!;
  }

  it('plain string shapes and RE2 alike', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab%_\\]{0,6}$/), fc.stringMatching(/^[ab%_\\\n]{0,8}$/), (pattern, text) => {
        expect(compileLike(pattern, '\\', false)(text)).toBe(reference(text, pattern, '\\'));
        expect(compileLike(pattern, undefined, false)(text)).toBe(reference(text, pattern, undefined));
        expect(compileLike(pattern, '\\', true)(text.toUpperCase())).toBe(reference(text, pattern, '\\')); // ILIKE: RE2 always
      }),
      { numRuns: 2000 },
    );
  });
});

describe('REGEXP_REPLACE of plain text (split, not RE2) replaces as RE2 does', () => {
  it('on random texts, literals and templates', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab😀\n]{0,12}$/u), fc.stringMatching(/^[ab😀]{1,3}$/u), fc.stringMatching(/^(?:[xy]|\$0|\$1|\$\$|\$\{0\})*$/), (text, literal, template) => {
        const parts = parseReplacement(template);
        const fast = replaceAll(compileRegex(literal), text, parts);
        const re2 = replaceAll(compileRegex(`(?:${literal})`), text, parts);
        expect(fast).toBe(re2);
      }),
      { numRuns: 2000 },
    );
  });

  it('half a surrogate pair is not plain text: it does not cut a character in two', () => {
    expect(replaceAll(compileRegex('\ud83d'), 'x😀', parseReplacement(''))).toBe('x😀');
  });

  it('a long text of many matches is fast, and its growth is told before it is built', () => {
    const text = 'a'.repeat(4_000_000);
    const started = Date.now();
    const sizes: number[] = [];
    expect(replaceAll(compileRegex('a'), text, parseReplacement('bb'), (n) => sizes.push(n))).toHaveLength(8_000_000);
    expect(sizes).toEqual([8_000_000]);
    expect(Date.now() - started).toBeLessThan(20_000); // ~50 ms; RE2's matcher took ~4 s
  });
});
