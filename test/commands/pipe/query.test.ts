/**
 * `ops pipe query --format arrow|parquet|hash [-o FILE]` in-process against an in-process ops serve: the Arrow
 * stream and the Parquet file written to a file read back, the hash printed as the server computes it, and the
 * refusals (binary to a terminal, -o without a binary format).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { parquetReadObjects } from 'hyparquet';
import { Context } from '../../../src/context.js';
import { runPipeQuery } from '../../../src/commands/pipe/query.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from '../../services/pipelines/helpers.js';

const SQL = "CREATE TABLE t (x INT NOT NULL, s VARCHAR) WITH ('materialized' = 'true');";

describe('ops pipe query --format arrow|parquet|hash', () => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-query-'));
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'q', SQL);
    await startRunning(svc, 'q');
    expect((await ingest(svc, 'q', 't', 'format=json', '{"insert": {"x": 1, "s": "a"}}\n{"insert": {"x": 2, "s": null}}')).status).toBe(200);
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('--format arrow -o FILE writes the Arrow IPC stream', async () => {
    const file = join(dir, 'r.arrow');
    const r = await opsIn(['pipe', 'query', 'q', 'SELECT * FROM t', '--format', 'arrow', '-o', file], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const t = tableFromIPC(readFileSync(file));
    expect(t.toArray().map((row) => row.toJSON())).toEqual([
      { X: 1, S: 'a' },
      { X: 2, S: null },
    ]);
  });

  it('--format parquet -o FILE writes the Parquet file', async () => {
    const file = join(dir, 'r.parquet');
    const r = await opsIn(['pipe', 'query', 'q', 'SELECT x FROM t WHERE x > 1', '--format', 'parquet', '-o', file], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const bytes = readFileSync(file);
    expect(await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer })).toEqual([{ X: 2 }]);
  });

  it("--format hash prints the server's hash, the same whatever the order", async () => {
    const a = await opsIn(['pipe', 'query', 'q', 'SELECT * FROM t', '--format', 'hash'], { env });
    const b = await opsIn(['pipe', 'query', 'q', 'SELECT * FROM t ORDER BY x DESC', '--format', 'hash'], { env });
    expect(a.exitCode, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/^[0-9A-F]{64}$/);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stdout).toBe((await svc.call('GET', `/v0/pipelines/q/query?sql=${encodeURIComponent('SELECT * FROM t')}&format=hash`)).text);
  });

  it('refuses binary output to a terminal, -o without a binary format, a bad format, and a bad query with exit 1', async () => {
    const io = memoryIo({ tty: true, env });
    const ctx = new Context({}, env as NodeJS.ProcessEnv, io);
    await expect(runPipeQuery({ name: 'q', sql: 'SELECT 1', format: 'arrow' }, ctx)).rejects.toThrow(/give -o FILE or redirect stdout/);
    const noFormat = await opsIn(['pipe', 'query', 'q', 'SELECT 1', '-o', join(dir, 'x')], { env });
    expect(noFormat.exitCode).toBe(2);
    expect(noFormat.stderr).toMatch(/--format arrow\|parquet\|hash/);
    expect((await opsIn(['pipe', 'query', 'q', 'SELECT 1', '--format', 'csv'], { env })).exitCode).toBe(2);
    const bad = await opsIn(['pipe', 'query', 'q', 'SELECT nope FROM t', '--format', 'hash'], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/nope/);
  });
});
