import { describe, expect, it } from 'vitest';
import { startProgress } from '../../src/core/progress.js';
import { memoryIo } from '../helpers/memory-io.js';

describe('progress', () => {
  it('prints one plain line per phase on stderr when stderr is not a terminal', async () => {
    const io = memoryIo({ tty: false });
    const p = await startProgress(io, 'compiling', { json: false });
    p.update('compiling');
    p.update('starting');
    p.succeed('running');
    expect(io.stderrText()).toBe('compiling\nstarting\nrunning\n');
    expect(io.stdoutText()).toBe('');
  });

  it('never animates a spinner with --json, even on a terminal', async () => {
    const io = memoryIo({ tty: true });
    const p = await startProgress(io, 'waiting', { json: true });
    p.succeed('done');
    expect(io.stderrText()).toBe('waiting\ndone\n');
  });

  it('animates on a terminal stderr and keeps stdout clean', async () => {
    const io = memoryIo({ tty: true });
    const p = await startProgress(io, 'waiting', { json: false });
    p.succeed('done');
    expect(io.stderrText()).toContain('done');
    expect(io.stdoutText()).toBe('');
  });
});

describe('progress on a terminal that reports no width', () => {
  it('falls back to plain lines instead of redrawing forever', async () => {
    const io = memoryIo({ tty: true });
    (io.stderr as { columns?: number }).columns = 0;
    const p = await startProgress(io, 'waiting', { json: false });
    p.succeed('done');
    expect(io.stderrText()).toBe('waiting\ndone\n');
  });
});
