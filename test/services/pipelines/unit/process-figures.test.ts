/** A process's figures for /metrics, read from Linux's /proc (process-figures.ts). */
import { describe, expect, it } from 'vitest';
import { parseLimits, parseStatus, readProcessFigures } from '../../../../src/services/pipelines/shared/process-figures.js';

const STATUS = `Name:\tnode
State:\tS (sleeping)
VmPeak:\t 1234568 kB
VmSize:\t 1180744 kB
VmRSS:\t   98304 kB
VmSwap:\t     512 kB
Threads:\t12
`;

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 1048576              files
Max address space         unlimited            unlimited            bytes
`;

describe('process figures', () => {
  it('reads the virtual size, threads and swap of a status text, in bytes', () => {
    expect(parseStatus(STATUS)).toEqual({ virtual_memory_bytes: 1180744 * 1024, threads: 12, swap_bytes: 512 * 1024 });
    expect(parseStatus('Name:\tnode\n')).toEqual({ virtual_memory_bytes: null, threads: null, swap_bytes: null });
  });

  it('reads the soft limits of a limits text; unlimited is no figure', () => {
    expect(parseLimits(LIMITS)).toEqual({ max_fds: 1024, virtual_memory_max_bytes: null });
    expect(parseLimits(LIMITS.replace('Max address space         unlimited', 'Max address space         8589934592'))).toEqual({ max_fds: 1024, virtual_memory_max_bytes: 8589934592 });
  });

  it("reads this process's figures, and none where there is no /proc to read", () => {
    const mine = readProcessFigures();
    expect(mine.open_fds).toBeGreaterThan(2);
    expect(mine.threads).toBeGreaterThanOrEqual(1);
    expect(mine.max_fds).toBeGreaterThan(0);
    expect(mine.virtual_memory_bytes).toBeGreaterThan(process.memoryUsage().rss);
    expect(readProcessFigures('/nonexistent/proc/self')).toEqual({ open_fds: null, max_fds: null, virtual_memory_bytes: null, virtual_memory_max_bytes: null, threads: null, swap_bytes: null });
  });
});
