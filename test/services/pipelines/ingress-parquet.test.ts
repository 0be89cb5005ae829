/**
 * Parquet ingress (`POST .../ingress/{table}?format=parquet`, a whole Parquet file as the body, as Feldera's
 * ParquetInputFormat): every column type read back as the same rows the JSON form gives (files written by the
 * server's own ad-hoc `format=parquet` answer, Feldera's Arrow types, and by parquet-wasm from apache-arrow
 * tables in other units and types), columns matched by name (unknown ones ignored, missing ones DEFAULT or NULL),
 * 64-bit integers exact, upserts on a primary key, and the refusals: not a Parquet file, a NOT NULL column
 * without a value, a value its column refuses (nothing of the request applied).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { bag, createCompiled, ingest, snapshot, startRunning, startSvc, type Res, type Svc } from './helpers.js';

const pq = createRequire(import.meta.url)('parquet-wasm') as typeof import('parquet-wasm');

const TYPES = `i INT NOT NULL, bo BOOLEAN, ti TINYINT, bi BIGINT, r REAL, d DOUBLE, dec DECIMAL(10, 2), vc VARCHAR, bin VARBINARY,
  dt DATE, tm TIME, ts TIMESTAMP, arr INT ARRAY, m MAP<VARCHAR, INT>, rw ROW(a INT, b VARCHAR), v VARIANT`;

const SQL = `CREATE TABLE src (${TYPES}) WITH ('materialized' = 'true');
CREATE TABLE dst (${TYPES}) WITH ('materialized' = 'true');
CREATE TABLE units (id BIGINT NOT NULL, s VARCHAR, ts TIMESTAMP, dflt INT DEFAULT 42, opt VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE keyed (id INT NOT NULL PRIMARY KEY, v VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE strict (id INT NOT NULL, name VARCHAR NOT NULL) WITH ('materialized' = 'true');`;

const ROWS = [
  '{"insert":{"i":1,"bo":true,"ti":-5,"bi":9007199254740993,"r":1.5,"d":-0.25,"dec":"12.30","vc":"a","bin":[0,255],"dt":"2024-02-29","tm":"01:02:03.5","ts":"2024-01-02 03:04:05.678","arr":[1,null],"m":{"k":1},"rw":{"a":1,"b":"x"},"v":{"z":[1]}}}',
  '{"insert":{"i":2}}',
  '{"insert":{"i":3,"bo":false,"ti":7,"bi":-1,"r":0,"d":1e300,"dec":"-0.01","vc":"ü €","bin":[],"dt":"1970-01-01","tm":"00:00:00","ts":"1999-12-31 23:59:59.000123","arr":[],"m":{},"rw":{"a":null,"b":null},"v":"text"}}',
].join('\n');

let svc: Svc;

/** POSTs a binary body as a client sends a file. */
async function ingestBytes(name: string, table: string, body: Uint8Array, query = 'format=parquet'): Promise<Res> {
  const res = await fetch(`${svc.base}/v0/pipelines/${name}/ingress/${table}?${query}`, {
    method: 'POST',
    headers: { ...svc.headers, 'content-type': 'application/octet-stream' },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith('{') ? JSON.parse(text) : undefined, headers: res.headers };
}

/** A Parquet file (Snappy, as pyarrow and Feldera write) of an apache-arrow table. */
function parquetOf(table: A.Table): Uint8Array {
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build();
  return pq.writeParquet(pq.Table.fromIPCStream(A.tableToIPC(table, 'stream')), props);
}

/** A column of 64-bit values as they are stored (apache-arrow's builders take timestamps in milliseconds). */
const int64Column = <T extends A.Int64 | A.TimestampSecond | A.TimestampMillisecond | A.TimestampMicrosecond | A.TimestampNanosecond>(type: T, values: bigint[]) =>
  A.makeVector(A.makeData({ type, length: values.length, data: BigInt64Array.from(values) } as never)) as unknown as A.Vector<T>;

const rowsOf = async (table: string): Promise<Record<string, unknown>[]> => bag(((await snapshot(svc, 'pq', table)).json_data as { insert: Record<string, unknown> }[]).map((c) => c.insert));

beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'pq', SQL);
  await startRunning(svc, 'pq');
});
afterAll(async () => {
  await svc?.close();
});

