/** services/kit/credentials.ts: the Bearer value of an Authorization header and a cookie's value, or none. */
import { describe, expect, it } from 'vitest';
import { bearerCredential, cookieValue } from '../../../src/services/kit/credentials.js';

describe('bearerCredential', () => {
  it('reads one token after the scheme, in any case, spaces around it allowed', () => {
    expect(bearerCredential('Bearer abc')).toBe('abc');
    expect(bearerCredential('bearer   apikey:x1  ')).toBe('apikey:x1');
  });

  it('presents none for another scheme, two tokens, no token or no header', () => {
    for (const h of ['Basic abc', 'Bearer a b', 'Bearer ', 'Bearer', '', undefined, ['Bearer a']]) expect(bearerCredential(h), String(h)).toBeUndefined();
  });
});

describe('cookieValue', () => {
  it('finds the named cookie, percent-decoded', () => {
    expect(cookieValue('a=1; key=k%20v; b=2', 'key')).toBe('k v');
  });

  it('is undefined when absent, undecodable or without a header', () => {
    expect(cookieValue('a=1', 'key')).toBeUndefined();
    expect(cookieValue('key=%zz', 'key')).toBeUndefined();
    expect(cookieValue(undefined, 'key')).toBeUndefined();
  });
});
