/**
 * `ops pipe ingest` of Parquet files, in-process against a real pipeline service (through a real counting proxy,
 * to see the requests): files written here by parquet-wasm from apache-arrow tables; a `.parquet` name, --format
 * parquet or the `PAR1` magic picks the format; the file goes whole in ONE request (format=parquet,
 * application/octet-stream in both --pipeline-api modes; a file streamed, chunked; stdin read whole) and --wait
 * waits on its completion token; the server's refusals (not a Parquet file, a bad value) are rendered with a
 * non-zero exit; --batch-size and --skip are refused as usage errors; an empty input and Ctrl-C while reading stdin.
 */
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as A from 'apache-arrow';
import { Context } from '../../../src/context.js';
import { runPipeIngest, type PipeIngestOptions } from '../../../src/commands/pipe/ingest.js';
import { ExitCode } from '../../../src/core/errors.js';
import { bag, createCompiled, snapshot, startRunning, startSvc, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { startCountingProxy, type CountingProxy } from '../../helpers/counting-proxy.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

const pq = createRequire(import.meta.url)('parquet-wasm') as typeof import('parquet-wasm');

const SQL = `CREATE TABLE orders (id BIGINT NOT NULL, item VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE strict (id INT NOT NULL, name VARCHAR NOT NULL) WITH ('materialized' = 'true');`;

/** A Parquet file (Snappy, as pyarrow writes) of id/item rows. */
function parquetOf(columns: Record<string, A.Vector>): Uint8Array {
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build();
  return pq.writeParquet(pq.Table.fromIPCStream(A.tableToIPC(new A.Table(columns), 'stream')), props);
}
const orders = (ids: number[]) =>
  parquetOf({
    id: A.vectorFromArray(
      ids.map((i) => BigInt(i)),
      new A.Int64(),
    ),
    item: A.vectorFromArray(
      ids.map((i) => `thing ${i}`),
      new A.Utf8(),
    ),
  });

let proxy: CountingProxy;
const dir = tempDir('ops-ingest-parquet-');
const write = (name: string, bytes: Uint8Array): string => {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
};

beforeAll(async () => {
  proxy = await startCountingProxy();
});
afterAll(async () => {
  await proxy.close();
});

describe.each(['current', 'v0.24'] as const)('ops pipe ingest of a Parquet file (--pipeline-api %s)', (api) => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: api });
    await createCompiled(svc, 'shop', SQL);
    await startRunning(svc, 'shop');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  async function run(opts: Omit<PipeIngestOptions, 'name'> & { stdin?: Uint8Array }, json = true) {
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-'), HTTP_PROXY: proxy.url };
    const io = memoryIo({ tty: false, env });
    if (opts.stdin) (io.stdin as PassThrough).end(Buffer.from(opts.stdin));
    proxy.reset();
    let error: (Error & { exitCode?: number; hint?: string }) | undefined;
    try {
      await runPipeIngest({ name: 'shop', ...opts }, new Context({ json }, env, io));
    } catch (err) {
      error = err as Error;
    }
    const ingress = proxy.requests.filter((r) => r.path.includes('/ingress/'));
    return { error, summary: error || !json ? undefined : JSON.parse(io.stdoutText()), stdout: io.stdoutText(), ingress };
  }
  const rows = async (table: string) => bag(((await snapshot(svc, 'shop', table)).json_data ?? []).map((c: { insert: unknown }) => c.insert));

  test('a .parquet file goes whole in one streamed request (format=parquet, octet-stream); --wait; the rows are in the table', async () => {
    const file = write(`orders-${api}.parquet`, orders([1, 2, 3]));
    const r = await run({ table: 'orders', file, wait: true });
    expect(r.error).toBeUndefined();
    expect(r.summary).toEqual({ pipeline: 'shop', table: 'orders', format: 'parquet', records: 3, batches: 1, processed: true });
    expect(r.ingress).toHaveLength(1);
    const [req] = r.ingress;
    expect(new URL(req!.path, 'http://x').searchParams.get('format')).toBe('parquet');
    expect(req!.headers['content-type']).toBe('application/octet-stream');
    // streamed from the file as it is read, not a body held whole
    expect(req!.headers['transfer-encoding']).toBe('chunked');
    expect(req!.status).toBe(200);
    // processed means visible at once
    expect(await rows('orders')).toEqual(bag([1, 2, 3].map((i) => ({ ID: i, ITEM: `thing ${i}` }))));
  });

  test('stdin: told Parquet by its PAR1 magic (or --format parquet), read whole and sent with its length', async () => {
    const sniffed = await run({ table: 'orders', file: '-', stdin: orders([4, 5]), wait: true });
    expect(sniffed.error).toBeUndefined();
    expect(sniffed.summary).toMatchObject({ format: 'parquet', records: 2, batches: 1, processed: true });
    expect(sniffed.ingress[0]!.headers['content-length']).toBe(String(orders([4, 5]).byteLength));
    const flagged = await run({ table: 'orders', file: '-', format: 'parquet', stdin: orders([6]), wait: true });
    expect(flagged.summary).toMatchObject({ format: 'parquet', records: 1 });
    // a file whose name says nothing is sniffed too
    const named = await run({ table: 'orders', file: write(`rows-${api}.bin`, orders([7])), wait: true }, false);
    expect(named.stdout).toBe('sent 1 record to shop/orders from a Parquet file in one request (processed)\n');
    expect((await rows('orders')).map((r) => (r as { ID: number }).ID).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test("a file that is not Parquet: the server's reason and its suggestion, a non-zero exit, nothing applied", async () => {
    const r = await run({ table: 'strict', file: write(`bad-${api}.parquet`, Buffer.from('PAR1 this is not really a Parquet file')), wait: true });
    expect(r.error?.message).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bad-${api}\\.parquet was refused: Unable to read parquet file: `));
    expect(r.error?.hint).toBe('Make sure the provided file is a valid parquet file.');
    expect(r.error?.exitCode).not.toBe(0);
    expect(r.error?.exitCode).toBeDefined();
    expect(r.ingress.map((q) => q.status)).toEqual([400]);
    expect(await rows('strict')).toEqual([]);
  });

  test('a value its column refuses: the bad records by number (ParseErrors), as for the other formats', async () => {
    const file = write(`strict-${api}.parquet`, parquetOf({ id: A.vectorFromArray([1, 2], new A.Int32()), name: A.vectorFromArray(['ok', null], new A.Utf8()) }));
    const r = await run({ table: 'strict', file });
    expect(r.error?.message).toBe(`${file} was refused: 1 bad record (ParseErrors):`);
    expect(r.error?.hint).toBe("  record 2: Error parsing record from parquet file: error parsing field 'NAME': invalid type: null, expected a string");
    expect(r.error?.exitCode).toBeGreaterThan(0);
    expect(await rows('strict')).toEqual([]);
  });
});

describe('ops pipe ingest of a Parquet file over the server body limit', () => {
  test("the server's 413 reaches the command as a refusal of the file (not a broken connection); nothing applied", async () => {
    const svc = await startSvc({ pipelinesIngressBodyLimit: 64 * 1024 });
    try {
      await createCompiled(svc, 'shop', SQL);
      await startRunning(svc, 'shop');
      const ids = Array.from({ length: 50_000 }, (_, i) => i);
      const file = write('big.parquet', orders(ids));
      const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
      const err = await runPipeIngest({ name: 'shop', table: 'orders', file }, new Context({ json: true }, env, memoryIo({ tty: false }))).then(
        () => undefined,
        (e: Error & { exitCode?: number }) => e,
      );
      expect(err?.message).toMatch(/big\.parquet was refused: .*65536/);
      expect(err?.exitCode).toBeGreaterThan(0);
      // stdin: its length declared, refused before the body is read
      const io = memoryIo({ tty: false });
      (io.stdin as PassThrough).end(Buffer.from(orders(ids)));
      const piped = await runPipeIngest({ name: 'shop', table: 'orders', file: '-' }, new Context({ json: true }, env, io)).then(
        () => undefined,
        (e: Error & { exitCode?: number }) => e,
      );
      expect(piped?.message).toMatch(/^stdin was refused: .*65536/);
      expect(((await snapshot(svc, 'shop', 'orders')).json_data ?? []).length).toBe(0);
    } finally {
      await svc.close();
    }
  }, 60_000);
});

describe('ops pipe ingest of Parquet: refusals, a named pipe, Ctrl-C', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'shop', SQL);
    await startRunning(svc, 'shop');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });
  const ctx = (io = memoryIo({ tty: false })) => new Context({ json: true }, { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') }, io);
  const fail = (opts: Omit<PipeIngestOptions, 'name'>, io?: ReturnType<typeof memoryIo>) =>
    runPipeIngest({ name: 'shop', ...opts }, ctx(io)).then(
      () => undefined,
      (err: Error & { exitCode?: number; hint?: string }) => err,
    );

  test('--batch-size or --skip with Parquet (by name, flag or magic): a usage error, exit 2, nothing sent', async () => {
    const file = write('refused.parquet', orders([1]));
    const byName = await fail({ table: 'orders', file, batchSize: '10' });
    expect(byName?.message).toBe('--batch-size cannot be used with Parquet: a Parquet file is sent whole, in one request');
    expect(byName?.exitCode).toBe(ExitCode.usage);
    const both = await fail({ table: 'orders', file: write('refused.bin', orders([1])), format: 'parquet', batchSize: '10', skip: '1' });
    expect(both?.message).toBe('--batch-size and --skip cannot be used with Parquet: a Parquet file is sent whole, in one request');
    const io = memoryIo({ tty: false });
    (io.stdin as PassThrough).end(Buffer.from(orders([1])));
    const sniffed = await fail({ table: 'orders', file: '-', skip: '1' }, io);
    expect(sniffed?.exitCode).toBe(ExitCode.usage);
    expect(sniffed?.message).toMatch(/^--skip cannot be used with Parquet/);
    expect(((await snapshot(svc, 'shop', 'orders')).json_data ?? []).length).toBe(0);
  });

  test('an empty input is no Parquet file: refused, nothing sent', async () => {
    const err = await fail({ table: 'orders', file: write('empty.parquet', new Uint8Array(0)) });
    expect(err?.message).toMatch(/empty\.parquet is empty: it holds no Parquet file$/);
    expect(err?.exitCode).toBe(ExitCode.failure);
  });

  test('a named pipe (not a regular file) is read whole and sent, told Parquet by its magic', async () => {
    const fifo = join(tempDir('ops-fifo-'), 'rows');
    execFileSync('mkfifo', [fifo]);
    createWriteStream(fifo).end(Buffer.from(orders([100, 101])));
    const io = memoryIo({ tty: false });
    await runPipeIngest({ name: 'shop', table: 'orders', file: fifo, wait: true }, ctx(io));
    expect(JSON.parse(io.stdoutText())).toMatchObject({ format: 'parquet', records: 2, batches: 1, processed: true });
    const ids = ((await snapshot(svc, 'shop', 'orders')).json_data ?? []).map((c: { insert: { ID: number } }) => c.insert.ID);
    expect(ids.sort()).toEqual([100, 101]);
  });

  test('Ctrl-C while the file is in flight (held by a paused pipeline): exit 130 at once, saying it may or may not be applied', async () => {
    const io = memoryIo({ tty: false });
    const stdin = io.stdin as PassThrough;
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-'), HTTP_PROXY: proxy.url };
    proxy.reset();
    const run = runPipeIngest({ name: 'shop', table: 'orders', file: '-' }, new Context({ json: true }, env, io)).then(
      () => undefined,
      (err: Error & { exitCode?: number; hint?: string }) => err,
    );
    const bytes = Buffer.from(orders([200]));
    stdin.write(bytes.subarray(0, 8));
    // the command has checked the pipeline (running) and reads the rest of stdin: now pause it, so that the
    // server holds the request (sent without --force) until it runs again
    await waitFor(() => process.listenerCount('SIGINT') > 0 || undefined, 'the command watching Ctrl-C');
    expect((await svc.call('POST', '/v0/pipelines/shop/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/shop')).json.deployment_status === 'Paused', 'Paused');
    stdin.end(bytes.subarray(8));
    await waitFor(() => proxy.requests.some((r) => r.path.includes('/ingress/')) || undefined, 'the file in flight');
    process.emit('SIGINT');
    const err = await run;
    expect(err?.exitCode).toBe(ExitCode.interrupted);
    expect(err?.message).toBe('interrupted: stdin was in flight and may or may not have been applied');
    expect(process.listenerCount('SIGINT')).toBe(0);
    await startRunning(svc, 'shop');
  });

  test('Ctrl-C while stdin is read: exit 130, nothing sent', async () => {
    const io = memoryIo({ tty: false });
    const stdin = io.stdin as PassThrough;
    const run = fail({ table: 'orders', file: '-', format: 'parquet' }, io);
    stdin.write(Buffer.from(orders([1])).subarray(0, 10));
    await waitFor(() => process.listenerCount('SIGINT') > 0 || undefined, 'the command watching Ctrl-C');
    process.emit('SIGINT');
    const err = await run;
    expect(err?.exitCode).toBe(ExitCode.interrupted);
    expect(err?.message).toBe('interrupted while reading stdin: nothing was sent');
    expect(process.listenerCount('SIGINT')).toBe(0);
    stdin.end();
  });
});