describe('format=parquet ingress', () => {
  it("reads the server's own Parquet answer back into a table of the same types: the same rows as the JSON it came from", async () => {
    const r = await ingest(svc, 'pq', 'src', 'format=json', ROWS);
    expect(r.status, r.text).toBe(200);
    const q = await fetch(`${svc.base}/v0/pipelines/pq/query?sql=${encodeURIComponent('SELECT * FROM src')}&format=parquet`, { headers: svc.headers });
    expect(q.status).toBe(200);
    const file = new Uint8Array(await q.arrayBuffer());
    const w = await ingestBytes('pq', 'dst', file);
    expect(w.status, w.text).toBe(200);
    expect(await rowsOf('dst')).toEqual(await rowsOf('src'));
    expect((await rowsOf('dst')).length).toBe(3);
  });

  it('matches columns by name in any case and order, ignores unknown ones, fills missing ones with DEFAULT or NULL; 64-bit integers exact; timestamps in any unit', async () => {
    const ids = [1n, 2n ** 62n + 1n, -(2n ** 63n)];
    const table = new A.Table({
      extra: A.vectorFromArray([1, 2, 3], new A.Int32()),
      S: A.vectorFromArray(['plain', 'ünïcödé 😀', null], new A.Utf8()),
      ID: A.vectorFromArray(ids, new A.Int64()),
      ts: int64Column(new A.TimestampMicrosecond(), [1_700_000_000_123_456n, 0n, -1n]),
    });
    const r = await ingestBytes('pq', 'units', parquetOf(table));
    expect(r.status, r.text).toBe(200);
    expect(await rowsOf('units')).toEqual(
      bag([
        { ID: 1, S: 'plain', TS: '2023-11-14 22:13:20.123456', DFLT: 42, OPT: null },
        { ID: Number(2n ** 62n + 1n), S: 'ünïcödé 😀', TS: '1970-01-01 00:00:00', DFLT: 42, OPT: null },
        { ID: Number(-(2n ** 63n)), S: null, TS: '1969-12-31 23:59:59.999999', DFLT: 42, OPT: null },
      ]),
    );
    // the exact digits, not a double's: the JSON answer writes the BIGINT as it is
    const text = await fetch(`${svc.base}/v0/pipelines/pq/query?sql=${encodeURIComponent('SELECT id FROM units ORDER BY id')}&format=json`, { headers: svc.headers }).then((x) => x.text());
    expect(text).toContain('4611686018427387905');
    expect(text).toContain('-9223372036854775808');
  });

  it('reads TIMESTAMP from seconds, milliseconds and nanoseconds alike', async () => {
    const at = Date.UTC(2020, 4, 6, 7, 8, 9, 250);
    const files = [
      new A.Table({ id: A.vectorFromArray([10n], new A.Int64()), ts: int64Column(new A.TimestampSecond(), [BigInt(Math.floor(at / 1000))]) }),
      new A.Table({ id: A.vectorFromArray([11n], new A.Int64()), ts: int64Column(new A.TimestampMillisecond(), [BigInt(at)]) }),
      new A.Table({ id: A.vectorFromArray([12n], new A.Int64()), ts: int64Column(new A.TimestampNanosecond(), [BigInt(at) * 1_000_000n + 7_000n]) }),
    ];
    for (const t of files) expect((await ingestBytes('pq', 'units', parquetOf(t))).status).toBe(200);
    const got = (await rowsOf('units')).filter((row) => Number(row.ID) >= 10 && Number(row.ID) <= 12);
    expect(got.map((row) => row.TS).sort()).toEqual(['2020-05-06 07:08:09', '2020-05-06 07:08:09.25', '2020-05-06 07:08:09.250007']);
  });

  it('upserts on a table with a primary key, as JSON inserts do', async () => {
    const file = (vs: string[]) =>
      parquetOf(
        new A.Table({
          id: A.vectorFromArray(
            vs.map((_, i) => i + 1),
            new A.Int32(),
          ),
          v: A.vectorFromArray(vs, new A.Utf8()),
        }),
      );
    expect((await ingestBytes('pq', 'keyed', file(['a', 'b']))).status).toBe(200);
    expect((await ingestBytes('pq', 'keyed', file(['c']))).status).toBe(200);
    expect(await rowsOf('keyed')).toEqual(
      bag([
        { ID: 1, V: 'c' },
        { ID: 2, V: 'b' },
      ]),
    );
  });

  it('an empty body is an empty file: nothing is applied, no error', async () => {
    const r = await ingestBytes('pq', 'keyed', new Uint8Array(0));
    expect(r.status, r.text).toBe(200);
  });

  it('refuses a body that is not a Parquet file, with what to do about it; nothing applied', async () => {
    for (const body of [Buffer.from('{"id": 1}'), Buffer.from('PAR1 not really PAR1'), parquetOf(new A.Table({ id: A.vectorFromArray([1], new A.Int32()) })).subarray(0, 40)]) {
      const r = await ingestBytes('pq', 'strict', body);
      expect(r.status, r.text).toBe(400);
      expect(r.json.error_code).toBe('ParseErrors');
      const e = r.json.details.errors[0];
      expect(e.description).toMatch(/^Unable to read parquet file: /);
      expect(e.suggestion).toBe('Make sure the provided file is a valid parquet file.');
    }
    expect(await rowsOf('strict')).toEqual([]);
  });

  it('a NOT NULL column the file lacks, or a null in it, makes its records bad events, each named; nothing of the request is applied', async () => {
    const noName = parquetOf(new A.Table({ id: A.vectorFromArray([1, 2], new A.Int32()) }));
    const r1 = await ingestBytes('pq', 'strict', noName);
    expect(r1.status, r1.text).toBe(400);
    expect(r1.json.details.errors.map((e: { event_number: number; field: string }) => [e.event_number, e.field])).toEqual([
      [1, 'NAME'],
      [2, 'NAME'],
    ]);
    expect(r1.json.details.errors[0].description).toMatch(/^Error parsing record from parquet file: missing field `NAME`/);
    const nullName = parquetOf(new A.Table({ id: A.vectorFromArray([1, 2], new A.Int32()), name: A.vectorFromArray(['x', null], new A.Utf8()) }));
    const r2 = await ingestBytes('pq', 'strict', nullName);
    expect(r2.status, r2.text).toBe(400);
    expect(r2.json.details.errors.map((e: { event_number: number }) => e.event_number)).toEqual([2]);
    expect(await rowsOf('strict')).toEqual([]);
  });

  it('a value its column refuses (text into INT, an integer beyond TINYINT) is a bad event naming the field', async () => {
    const r = await ingestBytes('pq', 'strict', parquetOf(new A.Table({ id: A.vectorFromArray(['7'], new A.Utf8()), name: A.vectorFromArray(['x'], new A.Utf8()) })));
    expect(r.status, r.text).toBe(400);
    expect(r.json.details.errors[0].field).toBe('ID');
    const t = await ingestBytes('pq', 'src', parquetOf(new A.Table({ i: A.vectorFromArray([1], new A.Int32()), ti: A.vectorFromArray([300], new A.Int32()) })));
    expect(t.status, t.text).toBe(400);
    expect(t.json.details.errors[0].field).toBe('TI');
  });

  it('format=parquet is listed among the input formats; an unknown one is refused naming them', async () => {
    const r = await ingestBytes('pq', 'keyed', new Uint8Array(0), 'format=orc');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("'parquet'");
  });
});
