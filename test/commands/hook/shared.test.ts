import { describe, expect, it } from 'vitest';
import { parseDuration, parseSize, parseUrlFlag, splitList } from '../../../src/commands/hook/shared.js';

describe('ops hook flag parsers', () => {
  it('splits comma and space lists from repeated flags', () => {
    expect(splitList(['a,b', 'c d', ''])).toEqual(['a', 'b', 'c', 'd']);
    expect(splitList(undefined)).toEqual([]);
  });
  it('parses sizes, durations and URLs, or says what is expected (exit 2)', () => {
    expect(parseSize('1mb', '--max-body')).toBe(1024 * 1024);
    expect(parseSize('256kb', '--max-body')).toBe(256 * 1024);
    expect(parseSize('4096', '--max-body')).toBe(4096);
    expect(() => parseSize('big', '--max-body')).toThrow(/--max-body must be a size/);
    expect(parseDuration('7d', '--retention')).toBe(7 * 86_400_000);
    expect(parseDuration('90s', '--retention')).toBe(90_000);
    expect(() => parseDuration('soon', '--retention')).toThrow(expect.objectContaining({ exitCode: 2 }));
    expect(parseUrlFlag('http://127.0.0.1:1/x', '--to')).toBe('http://127.0.0.1:1/x');
    expect(() => parseUrlFlag('ftp://x', '--to')).toThrow(/http or https/);
    expect(() => parseUrlFlag('nope', '--to')).toThrow(/must be a URL/);
  });
});
