import { describe, expect, it } from 'vitest';
import { colourEnabled } from '../../src/core/io.js';

describe('colour policy', () => {
  const tty = { isTTY: true };
  it('is on for a terminal with a plain environment', () => {
    expect(colourEnabled({ ...tty, env: { TERM: 'xterm' } })).toBe(true);
  });
  it('is off for a pipe', () => {
    expect(colourEnabled({ isTTY: false, env: {} })).toBe(false);
  });
  it.each([
    [{ NO_COLOR: '1' }, false],
    [{ NO_COLOR: '' }, true],
    [{ TERM: 'dumb' }, false],
    [{ CLICOLOR: '0' }, false],
    [{ FORCE_COLOR: '0' }, false],
  ])('on a terminal with %o -> %s', (env, expected) => {
    expect(colourEnabled({ ...tty, env })).toBe(expected);
  });
  it('FORCE_COLOR turns it on even for a pipe and beats TERM=dumb', () => {
    expect(colourEnabled({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(colourEnabled({ isTTY: true, env: { FORCE_COLOR: '1', TERM: 'dumb' } })).toBe(true);
  });
  it('NO_COLOR beats FORCE_COLOR, and --no-color beats everything', () => {
    expect(colourEnabled({ ...tty, env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).toBe(false);
    expect(colourEnabled({ ...tty, env: { FORCE_COLOR: '1' }, noColorFlag: true })).toBe(false);
  });
});
