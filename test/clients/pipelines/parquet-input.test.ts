/**
 * The client's view of a Parquet input (clients/pipelines/parquet-input.ts): the PAR1 magic, the row count of a
 * file's footer (from bytes or from a path, read from its end), undefined for what is not Parquet, and stdin read
 * whole within its bound.
 */
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { InputError } from '../../../src/clients/pipelines/ingest-input.js';
import { parquetRowCount, readAllBytes, startsAsParquet } from '../../../src/clients/pipelines/parquet-input.js';
import { tempDir } from '../../helpers/cli.js';

const pq = createRequire(import.meta.url)('parquet-wasm') as typeof import('parquet-wasm');
const fileOf = (n: number) =>
  pq.writeParquet(
    pq.Table.fromIPCStream(
      A.tableToIPC(
        new A.Table({
          x: A.vectorFromArray(
            Array.from({ length: n }, (_, i) => i),
            new A.Int32(),
          ),
        }),
        'stream',
      ),
    ),
  );

describe('a Parquet input', () => {
  it('is told by its first four bytes', () => {
    expect(startsAsParquet(fileOf(1))).toBe(true);
    expect(startsAsParquet('PAR1\u0015\u0004')).toBe(true);
    expect(startsAsParquet('PAR')).toBe(false);
    expect(startsAsParquet(Buffer.from(' PAR1'))).toBe(false);
    expect(startsAsParquet('{"PAR1":1}')).toBe(false);
  });

  it("counts the rows its footer announces, from bytes or a file's end; undefined when there is no footer to read", async () => {
    const bytes = fileOf(1234);
    expect(await parquetRowCount(bytes)).toBe(1234);
    const file = join(tempDir('ops-parquet-input-'), 'rows.parquet');
    writeFileSync(file, bytes);
    expect(await parquetRowCount(file)).toBe(1234);
    expect(await parquetRowCount(fileOf(0))).toBe(0);
    expect(await parquetRowCount(Buffer.from('PAR1 not a parquet file PAR1'))).toBeUndefined();
    expect(await parquetRowCount(bytes.subarray(0, 40))).toBeUndefined();
    expect(await parquetRowCount(new Uint8Array(0))).toBeUndefined();
  });

  it('reads a stream whole as bytes, and refuses one longer than the bound', async () => {
    const chunks = [Buffer.from([1, 2]), Buffer.from([3]), Buffer.from([4, 5, 6])];
    expect([...(await readAllBytes(Readable.from(chunks), 6))]).toEqual([1, 2, 3, 4, 5, 6]);
    await expect(readAllBytes(Readable.from(chunks), 5)).rejects.toThrow(InputError);
    await expect(readAllBytes(Readable.from([Buffer.alloc(3 * 1024 * 1024)]), 2 * 1024 * 1024)).rejects.toThrow('more than 2.0 MiB of Parquet: too much to hold from a pipe');
  });
});
