import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeChunks, encodeCsvLines, encodeJsonItems, snapshotBody } from '../../../../src/services/pipelines/worker/egress/encode.js';
import { CHUNK_RECORDS, defaultEncoding, frame, type OutputEncoding } from '../../../../src/services/pipelines/shared/encoding.js';
import { TextBytes } from '../../../../src/services/pipelines/worker/egress/text-bytes.js';
import type { ColumnSchema, WeightedRow } from '../../../../src/engine/index.js';

/** A snapshot body as text. */
function snapshotText(rows: WeightedRow[], format: 'json' | 'csv', columns: ColumnSchema[]): string {
  const out = new TextBytes();
  snapshotBody(rows, format, columns, out);
  return out.bytes().toString('utf8');
}
import { flavoredRow } from '../../../../src/services/pipelines/worker/egress/flavor.js';
import { neighborhood, parseNeighborhood, quantiles, sortedContents } from '../../../../src/services/pipelines/worker/egress/snapshot.js';
import { col, PK, T1, W3B, W4A } from './schema.js';

const pkCodec = W4A.valueCodec('T1')!;

describe('egress encoding', () => {
  it('writes a row of weight w |w| times, deletes for negative weights', () => {
    const [chunk] = encodeChunks(
      [
        { row: { S: '1' }, weight: -1 },
        { row: { S: '2' }, weight: 2 },
      ],
      'json',
      [col('S', 'VARCHAR')],
    );
    expect(JSON.parse(frame(7, chunk))).toEqual({
      sequence_number: 7,
      json_data: [{ delete: { S: '1' } }, { insert: { S: '2' } }, { insert: { S: '2' } }],
    });
    expect(frame(7, chunk).endsWith('}\r\n')).toBe(true);
    expect(frame(8)).toBe('{"sequence_number":8}\r\n');
  });

  it('CSV lines end with the weight; NULL is an empty field; quoting when needed', () => {
    const [chunk] = encodeChunks([{ row: { C1: 20, C2: null, C3: 'a,b' }, weight: 1 }], 'csv', T1.columns);
    expect(JSON.parse(frame(0, chunk))).toEqual({ sequence_number: 0, text_data: '20,,"a,b",1\n' });
    expect(JSON.parse(snapshotText([{ row: { COMBINED: 'Hello world!' }, weight: 1 }], 'csv', [col('COMBINED', 'VARCHAR')]))).toEqual({
      sequence_number: 0,
      text_data: 'Hello world!,1\n',
    });
  });

  it('splits large changes into chunks', () => {
    const rows = Array.from({ length: CHUNK_RECORDS + 5 }, (_, i) => ({ row: { S: String(i) }, weight: 1 }));
    const chunks = encodeChunks(rows, 'json', [col('S', 'VARCHAR')]);
    expect(chunks.map((c) => c.records)).toEqual([CHUNK_RECORDS, 5]);
  });

  it('a snapshot body built in parts is the body built as one string, in JSON and CSV, whatever the texts', () => {
    const cols = [col('S', 'VARCHAR'), col('N', 'INTEGER')];
    const whole = (rows: WeightedRow[], format: 'json' | 'csv') =>
      format === 'json' ? `{"sequence_number":0,"json_data":[${encodeJsonItems(rows).join(',')}]}` : `{"sequence_number":0,"text_data":${JSON.stringify(encodeCsvLines(rows, cols).join(''))}}`;
    fc.assert(
      fc.property(
        fc.array(fc.record({ row: fc.record({ S: fc.oneof(fc.string({ unit: 'binary' }), fc.constant('a"b\\c\n,\u2028é😀')), N: fc.integer() }), weight: fc.integer({ min: -3, max: 3 }) }), {
          maxLength: 30,
        }),
        fc.constantFrom<'json' | 'csv'>('json', 'csv'),
        fc.integer({ min: 1, max: 64 }),
        (rows, format, flushChars) => {
          const out = new TextBytes(flushChars);
          snapshotBody(rows, format, cols, out);
          expect(out.bytes().toString('utf8')).toBe(Buffer.from(whole(rows, format), 'utf8').toString('utf8'));
          expect(out.bytes().equals(Buffer.from(whole(rows, format), 'utf8'))).toBe(true);
        },
      ),
    );
  });

  it('a built body is a buffer of its own (it is transferred to the host), never a slice of the shared pool', () => {
    for (const text of ['', 'x', 'small', 'é'.repeat(5000)]) {
      const out = new TextBytes();
      out.add(text);
      const bytes = out.bytes();
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
      expect(bytes.toString('utf8')).toBe(text);
    }
  });

  it('an empty snapshot still has its data field', () => {
    expect(JSON.parse(snapshotText([], 'json', T1.columns))).toEqual({ sequence_number: 0, json_data: [] });
  });
});

