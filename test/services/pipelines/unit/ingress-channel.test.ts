/**
 * The ingress channel between a pipeline's host and its worker: frames written by the host's helpers
 * read back exactly however the pipe cuts the stream (ingress-frames.ts); an End applied only after the
 * host's messages posted before it (end-gate.ts); and a request's body, gathered into pieces before it is
 * parsed (ingest-job.ts), parsing as the whole body does however it arrives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameKind, FrameReader, abortFrame, beginFrame, endFrame, frameHeader, type FrameSink } from '../../../../src/services/pipelines/shared/ingress-frames.js';
import { EndGate } from '../../../../src/services/pipelines/worker/end-gate.js';
import { IngestJob, PARSE_PIECE_BYTES } from '../../../../src/services/pipelines/worker/ingest-job.js';
import type { IngestSpec } from '../../../../src/services/pipelines/shared/protocol.js';
import { tableBinding } from './schema.js';

const spec: IngestSpec = { table: 'T', format: 'json', updateFormat: 'raw', array: true };

/** What a reader reports, with the chunk parts of each request joined (their cuts are the pipe's). */
function read(stream: Uint8Array, cuts: number[]): unknown[] {
  const events: unknown[] = [];
  const sink: FrameSink = {
    begin: (id, s) => events.push(['begin', id, s]),
    chunk: (id, bytes) => {
      const last = events[events.length - 1] as [string, number, number[]] | undefined;
      if (last && last[0] === 'chunk' && last[1] === id) last[2].push(...bytes);
      else events.push(['chunk', id, [...bytes]]);
    },
    end: (id, posted) => events.push(['end', id, posted]),
    abort: (id) => events.push(['abort', id]),
  };
  const reader = new FrameReader(sink);
  let from = 0;
  for (const cut of [...cuts, stream.length]) {
    reader.push(stream.subarray(from, cut));
    from = cut;
  }
  return events;
}

describe('ingress frames', () => {
  const body1 = Buffer.from('[{"x": 1}, {"x": 2}]');
  const body2 = Buffer.from('{"x": 3}');
  const stream = Buffer.concat([
    beginFrame(7, spec),
    beginFrame(8, { ...spec, array: false }),
    frameHeader(FrameKind.Chunk, 7, 10),
    body1.subarray(0, 10),
    frameHeader(FrameKind.Chunk, 8, body2.length),
    body2,
    frameHeader(FrameKind.Chunk, 7, 0),
    frameHeader(FrameKind.Chunk, 7, body1.length - 10),
    body1.subarray(10),
    endFrame(7, 3),
    abortFrame(8),
    endFrame(0xffffffff, 2 ** 32 - 1),
  ]);
  const expected = [
    ['begin', 7, spec],
    ['begin', 8, { ...spec, array: false }],
    ['chunk', 7, [...body1.subarray(0, 10)]],
    ['chunk', 8, [...body2]],
    ['chunk', 7, [...body1.subarray(10)]],
    ['end', 7, 3],
    ['abort', 8],
    ['end', 0xffffffff, 2 ** 32 - 1],
  ];

  it('read back in order, whole', () => {
    expect(read(stream, [])).toEqual(expected);
  });

  it('read back the same wherever the stream is cut (every single cut, every byte apart, random cuts)', () => {
    for (let i = 0; i <= stream.length; i++) expect(read(stream, [i])).toEqual(expected);
    expect(
      read(
        stream,
        Array.from({ length: stream.length }, (_, i) => i),
      ),
    ).toEqual(expected);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: stream.length }), { maxLength: 40 }), (cuts) => {
        expect(
          read(
            stream,
            cuts.sort((a, b) => a - b),
          ),
        ).toEqual(expected);
      }),
    );
  });

  it('hands chunk bytes over as views of what came, not copies', () => {
    const parts: Uint8Array[] = [];
    const reader = new FrameReader({ begin: () => {}, chunk: (_, b) => parts.push(b), end: () => {}, abort: () => {} });
    const data = Buffer.concat([frameHeader(FrameKind.Chunk, 1, 4), Buffer.from('abcd')]);
    reader.push(data);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.buffer).toBe(data.buffer);
  });

  it('refuses a corrupt stream: an unknown kind, a control frame too big to be one', () => {
    const none = { begin: () => {}, chunk: () => {}, end: () => {}, abort: () => {} };
    const bad = frameHeader(FrameKind.Chunk, 1, 0);
    bad[0] = 9;
    expect(() => new FrameReader(none).push(bad)).toThrow(/unknown frame kind 9/);
    expect(() => new FrameReader(none).push(frameHeader(FrameKind.Begin, 1, 10_000_000))).toThrow(/control frame of 10000000 bytes/);
    expect(() => new FrameReader(none).push(frameHeader(FrameKind.End, 1, 0))).toThrow(/End frame without its count/);
  });
});

describe('end gate', () => {
  it('lets an End through once the messages posted before it were taken, in the order the Ends came', () => {
    const gate = new EndGate();
    expect(gate.end(1, 0)).toEqual([1]);
    expect(gate.end(2, 2)).toEqual([]);
    // a later End waits behind an earlier one even when its own messages are in
    expect(gate.end(3, 1)).toEqual([]);
    expect(gate.message()).toEqual([]);
    expect(gate.message()).toEqual([2, 3]);
    expect(gate.end(4, 2)).toEqual([4]);
  });

  it('forgets an aborted request, and the ones behind it go on', () => {
    const gate = new EndGate();
    expect(gate.end(1, 1)).toEqual([]);
    expect(gate.end(2, 1)).toEqual([]);
    gate.abort(1);
    expect(gate.message()).toEqual([2]);
    gate.abort(5);
    expect(gate.message()).toEqual([]);
  });
});

describe('ingest job', () => {
  const binding = tableBinding('create table t(x integer not null, s varchar)');
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ x: i, s: `row ${i} ${'é'.repeat(i % 7)}` }));
  const body = Buffer.from(JSON.stringify(rows));

  function parse(pieces: Uint8Array[]) {
    const job = new IngestJob(spec, binding);
    for (const p of pieces) job.push(p);
    const out = job.finish();
    return { bytes: job.bytes, records: out.records, changes: out.changes, errors: out.errors };
  }

  it('gives what the whole body gives, in pipe-sized pieces, byte-sized pieces or one', () => {
    expect(body.length).toBeGreaterThan(2 * PARSE_PIECE_BYTES);
    const whole = parse([body]);
    expect(whole.records).toBe(rows.length);
    expect(whole.errors).toEqual([]);
    const cut = (size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));
    expect(parse(cut(30_001))).toEqual(whole);
    expect(parse(cut(PARSE_PIECE_BYTES))).toEqual(whole);
    expect(parse(cut(7))).toEqual(whole);
  });

  it('answers a bad body with its errors at the end, whatever came after them', () => {
    const bad = Buffer.from('[{"x": 1}, {"x": "no"}, {"x": 3}]');
    const out = parse([bad.subarray(0, 5), bad.subarray(5)]);
    expect(out.records).toBe(3);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatchObject({ event_number: 2 });
  });
});
