import { describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { canDelete, canUpdate, canView, scopeKey, visibleSql, type Caller } from '../../../src/services/bookmarks/access.js';
import { fromUnixSeconds, isoMicro, toUnixSeconds } from '../../../src/services/bookmarks/time.js';
import { isValidUrl, normalizeBody, refs, toInt } from '../../../src/services/bookmarks/fields.js';
import { validationBody } from '../../../src/services/bookmarks/errors.js';

const callerArb: fc.Arbitrary<Caller> = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), userId: fc.integer({ min: 1, max: 4 }), tokenId: fc.constant(1) }),
  fc.record({ kind: fc.constant('system' as const), privateAccess: fc.boolean(), tokenId: fc.constant(2) }),
  fc.record({ kind: fc.constant('guest' as const), key: fc.constant('g') }),
);
const itemArb = fc.record({ user_id: fc.integer({ min: 1, max: 4 }), visibility: fc.constantFrom(1, 2, 3) });

describe('access rules', () => {
  test('the SQL condition selects exactly what canView allows (property, against SQLite)', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, user_id INTEGER, visibility INTEGER)');
    fc.assert(
      fc.property(callerArb, fc.array(itemArb, { maxLength: 30 }), (caller, items) => {
        db.exec('DELETE FROM t');
        const ins = db.prepare('INSERT INTO t (id, user_id, visibility) VALUES (?, ?, ?)');
        items.forEach((it, i) => ins.run(i + 1, it.user_id, it.visibility));
        const v = visibleSql(caller, 't');
        const got = db
          .prepare(`SELECT id FROM t WHERE ${v.sql} ORDER BY id`)
          .pluck()
          .all(...v.params);
        const want = items.map((it, i) => (canView(caller, it) ? i + 1 : null)).filter((x) => x !== null);
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
    db.close();
  });

  test('the matrix', () => {
    const A: Caller = { kind: 'user', userId: 1, tokenId: 1 };
    const S: Caller = { kind: 'system', privateAccess: false, tokenId: 2 };
    const SP: Caller = { kind: 'system', privateAccess: true, tokenId: 3 };
    const G: Caller = { kind: 'guest', key: 'g' };
    const own = (v: number) => ({ user_id: 1, visibility: v });
    const other = (v: number) => ({ user_id: 2, visibility: v });
    expect([1, 2, 3].map((v) => canView(A, own(v)))).toEqual([true, true, true]);
    expect([1, 2, 3].map((v) => canView(A, other(v)))).toEqual([true, true, false]);
    expect([1, 2, 3].map((v) => canView(S, other(v)))).toEqual([true, true, false]);
    expect([1, 2, 3].map((v) => canView(SP, other(v)))).toEqual([true, true, true]);
    expect([1, 2, 3].map((v) => canView(G, other(v)))).toEqual([true, false, false]);
    // LinkAce 2.x's policies: update (and attach) own or not private; delete/restore own only; no writes without a user
    expect([1, 2, 3].map((v) => canUpdate(A, own(v)))).toEqual([true, true, true]);
    expect([1, 2, 3].map((v) => canUpdate(A, other(v)))).toEqual([true, true, false]);
    expect([1, 2, 3].map((v) => canDelete(A, own(v)))).toEqual([true, true, true]);
    expect([1, 2, 3].map((v) => canDelete(A, other(v)))).toEqual([false, false, false]);
    for (const c of [S, SP, G]) expect([canUpdate(c, other(1)), canDelete(c, other(1))]).toEqual([false, false]);
    expect(new Set([A, S, SP, G].map(scopeKey)).size).toBe(4);
  });
});

describe('datetimes', () => {
  test('six fractional digits and Z', () => {
    expect(isoMicro(new Date('2020-03-09T19:33:23.123Z'))).toBe('2020-03-09T19:33:23.123000Z');
    expect(fromUnixSeconds(1583782403)).toBe('2020-03-09T19:33:23.000000Z');
    expect(toUnixSeconds('2020-03-09T19:33:23.000000Z')).toBe(1583782403);
    expect(toUnixSeconds(null)).toBeNull();
    expect(toUnixSeconds('garbage')).toBeNull();
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), (s) => toUnixSeconds(fromUnixSeconds(s)) === s));
  });
});

describe('validation helpers', () => {
  test('normalizeBody trims and turns "" into null, top level only', () => {
    expect(normalizeBody({ a: '  x ', b: '', c: ['  y '], d: 5 })).toEqual({ a: 'x', b: null, c: ['  y '], d: 5 });
    expect(normalizeBody(null)).toEqual({});
    expect(normalizeBody([1])).toEqual({});
  });
  test('toInt', () => {
    expect([toInt(5), toInt('7'), toInt(' 8 '), toInt('-1'), toInt(1.5), toInt('1e3'), toInt(''), toInt(null), toInt(true)]).toEqual([
      5,
      7,
      8,
      -1,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  test('isValidUrl', () => {
    for (const ok of ['https://example.com', 'http://localhost:8080/x?y#z', 'ftp://files.example/a', 'mailto:a@b.c', 'https://例え.jp/パス']) expect([ok, isValidUrl(ok)]).toEqual([ok, true]);
    for (const bad of ['example.com', 'https://', 'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'http://a b', 'place:x', ''])
      expect([bad, isValidUrl(bad)]).toEqual([bad, false]);
  });
  test('refs accept ids, digit strings, names and comma-separated strings', () => {
    const failed: string[] = [];
    const fail = (message: string) => void failed.push(message);
    expect(refs([1, '2', 'name', ' spaced , '], fail)).toEqual([{ id: 1 }, { id: 2 }, { name: 'name' }, { name: 'spaced' }]);
    expect(refs('x, 3, ,y', fail)).toEqual([{ name: 'x' }, { id: 3 }, { name: 'y' }]);
    expect(refs('single', fail)).toEqual([{ name: 'single' }]);
    expect(failed).toEqual([]);
    expect(refs([true], fail)).toBeUndefined();
    expect(failed).toEqual(['The :attribute must be an array of ids or names.']);
  });
  test('validationBody counts the other errors', () => {
    expect(validationBody({ a: ['A.'] }).message).toBe('A.');
    expect(validationBody({ a: ['A.', 'A2.'], b: ['B.'] }).message).toBe('A. (and 2 more errors)');
    expect(validationBody({ a: ['A.'], b: ['B.'] }).message).toBe('A. (and 1 more error)');
  });
});