describe('egress encodings (egress/config.ts settings)', () => {
  const enc = (over: Partial<OutputEncoding>): OutputEncoding => ({ ...defaultEncoding('json'), ...over });

  it('chunkRecords sizes the chunks; a CSV delimiter separates and quotes the fields', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ row: { S: `a;${i}` }, weight: 1 }));
    expect(encodeChunks(rows, enc({ chunkRecords: 2 }), [col('S', 'VARCHAR')]).map((c) => c.records)).toEqual([2, 2, 1]);
    const [chunk] = encodeChunks([{ row: { C1: 20, C2: null, C3: 'a;b,c' }, weight: -1 }], enc({ format: 'csv', delimiter: ';' }), T1.columns);
    expect(JSON.parse(frame(0, chunk)).text_data).toBe('20;;"a;b,c";-1\n');
  });

  it("snowflake: the row's fields then __action, __stream_id, __seq_number; a record per unit of weight, numbered on", () => {
    const counter = { next: 5 };
    const rows = [
      { row: { S: 'x' }, weight: 2 },
      { row: { S: 'y' }, weight: -1 },
    ];
    const chunks = encodeChunks(rows, enc({ updateFormat: 'snowflake', flavor: 'snowflake', chunkRecords: 1, streamId: '9223372036854775807' }), [col('S', 'VARCHAR')], counter);
    expect(chunks.map((c) => c.data)).toEqual([
      '"json_data":[{"S":"x","__action":"insert","__stream_id":9223372036854775807,"__seq_number":5}]',
      '"json_data":[{"S":"x","__action":"insert","__stream_id":9223372036854775807,"__seq_number":6}]',
      '"json_data":[{"S":"y","__action":"delete","__stream_id":9223372036854775807,"__seq_number":7}]',
    ]);
    expect(counter.next).toBe(8);
    // a row without columns
    expect(encodeChunks([{ row: {}, weight: 1 }], enc({ updateFormat: 'snowflake', streamId: '1' }), [], { next: 0 })[0]!.data).toBe(
      '"json_data":[{"__action":"insert","__stream_id":1,"__seq_number":0}]',
    );
  });

  it("snowflake flavor: TIMESTAMP and TIME with chrono's %.f fraction, VARIANT as its JSON text; the rest as they are", () => {
    const cols = [col('TS', 'TIMESTAMP'), col('T', 'TIME'), col('V', 'VARIANT'), col('D', 'DATE'), col('N', 'DECIMAL(5, 2)')];
    const row = { TS: '2024-01-02 03:04:05.5', T: '03:04:05.1234', V: { a: [1, 'b'] }, D: '2024-01-02', N: '1.50' };
    expect(flavoredRow(row, cols, 'snowflake')).toEqual({ TS: '2024-01-02T03:04:05.500+00:00', T: '03:04:05.123400', V: '{"a":[1,"b"]}', D: '2024-01-02', N: '1.50' });
    expect(flavoredRow({ TS: '2024-01-02 03:04:05', T: '03:04:05', V: null, D: null, N: null }, cols, 'snowflake')).toEqual({
      TS: '2024-01-02T03:04:05+00:00',
      T: '03:04:05',
      V: null,
      D: null,
      N: null,
    });
    expect(row.TS).toBe('2024-01-02 03:04:05.5');
    expect(flavoredRow(row, cols, 'default')).toBe(row);
  });
});

describe('snapshot queries', () => {
  const rows = [
    { row: { C1: 20, C2: null, C3: 'foo' }, weight: 1 },
    { row: { C1: 10, C2: true, C3: null }, weight: 1 },
  ];
  it('sorts by columns in order, NULL first', () => {
    expect(sortedContents(rows, T1.columns).map((r) => r.row.C1)).toEqual([10, 20]);
  });

  it('W3b neighborhood: anchor equal to a row is index 0', () => {
    const spec = parseNeighborhood({ before: 10, after: 10, anchor: { c1: 10, c2: true, c3: null } }, T1.columns, W3B.valueCodec('T1')!);
    if (typeof spec === 'string') throw new Error(spec);
    expect(neighborhood(sortedContents(rows, T1.columns), spec, T1.columns)).toEqual([
      { index: 0, key: { C1: 10, C2: true, C3: null } },
      { index: 1, key: { C1: 20, C2: null, C3: 'foo' } },
    ]);
  });

  it('W4a neighborhood: rows before the anchor get negative indexes', () => {
    const pkRows = [
      { row: { ID: 2, S: '2' }, weight: 1 },
      { row: { ID: 1, S: '1' }, weight: 1 },
    ];
    const spec = parseNeighborhood({ before: 10, after: 10, anchor: { id: 2, s: '1' } }, PK.columns, pkCodec);
    if (typeof spec === 'string') throw new Error(spec);
    expect(neighborhood(sortedContents(pkRows, PK.columns), spec, PK.columns)).toEqual([
      { index: -1, key: { ID: 1, S: '1' } },
      { index: 0, key: { ID: 2, S: '2' } },
    ]);
    expect(parseNeighborhood({ before: -1 }, PK.columns, pkCodec)).toMatch(/before/);
  });

  it('neighborhood: an anchor value of the wrong type is an error naming the field, not a silent position', () => {
    expect(parseNeighborhood({ before: 1, after: 1, anchor: { id: 'x' } }, PK.columns, pkCodec)).toBe(`'anchor' field 'ID': invalid type: string "x", expected i64`);
    expect(parseNeighborhood({ before: 1, after: 1, anchor: [2, 3] }, PK.columns, pkCodec)).toMatch(/^'anchor' field 'S': invalid type: integer `3`, expected a string/);
    expect(parseNeighborhood({ before: 1, after: 1, anchor: [1, 'a', 'b'] }, PK.columns, pkCodec)).toMatch(/3 values for 2 columns/);
    expect(parseNeighborhood({ before: 1, after: 1, anchor: { id: 2 } }, PK.columns, pkCodec)).toEqual({ before: 1, after: 1, anchor: { ID: 2, S: null } });
  });

  it('quantiles: the whole relation when small, N samples in key order otherwise', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ row: { ID: 999 - i, S: 'x' }, weight: 1 }));
    const sorted = sortedContents(many, PK.columns);
    expect(quantiles(sorted, 2000)).toHaveLength(1000);
    const q = quantiles(sorted, 10);
    expect(q.map((r) => r.row.ID)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });
});
