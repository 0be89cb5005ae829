/**
 * The pipeline clock (services/pipelines/shared/clock.ts) with an injected wall clock: resolution rounding as
 * Feldera's ClockConfig, wall-clock values rounded down, now_offset, http-driven advances (read, one
 * resolution, rounded up), the largest TIMESTAMP, and the runtime_config checks.
 */
import { describe, expect, it } from 'vitest';
import { clockConfigError, clockSettings, MAX_TIMESTAMP_MS, PipelineClock } from '../../../../src/services/pipelines/shared/clock.js';

const T0 = Date.parse('2024-01-01T12:00:00.000Z');

describe('clockSettings', () => {
  it('reads clock_resolution_usecs as Feldera rounds it (default one second, at least 1 ms)', () => {
    expect(clockSettings({})).toEqual({ resolutionMs: 1000, httpDriven: false, offsetMs: null, timezoneMs: 0 });
    expect(clockSettings({ clock_resolution_usecs: null }).resolutionMs).toBe(1000);
    expect(clockSettings({ clock_resolution_usecs: 100_000 }).resolutionMs).toBe(100);
    expect(clockSettings({ clock_resolution_usecs: 1_499 }).resolutionMs).toBe(1);
    expect(clockSettings({ clock_resolution_usecs: 1_500 }).resolutionMs).toBe(2);
    expect(clockSettings({ clock_resolution_usecs: 0 }).resolutionMs).toBe(1);
    expect(clockSettings({ dev_tweaks: { now_http_driven: true, now_offset: '2024-01-01T12:00:00Z' } })).toEqual({ resolutionMs: 1000, httpDriven: true, offsetMs: T0, timezoneMs: 0 });
    expect(clockSettings({ clock_timezone_offset: '+05:30' }).timezoneMs).toBe(5.5 * 3_600_000);
    expect(clockSettings({ clock_timezone_offset: '-08:00' }).timezoneMs).toBe(-8 * 3_600_000);
  });

  it('clockConfigError names what does not deserialize', () => {
    expect(clockConfigError({ clock_resolution_usecs: 5, dev_tweaks: { now_http_driven: null, now_offset: '2024-01-01T12:00:00+02:00', other: 1 } })).toBeNull();
    expect(clockConfigError({ clock_resolution_usecs: -1 })).toMatch(/expected u64/);
    expect(clockConfigError({ clock_resolution_usecs: 1.5 })).toMatch(/clock_resolution_usecs/);
    expect(clockConfigError({ dev_tweaks: 'x' })).toMatch(/dev_tweaks/);
    expect(clockConfigError({ dev_tweaks: { now_http_driven: 1 } })).toMatch(/now_http_driven/);
    expect(clockConfigError({ dev_tweaks: { now_offset: '2024-13-45' } })).toMatch(/now_offset/);
    expect(clockConfigError({ clock_timezone_offset: '+05:30' })).toBeNull();
    for (const bad of ['+24:00', '5:30', 'UTC', 330]) expect(clockConfigError({ clock_timezone_offset: bad })).toMatch(/invalid timezone offset/);
  });
});

describe('PipelineClock', () => {
  it('follows the wall clock rounded down to the resolution, never backwards, and says when it next changes', () => {
    let wall = T0 + 1234;
    const c = new PipelineClock({ resolutionMs: 1000, httpDriven: false, offsetMs: null }, () => wall);
    expect(c.now()).toBe(T0 + 1000);
    expect(c.msToNextTick()).toBe(766);
    wall = T0 + 1999;
    expect(c.now()).toBe(T0 + 1000);
    wall = T0 + 2000;
    expect(c.msToNextTick()).toBe(0);
    expect(c.now()).toBe(T0 + 2000);
    wall = T0 + 500; // the wall clock stepped back: NOW() does not
    expect(c.now()).toBe(T0 + 2000);
  });

  it('starts at now_offset and advances with the wall clock from there', () => {
    let wall = Date.parse('2030-06-01T00:00:00.700Z');
    const c = new PipelineClock({ resolutionMs: 1000, httpDriven: false, offsetMs: T0 + 250 }, () => wall);
    expect(c.now()).toBe(T0);
    wall += 5000;
    expect(c.now()).toBe(T0 + 5000);
  });

  it('http-driven: holds its value; 0 reads, null advances one resolution, n rounds up to the resolution', () => {
    let wall = T0 + 123_456;
    const c = new PipelineClock({ resolutionMs: 1000, httpDriven: true, offsetMs: T0 }, () => wall);
    expect(c.now()).toBe(T0);
    wall += 3_600_000;
    expect(c.now()).toBe(T0); // the wall clock does not move it
    expect(c.advance(0)).toBe(T0);
    expect(c.advance(null)).toBe(T0 + 1000);
    expect(c.advance(60_000)).toBe(T0 + 61_000);
    expect(c.advance(1)).toBe(T0 + 62_000);
    expect(c.now()).toBe(T0 + 62_000);
    // past the largest TIMESTAMP: refused, the clock stays
    expect(c.advance(MAX_TIMESTAMP_MS)).toBeNull();
    expect(c.now()).toBe(T0 + 62_000);
  });

  it('clock_timezone_offset shifts every value: wall clock, now_offset and advances alike', () => {
    const tz = 5.5 * 3_600_000;
    let wall = T0 + 400;
    const c = new PipelineClock({ resolutionMs: 1000, httpDriven: false, offsetMs: null, timezoneMs: tz }, () => wall);
    expect(c.now()).toBe(T0 + tz);
    wall += 2000;
    expect(c.now()).toBe(T0 + tz + 2000);
    const h = new PipelineClock({ resolutionMs: 1000, httpDriven: true, offsetMs: T0, timezoneMs: tz }, () => wall);
    expect(h.advance(0)).toBe(T0 + tz);
    expect(h.advance(60_000)).toBe(T0 + tz + 60_000);
  });

  it('http-driven without an offset starts at the wall clock rounded down', () => {
    const c = new PipelineClock({ resolutionMs: 60_000, httpDriven: true, offsetMs: null }, () => T0 + 59_999);
    expect(c.now()).toBe(T0);
    expect(c.advance(null)).toBe(T0 + 60_000);
  });
});
