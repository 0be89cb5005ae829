import { describe, expect, it } from 'vitest';
import { sanitize } from '../../src/core/sanitize.js';

describe('sanitize', () => {
  it('removes CSI colour and cursor sequences', () => {
    expect(sanitize('\u001b[31mred\u001b[0m \u001b[2J\u001b[Hcleared')).toBe('red cleared');
  });
  it('removes OSC sequences such as terminal-title changes', () => {
    expect(sanitize('a\u001b]0;pwned\u0007b')).toBe('ab');
  });
  it('removes C0 and C1 control characters but keeps ordinary text and unicode', () => {
    expect(sanitize('bell\u0007 back\bspace \u009bx Zürich 日本')).toBe('bell backspace x Zürich 日本');
  });
  it('turns newlines and tabs into spaces unless asked to keep newlines', () => {
    expect(sanitize('a\nb\tc')).toBe('a b c');
    expect(sanitize('a\nb', { keepNewlines: true })).toBe('a\nb');
  });
});
