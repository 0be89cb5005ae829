/** A followed log's bounded buffer and its end, on a real stream that nobody reads (then reads). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogFollower } from '../../../../src/services/pipelines/runner/log-follower.js';

/** A stream whose reader is stalled until read() is called: writes pile up in its buffer. */
function stalled(): PassThrough {
  return new PassThrough({ highWaterMark: 16 });
}

describe('LogFollower', () => {
  it('keeps at most its limit for a reader that does not read, then says how many lines were lost', async () => {
    const out = stalled();
    const f = new LogFollower(out, 1000);
    const line = 'x'.repeat(99) + '\n';
    for (let i = 0; i < 100; i++) f.line(line);
    // 10 lines fill the 1000 bytes; the other 90 are dropped, nothing more is buffered
    expect(out.writableLength).toBeLessThanOrEqual(1000);
    expect(f.droppedLines).toBe(90);
    let read = '';
    out.on('data', (d: Buffer) => (read += d.toString()));
    await new Promise((r) => setImmediate(r));
    f.line('after\n');
    await new Promise((r) => setImmediate(r));
    expect(read.split('\n').filter(Boolean)).toEqual([...Array(10).fill('x'.repeat(99)), '... 90 log lines dropped: the reader did not keep up', 'after']);
    expect(f.droppedLines).toBe(0);
  });

  it('ends the stream; a reader that does not take the rest is cut off after the drain time', async () => {
    const out = stalled();
    const f = new LogFollower(out, 1000, 50);
    f.line('a'.repeat(500) + '\n');
    f.end();
    expect(out.writableEnded).toBe(true);
    await new Promise<void>((r) => out.once('close', () => r()));
    expect(out.destroyed).toBe(true);
  });

  it('a reader that takes everything gets every line and the end of the stream', async () => {
    const out = new PassThrough();
    let read = '';
    out.on('data', (d: Buffer) => (read += d.toString()));
    const ended = new Promise<void>((r) => out.once('end', () => r()));
    const f = new LogFollower(out, 1000, 50);
    for (let i = 0; i < 50; i++) f.line(`line ${i}\n`);
    f.end();
    await ended;
    expect(read.split('\n').filter(Boolean)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
    expect(f.droppedLines).toBe(0);
  });
});
