/** Completion tokens (tokens.ts): Feldera's wire format both ways, decode errors, and the token book's answers. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeToken, encodeToken, TokenBook } from '../../../../src/services/pipelines/control/tokens.js';

const UUID = '0b8f6c2e-3f4a-4d6b-9c1e-2a7d5e8f9a01';

describe('token wire format', () => {
  it("is URL-safe base64 without padding of {u, e, c}, in Feldera's field order", () => {
    const t = encodeToken({ incarnation: UUID, endpoint: 3, count: 42 });
    expect(t).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(t, 'base64url').toString()).toBe(`{"u":"${UUID}","e":3,"c":42}`);
  });

  it('decodes what it encodes (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(), fc.maxSafeNat(), (u, e, c) => {
        expect(decodeToken(encodeToken({ incarnation: u, endpoint: e, count: c }))).toEqual({ incarnation: u.toLowerCase(), endpoint: e, count: c });
      }),
    );
  });

  it('says why a token cannot be read', () => {
    const enc = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
    expect(() => decodeToken('a+b/')).toThrow(/not a valid base64 string/);
    expect(() => decodeToken('abcde')).toThrow(/not a valid base64 string/);
    expect(() => decodeToken(enc('{"u":'))).toThrow(/error parsing completion token/);
    // garbage that decodes to control characters is not echoed back
    let message = '';
    try {
      decodeToken('A'.repeat(400));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('error parsing completion token: its content is not JSON');
    expect(() => decodeToken(enc([1, 2]))).toThrow(/expected a JSON object/);
    expect(() => decodeToken(enc({ u: 'nope', e: 0, c: 0 }))).toThrow(/field 'u'/);
    expect(() => decodeToken(enc({ u: UUID, e: -1, c: 0 }))).toThrow(/field 'e'/);
    expect(() => decodeToken(enc({ u: UUID, e: 0, c: 1.5 }))).toThrow(/field 'c'/);
    expect(() => decodeToken(enc({ u: UUID, e: 0 }))).toThrow(/field 'c'/);
  });
});

describe('TokenBook', () => {
  it('answers the step that completed the first label at or after the position; null past the last; unknown ids and other incarnations apart', () => {
    const book = new TokenBook(UUID);
    expect(book.incarnation).toBe(UUID);
    const id = book.endpointId('api-ingress-T');
    expect(book.endpointId('T.src')).toBe(id + 1);
    expect(book.endpointId('api-ingress-T')).toBe(id);
    book.complete('api-ingress-T', 2, 1);
    book.complete('api-ingress-T', 5, 3);
    book.complete('api-ingress-T', 5, 4); // same position: keeps its first step
    const at = (count: number) => book.status({ incarnation: book.incarnation, endpoint: id, count });
    expect(at(0)).toEqual({ ok: true, step: 1 });
    expect(at(2)).toEqual({ ok: true, step: 1 });
    expect(at(3)).toEqual({ ok: true, step: 3 });
    expect(at(5)).toEqual({ ok: true, step: 3 });
    expect(at(6)).toEqual({ ok: true, step: null });
    expect(book.status({ incarnation: book.incarnation, endpoint: 99, count: 1 })).toEqual({ ok: false, reason: 'unknown-endpoint' });
    expect(book.status({ incarnation: new TokenBook().incarnation, endpoint: id, count: 1 })).toEqual({ ok: false, reason: 'restarted' });
    expect(decodeToken(book.token('api-ingress-T', 5))).toEqual({ incarnation: book.incarnation, endpoint: id, count: 5 });
  });

  it('keeps a bounded number of labels; a token older than all of them answers the oldest kept step (still complete)', () => {
    const book = new TokenBook(undefined, 8);
    for (let i = 1; i <= 100; i++) book.complete('e', i * 10, i);
    const at = (count: number) => book.status({ incarnation: book.incarnation, endpoint: book.endpointId('e'), count });
    // the newest labels are exact
    expect(at(1000)).toEqual({ ok: true, step: 100 });
    expect(at(935)).toEqual({ ok: true, step: 94 });
    // the oldest were dropped: an early position answers a later, complete step
    const early = at(10) as { ok: true; step: number };
    expect(early.step).toBeGreaterThan(1);
    expect(early.step).toBeLessThanOrEqual(100 - 8 + 1);
  });

  it('agrees with a linear scan over any labels (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(50), fc.nat(5)), { maxLength: 40 }), fc.nat(2000), (incs, probe) => {
        const book = new TokenBook();
        const id = book.endpointId('e');
        const labels: [number, number][] = [];
        let pos = 0;
        let step = 0;
        for (const [dp, ds] of incs) {
          pos += dp;
          step += ds;
          book.complete('e', pos, step);
          if (labels.length === 0 || labels[labels.length - 1][0] < pos) labels.push([pos, step]);
        }
        const expected = labels.find(([p]) => p >= probe)?.[1] ?? null;
        expect(book.status({ incarnation: book.incarnation, endpoint: id, count: probe })).toEqual({ ok: true, step: expected });
      }),
    );
  });
});
