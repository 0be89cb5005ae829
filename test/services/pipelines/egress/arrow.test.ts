/**
 * Ad-hoc query results as Arrow IPC and Parquet (egress/arrow.ts, egress/parquet.ts): every SQL type the engine
 * has, NULLs included, read back with apache-arrow (IPC) and hyparquet (an independent Parquet reader); the Arrow
 * schema as Feldera maps SQL types; batches of BATCH_ROWS rows; weights as repeated rows.
 */
import { describe, expect, it } from 'vitest';
import { tableFromIPC, Type } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { WeightedRow } from '../../../../src/engine/index.js';
import { arrowBatches, arrowIpcStream, BATCH_ROWS, decimalWords } from '../../../../src/services/pipelines/worker/egress/arrow.js';
import { parquetFile } from '../../../../src/services/pipelines/worker/egress/parquet.js';
import { col, EVERY_TYPE, FULL_ROW, NULL_ROW } from './every-type.js';

const rows = (...r: Record<string, unknown>[]): WeightedRow[] => r.map((row) => ({ row: row as WeightedRow['row'], weight: 1 }));

describe('arrow_ipc', () => {
  it("types every column as Feldera's Arrow schema does, nullability included", () => {
    const t = tableFromIPC(arrowIpcStream([], EVERY_TYPE));
    const f = Object.fromEntries(t.schema.fields.map((x) => [x.name, x]));
    expect(t.numRows).toBe(0);
    expect(f.i!.nullable).toBe(false);
    expect(f.bo!.nullable).toBe(true);
    const types = Object.fromEntries(t.schema.fields.map((x) => [x.name, String(x.type)]));
    expect(types).toMatchObject({
      bo: 'Bool',
      ti: 'Int8',
      si: 'Int16',
      i: 'Int32',
      bi: 'Int64',
      uti: 'Uint8',
      usi: 'Uint16',
      ui: 'Uint32',
      ubi: 'Uint64',
      r: 'Float32',
      d: 'Float64',
      vc: 'Utf8',
      ch: 'Utf8',
      bin: 'LargeBinary',
      dt: 'Date32<DAY>',
      tm: 'Time64<NANOSECOND>',
      ts: 'Timestamp<MICROSECOND>',
      v: 'Utf8',
      uu: 'Utf8',
      n: 'Null',
    });
    expect(f.dec!.type).toMatchObject({ typeId: Type.Decimal, precision: 10, scale: 2, bitWidth: 128 });
    expect(f.big!.type).toMatchObject({ precision: 38, scale: 10 });
    expect(f.ts!.type.timezone ?? null).toBeNull();
    expect(f.arr!.type.typeId).toBe(Type.LargeList);
    expect(f.arr!.type.children[0]).toMatchObject({ name: 'item', nullable: true });
    expect(f.m!.type.typeId).toBe(Type.Map);
    expect(f.m!.type.keysSorted).toBe(false);
    expect(f.m!.type.children[0].name).toBe('entries');
    expect(f.m!.type.children[0].type.children.map((c: { name: string; nullable: boolean }) => [c.name, c.nullable])).toEqual([
      ['key', false],
      ['value', true],
    ]);
    expect(f.row!.type.typeId).toBe(Type.Struct);
    expect(f.row!.type.children.map((c: { name: string; nullable: boolean }) => [c.name, c.nullable])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('reads back every value of every type, and NULLs', () => {
    const t = tableFromIPC(arrowIpcStream(rows(FULL_ROW, NULL_ROW), EVERY_TYPE));
    expect(t.numRows).toBe(2);
    const [full, nulls] = t.toArray().map((r) => r.toJSON());
    expect(full.bo).toBe(true);
    expect([full.ti, full.si, full.i]).toEqual([-128, 32767, -7]);
    expect(full.bi).toBe(9007199254740993n);
    expect([full.r, full.d]).toEqual([1.5, -2.25]);
    // a decimal's unscaled 128-bit integer, as four little-endian words
    expect([...(t.getChild('dec')!.get(0) as Uint32Array)]).toEqual([...decimalWords('-12345678.90', 2)]);
    expect(BigInt.asIntN(128, words(t.getChild('dec')!.get(0)))).toBe(-1234567890n);
    expect(words(t.getChild('big')!.get(0))).toBe(12345678901234567890123456780123456789n);
    expect([full.vc, full.ch]).toEqual(['héllo', 'ab ']);
    expect([...full.bin]).toEqual([0, 1, 255]);
    expect(full.dt).toBe(Date.UTC(2024, 1, 29));
    expect(full.tm).toBe(((13n * 60n + 14n) * 60n + 15n) * 1_000_000_000n + 123456789n);
    expect(t.getChild('ts')!.data[0]!.values[0]).toBe(BigInt(Date.UTC(2024, 0, 2, 3, 4, 5, 678)) * 1000n);
    expect([...full.arr]).toEqual([1, null, 3]);
    expect(full.m.toJSON()).toEqual({ a: 1, b: null });
    expect([...full.mi].map(([k, v]: [number, string]) => [k, v])).toEqual([
      [-1, 'x'],
      [2, 'y'],
    ]);
    expect(full.row.toJSON()).toEqual({ a: null, b: 'z' });
    expect(JSON.parse(full.v)).toEqual({ k: [1, 'two'] });
    expect(full.uu).toBe('123e4567-e89b-12d3-a456-426655440000');
    expect(full.n).toBeNull();
    for (const c of EVERY_TYPE) if (c.nullable) expect(nulls[c.name], c.name).toBeNull();
  });

  it('writes a row of weight n n times, in batches of BATCH_ROWS rows', () => {
    const cols = [col('x', 'INTEGER')];
    const batches = [
      ...arrowBatches(
        [
          { row: { x: 1 }, weight: BATCH_ROWS + 5 },
          { row: { x: 2 }, weight: 1 },
        ],
        cols,
      ),
    ];
    expect(batches.map((b) => b.numRows)).toEqual([BATCH_ROWS, 6]);
    const t = tableFromIPC(arrowIpcStream([{ row: { x: 1 }, weight: 3 }], cols));
    expect(t.toArray().map((r) => r.x)).toEqual([1, 1, 1]);
  });

  it('a TIMESTAMP keeps its microseconds, exactly, on every one of many values', () => {
    const texts = ['2020-06-21 14:23:44.123654', '1969-12-31 23:59:59.999999', '2024-01-02 03:04:05.000001'];
    for (let i = 0; i < 2000; i++)
      texts.push(
        `2020-01-01 00:00:0${i % 10}.${String(i * 499)
          .padStart(6, '0')
          .slice(-6)}`,
      );
    const t = tableFromIPC(arrowIpcStream(rows(...texts.map((ts) => ({ ts }))), [col('ts', 'TIMESTAMP')]));
    const micros = (text: string): bigint => BigInt(Date.parse(text.slice(0, 19).replace(' ', 'T') + 'Z')) * 1000n + BigInt(text.slice(20).padEnd(6, '0'));
    const got = Array.from({ length: texts.length }, (_x, i) => t.getChild('ts')!.data[0]!.values[i] as bigint);
    expect(got).toEqual(texts.map(micros));
  });

  it("a TIMESTAMP WITH TIME ZONE is Timestamp(us, 'UTC'), as Feldera's schema", () => {
    const t = tableFromIPC(arrowIpcStream(rows({ tz: '2020-06-21 14:23:44.123654+00:00' }), [col('tz', 'TIMESTAMP WITH TIME ZONE')]));
    const field = t.schema.fields[0]!;
    expect(field.type.typeId).toBe(Type.Timestamp);
    expect((field.type as { timezone?: string }).timezone).toBe('UTC');
    expect(t.getChild('tz')!.data[0]!.values[0]).toBe(1592749424123654n);
  });

  it('years before 100 and after 9999 do not shift', () => {
    const t = tableFromIPC(arrowIpcStream(rows({ dt: '0050-01-01', ts: '0001-01-01 00:00:00' }), [col('dt', 'DATE'), col('ts', 'TIMESTAMP')]));
    const d = new Date(t.getChild('dt')!.get(0) as number);
    expect(d.getUTCFullYear()).toBe(50);
    expect(new Date(Number(t.getChild('ts')!.data[0]!.values[0] / 1000n)).getUTCFullYear()).toBe(1);
  });
});

function words(w: Uint32Array): bigint {
  return BigInt(w[0]!) | (BigInt(w[1]!) << 32n) | (BigInt(w[2]!) << 64n) | (BigInt(w[3]!) << 96n);
}

describe('parquet', () => {
  it('is one Snappy-compressed Parquet file that an independent reader reads back, every type and NULLs', async () => {
    const file = parquetFile(arrowIpcStream(rows(FULL_ROW, NULL_ROW), EVERY_TYPE));
    const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    const meta = parquetMetadata(ab);
    expect(Number(meta.num_rows)).toBe(2);
    expect(meta.row_groups[0]!.columns[0]!.meta_data!.codec).toBe('SNAPPY');
    // the Arrow schema rides along, as arrow-rs's writer stores it
    expect(meta.key_value_metadata?.map((kv) => kv.key)).toContain('ARROW:schema');
    const [full, nulls] = (await parquetReadObjects({ file: ab, utf8: false })) as Record<string, unknown>[];
    expect(full).toMatchObject({
      bo: true,
      ti: -128,
      si: 32767,
      i: -7,
      bi: 9007199254740993n,
      r: 1.5,
      d: -2.25,
      vc: 'héllo',
      ch: 'ab ',
      arr: [1, null, 3],
      m: { a: 1, b: null },
      row: { a: null, b: 'z' },
      n: null,
    });
    expect(full!.dec).toBe(-12345678.9);
    expect(full!.dt).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(full!.ts).toEqual(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)));
    expect(full!.tm).toBe(((13n * 60n + 14n) * 60n + 15n) * 1_000_000_000n + 123456789n);
    expect([...(full!.bin as Uint8Array)]).toEqual([0, 1, 255]);
    expect(JSON.parse(full!.v as string)).toEqual({ k: [1, 'two'] });
    for (const c of EVERY_TYPE) if (c.nullable) expect(nulls![c.name] ?? null, c.name).toBeNull();
  });

  it('an empty result is a file with the columns and no rows', async () => {
    const file = parquetFile(arrowIpcStream([], EVERY_TYPE));
    const ab = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    expect(Number(parquetMetadata(ab).num_rows)).toBe(0);
    expect(await parquetReadObjects({ file: ab })).toEqual([]);
  });
});
