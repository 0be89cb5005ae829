import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from '../../src/core/units.js';

describe('units for people', () => {
  it('bytes', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 ** 2, 3.25 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '5.0 MiB', '3.3 GiB']);
  });
  it('durations', () => {
    expect([0, 850, 12_340, 245_000, 7_380_000, 3 * 86_400_000 + 4 * 3_600_000].map(formatDuration)).toEqual(['0 ms', '850 ms', '12.3 s', '4m 05s', '2h 03m', '3d 04h']);
  });
});
