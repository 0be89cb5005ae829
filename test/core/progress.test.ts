import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { countdown, startProgress } from '../../src/core/progress.js';
import { Context } from '../../src/context.js';
import { memoryIo } from '../helpers/memory-io.js';
import { tempDir } from '../helpers/cli.js';

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

  it("ends with the same marks as every other message (✓, not ora's ✔)", async () => {
    const io = memoryIo({ tty: true });
    (await startProgress(io, 'waiting', { json: false })).succeed('done');
    (await startProgress(io, 'waiting', { json: false })).fail('broken');
    expect(io.stderrText()).toContain('✓ done');
    expect(io.stderrText()).toContain('✗ broken');
    expect(io.stderrText()).not.toMatch(/[✔✖]/);
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

describe('countdown', () => {
  const quick = () => {
    const slept: number[] = [];
    return { slept, sleep: async (ms: number) => void slept.push(ms) };
  };

  it('counts down on one redrawn line of a terminal, then clears it', async () => {
    const io = memoryIo({ tty: true });
    const { slept, sleep } = quick();
    await countdown(io, 3, (left) => `retrying in ${left}s`, { json: false, sleep });
    expect(io.stderrText()).toBe('\r\u001b[2Kretrying in 3s\r\u001b[2Kretrying in 2s\r\u001b[2Kretrying in 1s\r\u001b[2K');
    expect(slept).toEqual([1000, 1000, 1000]);
    expect(io.stdoutText()).toBe('');
  });

  it('says it once as a plain line when stderr is not a terminal, or with --json', async () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ]) {
      const io = memoryIo({ tty });
      const { slept, sleep } = quick();
      await countdown(io, 2.5, (left) => `retrying in ${left}s`, { json, sleep });
      expect(io.stderrText()).toBe('retrying in 3s\n');
      expect(slept).toEqual([2500]);
    }
  });

  it("a command waiting out a 429 shows the countdown on a terminal (through the Context's HTTP client)", async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      if (hits === 1) res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Too Many Attempts."}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const io = memoryIo({ tty: true });
      const env = { OPS_BM_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
      const ctx = new Context({}, env, io);
      expect(await ctx.http('bm').json('GET', '/api/v2/links')).toEqual({ ok: true });
      expect(hits).toBe(2);
      expect(io.stderrText()).toBe('\r\u001b[2K! rate limited by the bookmark service; retrying in 1s (attempt 2)\r\u001b[2K');
    } finally {
      server.close();
    }
  });
});
