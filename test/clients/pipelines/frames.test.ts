import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameReader, FrameError, LineReader, parseFrame, readFrames } from '../../../src/clients/pipelines/frames.js';
import { JsonNumber, jsonText } from '../../../src/core/json-exact.js';

const STREAM =
  '{"sequence_number":0,"json_data":[{"insert":{"ID":1,"NAME":"a\\r\\n}{"}},{"delete":{"ID":2,"NAME":"é€😀"}}]}\r\n' +
  '{"sequence_number":1}\r\n' +
  '{"sequence_number":2,"json_data":[]}\r\n' +
  '{"sequence_number":3,"text_data":"1,1\\n2,-1\\n"}\r\n';

function readAll(chunks: (string | Buffer)[]) {
  const r = new FrameReader();
  const frames = chunks.flatMap((c) => r.push(c));
  return [...frames, ...r.end()];
}

describe('egress frames', () => {
  it('parses data frames, keep-alives and CSV frames of the reference framing', () => {
    const frames = readAll([STREAM]);
    expect(frames.map((f) => f.sequenceNumber)).toEqual([0, 1, 2, 3]);
    expect(frames[0]!.changes).toEqual([{ insert: { ID: 1, NAME: 'a\r\n}{' } }, { delete: { ID: 2, NAME: 'é€😀' } }]);
    expect(frames[1]!.keepAlive).toBe(true);
    expect(frames[2]!.keepAlive).toBe(false);
    expect(frames[2]!.changes).toEqual([]);
    expect(frames[3]!.text).toBe('1,1\n2,-1\n');
    expect(frames[0]!.raw).toBe(STREAM.split('\r\n')[0]);
  });

  it('gives the same frames wherever the chunk boundaries fall (bytes, inside UTF-8 characters too)', () => {
    const bytes = Buffer.from(STREAM, 'utf8');
    const expected = readAll([STREAM]);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 30 }), (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let from = 0;
        for (const c of [...sorted, bytes.length]) {
          chunks.push(bytes.subarray(from, c));
          from = c;
        }
        expect(readAll(chunks)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reads every byte split of a frame one byte at a time', () => {
    const bytes = Buffer.from(STREAM, 'utf8');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect(readAll(chunks)).toEqual(readAll([STREAM]));
  });

  it('accepts frames back to back, with \\n only, or with extra blank lines', () => {
    const frames = readAll(['{"sequence_number":0,"json_data":[{"insert":{"a":1}}]}{"sequence_number":1}\n\n\r\n{"sequence_number":2,"json_data":[{"delete":{"a":1}}]}']);
    expect(frames.map((f) => [f.sequenceNumber, f.keepAlive, f.changes.length])).toEqual([
      [0, false, 1],
      [1, true, 0],
      [2, false, 1],
    ]);
  });

  it("keeps today's snapshot flag and treats null data fields as a keep-alive", () => {
    const f = parseFrame('{"sequence_number":4,"snapshot":true,"json_data":[{"insert":{"x":1}}]}');
    expect(f.snapshot).toBe(true);
    expect(parseFrame('{"sequence_number":5,"snapshot":false,"json_data":null,"text_data":null}').keepAlive).toBe(true);
  });

  it('reports a frame cut off at the end of the stream, and frames that are not JSON objects', () => {
    const r = new FrameReader();
    r.push('{"sequence_number":0,"json_data":[{"ins');
    expect(() => r.end()).toThrow(FrameError);
    expect(() => new FrameReader().push('hello\r\n')).toThrow(FrameError);
    expect(() => parseFrame('[1,2]')).toThrow(FrameError);
  });

  it('reads frames from an async stream as they come', async () => {
    async function* body() {
      yield Buffer.from('{"sequence_number":0,"json_');
      yield Buffer.from('data":[{"insert":{"a":1}}]}\r\n{"seq');
      yield Buffer.from('uence_number":1}\r\n');
    }
    const seen = [];
    for await (const f of readFrames(body())) seen.push(f.sequenceNumber);
    expect(seen).toEqual([0, 1]);
  });
});

describe('egress frames, digit-exact', () => {
  // BIGINT limits and beyond 2^53, a DECIMAL(38,10) sent as a JSON number (as Feldera may), big numbers in strings
  const BIG_STREAM =
    '{"sequence_number":0,"json_data":[{"insert":{"B":9007199254740993,"M":-9223372036854775808,"D":12345678901234567890.1234567890,"S":"9007199254740993","N":7}}]}\r\n' +
    '{"sequence_number":1}\r\n' +
    '{"sequence_number":2,"json_data":[{"delete":{"B":9223372036854775807,"D":-0.1234567890123456789,"S":"é€😀","N":-1.5}}]}\r\n';
  const EXPECTED = [
    [{ insert: { B: new JsonNumber('9007199254740993'), M: new JsonNumber('-9223372036854775808'), D: new JsonNumber('12345678901234567890.1234567890'), S: '9007199254740993', N: 7 } }],
    [],
    [{ delete: { B: new JsonNumber('9223372036854775807'), D: new JsonNumber('-0.1234567890123456789'), S: 'é€😀', N: -1.5 } }],
  ];

  it('keeps every digit of big numbers, split at every byte (inside UTF-8 characters too)', () => {
    const bytes = Buffer.from(BIG_STREAM, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      const frames = readAll([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(frames.map((f) => f.changes)).toEqual(EXPECTED);
    }
    expect(readAll([...bytes].map((b) => Buffer.from([b]))).map((f) => f.changes)).toEqual(EXPECTED);
    // frames back to back on one line take the splitter's path instead of the whole-line parse
    const joined = Buffer.from(BIG_STREAM.replace(/\r\n/g, ''), 'utf8');
    for (let cut = 0; cut <= joined.length; cut++) {
      expect(readAll([joined.subarray(0, cut), joined.subarray(cut)]).map((f) => f.changes)).toEqual(EXPECTED);
    }
  });

  it('the changes print back as the server wrote them; the raw frame is kept as it came', () => {
    const frames = readAll([BIG_STREAM]);
    const lines = BIG_STREAM.split('\r\n');
    expect(jsonText(frames[0]!.changes[0])).toBe(lines[0]!.slice('{"sequence_number":0,"json_data":['.length, -2));
    expect(frames[2]!.raw).toBe(lines[2]);
  });
});

describe('log lines', () => {
  it('splits lines across chunks, \\r\\n or \\n, and keeps a last line without a newline', () => {
    const r = new LineReader();
    expect(r.push('one\r\ntw')).toEqual(['one']);
    expect(r.push('o\nthr')).toEqual(['two']);
    expect(r.end()).toEqual(['thr']);
  });
});
