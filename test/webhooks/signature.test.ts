import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProblem, sign, verify } from '../../src/webhooks/signature.js';

const independent = (secret: string, body: Buffer | string) => createHmac('sha256', secret).update(body).digest('hex');

describe('sign', () => {
  it('is the lowercase hex HMAC-SHA-256 of the raw bytes', () => {
    const body = '{"id":"evt_1","type":"user.created","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
    expect(sign('s3cret', body)).toBe(independent('s3cret', body));
    expect(sign('s3cret', body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches a known vector (RFC 4231 case 2)', () => {
    expect(sign('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('signs bytes, not re-serialised JSON', () => {
    const a = Buffer.from('{"a":1}');
    const b = Buffer.from('{ "a": 1 }');
    expect(sign('k', a)).not.toBe(sign('k', b));
  });
});

describe('verify', () => {
  const secret = 'whsec_test';
  const body = Buffer.from('{"id":"evt_1","type":"payment.completed","data":{"amount":1}}');
  const good = independent(secret, body);

  it('accepts a correct signature', () => {
    expect(verify(secret, body, good)).toEqual({ valid: true });
  });

  it('rejects a tampered body, a wrong secret, missing and malformed headers', () => {
    const tampered = Buffer.from(body.toString().replace('"amount":1', '"amount":2'));
    expect(verify(secret, tampered, good)).toEqual({ valid: false, reason: 'mismatch' });
    expect(verify('other', body, good)).toEqual({ valid: false, reason: 'mismatch' });
    expect(verify(secret, body, undefined)).toEqual({ valid: false, reason: 'missing' });
    expect(verify(secret, body, '')).toEqual({ valid: false, reason: 'missing' });
    expect(verify(secret, body, [])).toEqual({ valid: false, reason: 'missing' });
    expect(verify(secret, body, [good, good])).toEqual({ valid: false, reason: 'malformed' });
    expect(verify(secret, body, 'zz')).toEqual({ valid: false, reason: 'malformed' });
    expect(verify(secret, body, good.slice(0, 63))).toEqual({ valid: false, reason: 'malformed' });
    expect(verify(secret, body, good + '0')).toEqual({ valid: false, reason: 'malformed' });
    expect(verify(secret, body, `sha256=${good}`)).toEqual({ valid: false, reason: 'malformed' });
    expect(verify(secret, body, good.toUpperCase())).toEqual({ valid: false, reason: 'malformed' });
  });

  it('lenient mode takes a sha256= prefix and upper-case hex', () => {
    expect(verify(secret, body, `sha256=${good}`, { lenient: true }).valid).toBe(true);
    expect(verify(secret, body, good.toUpperCase(), { lenient: true }).valid).toBe(true);
    expect(verify(secret, body, `sha256=${'0'.repeat(64)}`, { lenient: true })).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('never puts the expected signature into its messages', () => {
    for (const r of ['missing', 'malformed', 'mismatch'] as const) expect(describeProblem(r)).not.toContain(good);
  });

  it('property: a signature verifies its body and no other', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.uint8Array({ minLength: 0, maxLength: 300 }), fc.nat(), (s, bytes, pos) => {
        const b = Buffer.from(bytes);
        const sig = sign(s, b);
        expect(verify(s, b, sig).valid).toBe(true);
        if (b.length > 0) {
          const flipped = Buffer.from(b);
          flipped[pos % b.length]! ^= 1 << (pos % 8);
          expect(verify(s, flipped, sig).valid).toBe(false);
        }
      }),
    );
  });
});
