/**
 * Parquet ingress from the attacker's side: a few kilobytes of Parquet that decode to gigabytes (one long
 * string in a dictionary, on every row) are refused at the decoded-size limit, with nothing kept; the module is
 * loaded anew after it is let go, and reads the next file.
 */
import { createRequire } from 'node:module';
import * as A from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ParquetParser } from '../../../../src/services/pipelines/worker/ingress/parquet.js';
import { releaseParquetWasm } from '../../../../src/services/pipelines/worker/arrow-libs.js';
import { tableBinding } from './schema.js';

const pq = createRequire(import.meta.url)('parquet-wasm') as typeof import('parquet-wasm');

function parquetOf(table: A.Table): Uint8Array {
  return pq.writeParquet(pq.Table.fromIPCStream(A.tableToIPC(table, 'stream')), new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build());
}

describe('Parquet ingress bounds', () => {
  it('a small file that decodes past the limit is one error naming the limit; no row of it is kept', () => {
    const long = 'x'.repeat(4000);
    const rows = 20_000; // 80 MB decoded
    const file = parquetOf(
      new A.Table({
        s: A.vectorFromArray(
          Array.from({ length: rows }, () => long),
          new A.Dictionary(new A.Utf8(), new A.Int32()),
        ),
      }),
    );
    expect(file.byteLength).toBeLessThan(64 * 1024);
    const parser = new ParquetParser(tableBinding('create table t(s varchar)'), 8 * 1024 * 1024);
    parser.push(file);
    const parsed = parser.end();
    expect(parsed.errorCount).toBe(1);
    expect(parsed.errors[0]!.description).toBe('the file decodes to more than 8388608 bytes of data, the limit of one request');
    expect(parsed.errors[0]!.suggestion).toBe('Send the rows in several requests.');
    // stopped near the limit, not at the end of the file
    expect(parsed.records).toBeLessThan(rows / 2);
  });

  it('after the module is let go, the next file loads it anew and reads', () => {
    releaseParquetWasm();
    const parser = new ParquetParser(tableBinding('create table t(x int, s varchar)'));
    parser.push(parquetOf(new A.Table({ x: A.vectorFromArray([1, 2], new A.Int32()), s: A.vectorFromArray(['a', 'b'], new A.Utf8()) })));
    const parsed = parser.end();
    expect(parsed.errors).toEqual([]);
    expect(parsed.changes.map((c) => ('row' in c ? c.row : null))).toEqual([
      { X: 1, S: 'a' },
      { X: 2, S: 'b' },
    ]);
  });
});
