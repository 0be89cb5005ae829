/** Typed arrays of a message received over IPC made the receiver's own (workers/own-buffers.ts). */
import { describe, expect, it } from 'vitest';
import { ownBuffers } from '../../../src/services/workers/own-buffers.js';

describe('ownBuffers', () => {
  it('replaces views into a shared buffer, wherever they sit in the message, with exact copies to transfer', () => {
    const read = new Uint8Array(65_536).map((_, i) => i & 0xff); // the channel's read buffer
    const msg = {
      t: 'output',
      chunks: [
        { bytes: read.subarray(100, 110), records: 1 },
        { bytes: read.subarray(5000, 5003), records: 2 },
      ],
      body: read.subarray(0, 4),
    };
    const transfer: ArrayBuffer[] = [];
    const own = ownBuffers(msg, transfer) as typeof msg;
    expect(own.chunks.map((c) => [...c.bytes])).toEqual([
      [100, 101, 102, 103, 104, 105, 106, 107, 108, 109],
      [136, 137, 138],
    ]);
    expect(own.chunks.map((c) => c.bytes.buffer.byteLength)).toEqual([10, 3]);
    expect(own.chunks.every((c) => c.bytes instanceof Uint8Array && c.bytes.byteOffset === 0)).toBe(true);
    expect([...own.body]).toEqual([0, 1, 2, 3]);
    expect(transfer).toEqual([own.chunks[0]!.bytes.buffer, own.chunks[1]!.bytes.buffer, own.body.buffer]);
    // the copies are not the read buffer: changing it later changes nothing of them
    read.fill(0);
    expect(own.chunks[1]!.bytes[0]).toBe(136);
  });

  it('keeps the type of each view, and leaves everything else as it is', () => {
    const ints = new Int32Array([1, -2, 3]);
    const when = new Date(0);
    const own = ownBuffers({ ints, buf: Buffer.from('abc'), when, n: 5, s: 'x', none: null }) as Record<string, unknown>;
    expect(own.ints).toBeInstanceOf(Int32Array);
    expect([...(own.ints as Int32Array)]).toEqual([1, -2, 3]);
    expect(Buffer.isBuffer(own.buf) && (own.buf as Buffer).toString()).toBe('abc');
    expect(own.when).toBe(when);
    expect([own.n, own.s, own.none]).toEqual([5, 'x', null]);
  });
});
