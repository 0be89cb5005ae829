/**
 * Durable pipelines (docs/pipelines.md, "Durable pipelines"), in-process servers on one data dir:
 * - a graceful stop of the server and a new server on the same data dir: every pipeline that was Running
 *   (or Paused) is so again by itself, with its tables and views as they were;
 * - today's `/stop` (force=false) checkpoints and `/start` resumes; `/stop?force=true`, v0.24's `/shutdown`
 *   and `/clear` discard; `/checkpoint` answers a sequence number that `checkpoint_status` then reports;
 * - kill -9 of a pipeline's process: it starts again from its checkpoint and input log, nothing
 *   acknowledged lost, nothing applied twice; committed transactions survive, uncommitted ones do not;
 * - a damaged newest checkpoint is passed over for the one before it (and the log replays the rest); a
 *   program changed since the checkpoint starts empty, saying why.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as A from 'apache-arrow';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createCompiled, ingest, snapshot, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const pq = createRequire(import.meta.url)('parquet-wasm') as typeof import('parquet-wasm');

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, k INT, v BIGINT) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW by_k AS SELECT k, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY k;
CREATE MATERIALIZED VIEW total AS SELECT COUNT(*) AS n, SUM(v) AS s FROM t;
CREATE MATERIALIZED VIEW dup AS SELECT id, COUNT(*) AS c FROM t GROUP BY id HAVING COUNT(*) > 1;`;

const open: Svc[] = [];
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts) {
    try {
      execFileSync('umount', ['-l', m]);
    } catch {
      // already gone
    }
  }
});

/** A small tmpfs at `dir` (root only; null where this machine allows no mount). */
function smallDisk(dir: string, size: string): string | null {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  mounts.push(dir);
  return dir;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

/**
 * One server for the tests that neither restart it nor need a data dir of their own: each uses a pipeline
 * of its own name, shut down at its end (a server and its compiler's process per test were a good part of
 * this file's CPU time).
 */
let shared: Promise<Svc> | undefined;
const sharedServer = () => (shared ??= startSvc({ pipelineApi: 'current' }, { dataDir: mkdtempSync(join(tmpdir(), 'ops-durable-shared-')) }));
afterAll(async () => {
  if (shared) await (await shared).close();
});

/** Stops a pipeline of the shared server, discarding its state (its test is over, whatever its outcome). */
async function release(svc: Svc, name: string): Promise<void> {
  await svc.call('POST', `/v0/pipelines/${name}/stop?force=true`).catch(() => {});
  await waitFor(async () => ['Stopped', 'Failed'].includes((await statusOf(svc, name)).deployment_status), `${name} stopped`).catch(() => {});
}

async function serve(dataDir: string, options: Record<string, unknown> = {}): Promise<Svc> {
  const svc = await startSvc({ pipelineApi: 'current', ...options }, { dataDir });
  open.push(svc);
  return svc;
}

async function close(svc: Svc): Promise<void> {
  open.splice(open.indexOf(svc), 1);
  await svc.close();
}

function rows(from: number, n: number): string {
  let out = '';
  for (let i = from; i < from + n; i++) out += `{"insert":{"id":${i},"k":${i % 7},"v":${i * 3}}}\n`;
  return out;
}

async function total(svc: Svc, name = 'p'): Promise<{ n: number; s: number }> {
  const r = await svc.call('GET', `/v0/pipelines/${name}/query?sql=${encodeURIComponent('SELECT n, s FROM total')}&format=json`);
  expect(r.status, r.text).toBe(200);
  const row = JSON.parse(r.text.trim().split('\n')[0]!);
  return { n: row.n ?? row.N, s: row.s ?? row.S };
}

async function statusOf(svc: Svc, name = 'p'): Promise<any> {
  return (await svc.call('GET', `/v0/pipelines/${name}`)).json;
}

async function running(svc: Svc, name = 'p'): Promise<any> {
  return waitFor(async () => {
    const p = await statusOf(svc, name);
    return p.deployment_status === 'Running' ? p : undefined;
  }, `${name} Running`);
}

/**
 * An ingress request whose body is sent in two parts: `sent` resolves once the first part has had time to
 * reach the pipeline (its worker logs the request's start and first bytes as they come), `finish` sends the
 * rest; `answer` is the response.
 */
function streamedIngest(svc: Svc, name: string, table: string, firstPart: string): { sent: Promise<void>; finish: (rest: string) => void; answer: Promise<Response> } {
  let control!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (control = c) });
  control.enqueue(Buffer.from(firstPart));
  const answer = fetch(`${svc.base}/v0/pipelines/${name}/ingress/${table}?format=json`, {
    method: 'POST',
    headers: { ...svc.headers, 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  return {
    sent: new Promise((r) => setTimeout(r, 400)),
    finish: (rest) => {
      control.enqueue(Buffer.from(rest));
      control.close();
    },
    answer,
  };
}

const sum = (n: number): number => (3 * n * (n - 1)) / 2;

describe('durable pipelines', () => {
  it('a graceful stop of the server and a new server on the data dir: the pipeline runs again with its contents', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-durable-'));
    const a = await serve(dataDir);
    await createCompiled(a, 'p', SQL);
    await startRunning(a, 'p');
    expect((await ingest(a, 'p', 't', 'format=json', rows(0, 500))).status).toBe(200);
    expect((await ingest(a, 'p', 't', 'format=json', rows(500, 500))).status).toBe(200);
    expect(await total(a)).toEqual({ n: 1000, s: sum(1000) });
    const before = await snapshot(a, 'p', 'by_k');
    await close(a);

    const b = await serve(dataDir);
    const p = await running(b);
    expect(p.storage_status).toBe('InUse');
    expect(p.storage_status_details.checkpoints.length).toBeGreaterThan(0);
    expect(await total(b)).toEqual({ n: 1000, s: sum(1000) });
    expect(await snapshot(b, 'p', 'by_k')).toEqual(before);
    expect((await ingest(b, 'p', 't', 'format=json', rows(1000, 10))).status).toBe(200);
    expect(await total(b)).toEqual({ n: 1010, s: sum(1010) });
    const logs = (await b.call('GET', '/v0/pipelines/p/logs')).text;
    expect(logs).toMatch(/resumed from checkpoint/);
  });

  it('kill -9 of the pipeline process while clients ingest: it runs again, every acknowledged row there once', async () => {
    const a = await sharedServer();
    const NAME = 'killed';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    const before = children();
    await startRunning(a, NAME);
    const pid = await waitFor(() => [...children()].find((c) => !before.has(c)), 'the pipeline process');
    const acked = new Set<number>();
    let next = 0;
    let stop = false;
    const client = async (): Promise<void> => {
      while (!stop) {
        const from = next;
        next += 50;
        const r = await ingest(a, NAME, 't', 'format=json', rows(from, 50)).catch(() => null);
        if (r?.status === 200) for (let i = from; i < from + 50; i++) acked.add(i);
      }
    };
    const clients = [client(), client(), client()];
    await waitFor(() => acked.size >= 1500, 'some acknowledged rows');
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(clients);
    // started again from its storage by itself
    await waitFor(async () => {
      const p = await statusOf(a, NAME);
      return p.deployment_status === 'Running' && p.deployment_id !== null ? p : undefined;
    }, 'the pipeline running again');
    const ids = await idsOf(a, NAME);
    for (const id of acked) expect(ids.has(id), `acknowledged row ${id}`).toBe(true);
    expect((await snapshot(a, NAME, 'dup')).json_data).toEqual([]);
    const t = await total(a, NAME);
    expect(t.n).toBe(ids.size);
    const logs = (await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text;
    expect(logs).toMatch(/started again from its checkpoint and input log/);
  });

  it('/stop keeps the state for /start, /stop?force=true and /shutdown discard it, /checkpoint reports its sequence number', async () => {
    const a = await sharedServer();
    const NAME = 'stopped';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    await startRunning(a, NAME);
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 100))).status).toBe(200);
    const cp = await a.call('POST', `/v0/pipelines/${NAME}/checkpoint`);
    expect(cp.status).toBe(200);
    expect(cp.json).toEqual({ checkpoint_sequence_number: 0, incarnation_uuid: expect.any(String) });
    await waitFor(async () => (await a.call('GET', `/v0/pipelines/${NAME}/checkpoint_status`)).json.success === 0, 'checkpoint 0 written');
    const list = (await a.call('GET', `/v0/pipelines/${NAME}/checkpoints`)).json;
    expect(list.at(-1)).toMatchObject({ uuid: expect.any(String), steps: expect.any(Number), processed_records: 100 });

    expect((await a.call('POST', `/v0/pipelines/${NAME}/stop`)).status).toBe(202);
    await waitFor(async () => (await statusOf(a, NAME)).deployment_status === 'Stopped', 'stopped');
    expect((await statusOf(a, NAME)).storage_status).toBe('InUse');
    await startRunning(a, NAME);
    await running(a, NAME);
    expect(await total(a, NAME)).toEqual({ n: 100, s: sum(100) });

    expect((await a.call('POST', `/v0/pipelines/${NAME}/stop?force=true`)).status).toBe(202);
    await waitFor(async () => (await statusOf(a, NAME)).deployment_status === 'Stopped', 'stopped');
    expect((await statusOf(a, NAME)).storage_status).toBe('Cleared');
    await startRunning(a, NAME);
    await running(a, NAME);
    expect(await total(a, NAME)).toEqual({ n: 0, s: null });

    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/shutdown`)).status).toBe(202);
    await waitFor(async () => (await statusOf(a, NAME)).deployment_status === 'Stopped', 'stopped');
    await startRunning(a, NAME);
    await running(a, NAME);
    expect(await total(a, NAME)).toEqual({ n: 0, s: null });

    // /clear deletes what a /stop kept
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/stop`)).status).toBe(202);
    await waitFor(async () => (await statusOf(a, NAME)).deployment_status === 'Stopped', 'stopped');
    expect((await a.call('POST', `/v0/pipelines/${NAME}/clear`)).status).toBe(202);
    expect((await statusOf(a, NAME)).storage_status).toBe('Cleared');
  });

  it('a committed transaction survives kill -9 whole, an uncommitted one not at all', async () => {
    const a = await sharedServer();
    const NAME = 'txn';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    const before = children();
    await startRunning(a, NAME);
    const pid = await waitFor(() => [...children()].find((c) => !before.has(c)), 'the pipeline process');
    expect((await a.call('POST', `/v0/pipelines/${NAME}/start_transaction`)).status).toBe(200);
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 20))).status).toBe(200);
    expect((await ingest(a, NAME, 't', 'format=json', rows(20, 20))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/commit_transaction`)).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/start_transaction`)).status).toBe(200);
    expect((await ingest(a, NAME, 't', 'format=json', rows(100, 5))).status).toBe(200);
    process.kill(pid, 'SIGKILL');
    await waitFor(async () => {
      const p = await statusOf(a, NAME);
      return p.deployment_status === 'Running' && (await a.call('GET', `/v0/pipelines/${NAME}/stats`)).json?.global_metrics ? p : undefined;
    }, 'running again');
    await waitFor(async () => (await total(a, NAME).catch(() => null))?.n === 40, 'the committed rows').catch(async (err) => {
      throw new Error(`${err.message}: ${JSON.stringify(await total(a, NAME).catch((e) => String(e)))}\n${(await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text}`);
    });
    expect(await total(a, NAME)).toEqual({ n: 40, s: sum(40) });
  });

  it('a transaction open across a checkpoint and committed after it is replayed whole after kill -9', async () => {
    const a = await sharedServer();
    const NAME = 'txncp';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    const before = children();
    await startRunning(a, NAME);
    const pid = await waitFor(() => [...children()].find((c) => !before.has(c)), 'the pipeline process');
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/start_transaction`)).status).toBe(200);
    expect((await ingest(a, NAME, 't', 'format=json', rows(10, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/checkpoint`)).status).toBe(200);
    await waitFor(async () => (await a.call('GET', `/v0/pipelines/${NAME}/checkpoint_status`)).json.success === 0, 'checkpoint written');
    expect((await ingest(a, NAME, 't', 'format=json', rows(20, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/commit_transaction`)).status).toBe(200);
    expect(await total(a, NAME)).toEqual({ n: 30, s: sum(30) });
    process.kill(pid, 'SIGKILL');
    await waitFor(async () => /started again from its checkpoint/.test((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text), 'the restart');
    await waitFor(async () => (await total(a, NAME).catch(() => null))?.n === 30, 'all three requests after the restart');
    expect(await total(a, NAME)).toEqual({ n: 30, s: sum(30) });
    expect((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text).toMatch(/resumed from checkpoint .* then replayed 1 step/);
    expect((await snapshot(a, NAME, 'dup')).json_data).toEqual([]);
  });

  it('a body that began before a transaction started (or before a checkpoint) and ended after it is replayed whole after kill -9', async () => {
    // the race CI met: the request's first bytes (its `job` record) reach the log before the transaction's
    // `txn` record, a checkpoint is taken while the transaction holds it, and a replay from the `txn` record
    // lost it; likewise a body still coming while a checkpoint is written (its `ingest` record after it)
    const a = await sharedServer();
    const NAME = 'spanning';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    const before = children();
    await startRunning(a, NAME);
    const pid = await waitFor(() => [...children()].find((c) => !before.has(c)), 'the pipeline process');
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 10))).status).toBe(200);

    const checkpoint = async (): Promise<void> => {
      const seq = (await a.call('POST', `/v0/pipelines/${NAME}/checkpoint`)).json.checkpoint_sequence_number;
      await waitFor(async () => (await a.call('GET', `/v0/pipelines/${NAME}/checkpoint_status`)).json.success === seq, 'checkpoint written');
    };
    // 1: begun outside the transaction, held by it
    const first = streamedIngest(a, NAME, 't', rows(10, 5));
    await first.sent;
    expect((await a.call('POST', `/v0/pipelines/${NAME}/start_transaction`)).status).toBe(200);
    first.finish(rows(15, 5));
    expect((await first.answer).status).toBe(200);
    await checkpoint();
    expect((await ingest(a, NAME, 't', 'format=json', rows(20, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/commit_transaction`)).status).toBe(200);
    // 2: a body half sent when a checkpoint is written, its step after it
    const second = streamedIngest(a, NAME, 't', rows(30, 5));
    await second.sent;
    await checkpoint();
    second.finish(rows(35, 5));
    expect((await second.answer).status).toBe(200);
    expect(await total(a, NAME)).toEqual({ n: 40, s: sum(40) });

    process.kill(pid, 'SIGKILL');
    await waitFor(async () => /started again from its checkpoint/.test((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text), 'the restart');
    await waitFor(async () => (await total(a, NAME).catch(() => null))?.n === 40, 'every acknowledged row after the restart');
    expect(await total(a, NAME)).toEqual({ n: 40, s: sum(40) });
    expect((await snapshot(a, NAME, 'dup')).json_data).toEqual([]);
  });

  it('a Parquet body is logged and replayed as it was applied: kill -9 loses nothing acknowledged', async () => {
    const a = await sharedServer();
    const NAME = 'parquetlog';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    const before = children();
    await startRunning(a, NAME);
    const pid = await waitFor(() => [...children()].find((c) => !before.has(c)), 'the pipeline process');
    const ids = Array.from({ length: 3000 }, (_, i) => i);
    const file = pq.writeParquet(
      pq.Table.fromIPCStream(
        A.tableToIPC(
          new A.Table({
            id: A.makeVector(BigInt64Array.from(ids, BigInt)),
            k: A.vectorFromArray(
              ids.map((i) => i % 7),
              new A.Int32(),
            ),
            v: A.makeVector(BigInt64Array.from(ids, (i) => BigInt(i * 3))),
          }),
          'stream',
        ),
      ),
    );
    const r = await fetch(`${a.base}/v0/pipelines/${NAME}/ingress/t?format=parquet`, { method: 'POST', headers: { ...a.headers, 'content-type': 'application/octet-stream' }, body: file });
    expect(r.status, await r.text()).toBe(200);
    expect((await ingest(a, NAME, 't', 'format=json', rows(3000, 10))).status).toBe(200);
    expect(await total(a, NAME)).toEqual({ n: 3010, s: sum(3010) });
    process.kill(pid, 'SIGKILL');
    await waitFor(async () => /started again from its checkpoint/.test((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text), 'the restart');
    await waitFor(async () => (await total(a, NAME).catch(() => null))?.n === 3010, 'both requests after the restart');
    expect(await total(a, NAME)).toEqual({ n: 3010, s: sum(3010) });
    // both requests came back from the input log (the Parquet one parsed again from its logged bytes)
    expect((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text).toMatch(/replayed 2 step/);
  });

  it('a damaged newest checkpoint is passed over for the one before it, and the log replays the rest', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-durable-damaged-'));
    const a = await serve(dataDir);
    await createCompiled(a, 'p', SQL);
    await startRunning(a, 'p');
    expect((await ingest(a, 'p', 't', 'format=json', rows(0, 100))).status).toBe(200);
    await a.call('POST', '/v0/pipelines/p/checkpoint');
    await waitFor(async () => (await a.call('GET', '/v0/pipelines/p/checkpoint_status')).json.success === 0, 'checkpoint written');
    expect((await ingest(a, 'p', 't', 'format=json', rows(100, 100))).status).toBe(200);
    await close(a);
    // the server's stop wrote the newest: damage a byte in its middle
    const dir = join(dataDir, 'pipelines', 'storage');
    const [id] = readdirSync(dir);
    const cps = readdirSync(join(dir, id!, 'checkpoints')).sort();
    const newest = join(dir, id!, 'checkpoints', cps.at(-1)!);
    const bytes = readFileSync(newest);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(newest, bytes);

    const b = await serve(dataDir);
    await running(b);
    expect(await total(b)).toEqual({ n: 200, s: sum(200) });
    const logs = (await b.call('GET', '/v0/pipelines/p/logs')).text;
    expect(logs).toMatch(/is damaged: .*passed over/);
    expect(logs).toMatch(/replayed 1 step/);
  });

  it('a program changed since the checkpoint starts empty, and says why', async () => {
    const a = await sharedServer();
    const NAME = 'changed';
    onTestFinished(() => release(a, NAME));
    await createCompiled(a, NAME, SQL);
    await startRunning(a, NAME);
    expect((await ingest(a, NAME, 't', 'format=json', rows(0, 10))).status).toBe(200);
    expect((await a.call('POST', `/v0/pipelines/${NAME}/stop`)).status).toBe(202);
    await waitFor(async () => (await statusOf(a, NAME)).deployment_status === 'Stopped', 'stopped');
    const patched = await a.call('PATCH', `/v0/pipelines/${NAME}`, { program_code: SQL + '\nCREATE MATERIALIZED VIEW big AS SELECT * FROM t WHERE v > 10;' });
    expect(patched.status).toBe(200);
    await waitFor(async () => (await statusOf(a, NAME)).program_status === 'Success', 'compiled');
    await startRunning(a, NAME);
    await running(a, NAME);
    expect(await total(a, NAME)).toEqual({ n: 0, s: null });
    expect((await a.call('GET', `/v0/pipelines/${NAME}/logs`)).text).toMatch(/stored state not resumed: the program changed since its checkpoint/);
  });
});

describe('durable pipelines on a full disk', () => {
  it('a full disk refuses the request with 507 naming the storage, applies nothing of it, and keeps the pipeline and what was acknowledged', async (ctx) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-durable-full-'));
    // the pipelines' storage on a small disk of its own (the rest of the data dir is not)
    if (!smallDisk(join(dataDir, 'pipelines', 'storage'), '2m')) return ctx.skip();
    const a = await serve(dataDir);
    await createCompiled(a, 'p', SQL);
    await startRunning(a, 'p');
    let acked = 0;
    let full: any = null;
    for (let i = 0; i < 200 && !full; i++) {
      const r = await ingest(a, 'p', 't', 'format=json', rows(acked, 10_000));
      if (r.status === 200) acked += 10_000;
      else full = { status: r.status, body: r.json };
    }
    expect(full?.status).toBe(507);
    expect(full.body.error_code).toBe('StorageFull');
    expect(full.body.message).toMatch(/disk holding the pipeline's storage .* is full; nothing of this request was applied/);
    // nothing of the refused request, everything acknowledged; the pipeline goes on answering
    expect((await total(a)).n).toBe(acked);
    expect((await statusOf(a)).deployment_status).toBe('Running');
    // a checkpoint fails the same way, and checkpoint_status says why; the previous one stays in use
    const cp = await a.call('POST', '/v0/pipelines/p/checkpoint');
    expect(cp.status).toBe(200);
    const status = await waitFor(async () => {
      const r = (await a.call('GET', '/v0/pipelines/p/checkpoint_status')).json;
      return r.failure ? r : undefined;
    }, 'the checkpoint failure');
    expect(status.failure.error).toMatch(/full/);
    // after a kill of the pipeline's process, what was acknowledged is back
    await close(a);
    const b = await serve(dataDir);
    await running(b);
    expect((await total(b)).n).toBe(acked);
  }, 120_000);
});

/** The ids in table t (an ad-hoc query). */
async function idsOf(svc: Svc, name = 'p'): Promise<Set<number>> {
  const r = await svc.call('GET', `/v0/pipelines/${name}/query?sql=${encodeURIComponent('SELECT id FROM t')}&format=json`);
  expect(r.status, r.text).toBe(200);
  return new Set(
    r.text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const row = JSON.parse(l);
        return Number(row.id ?? row.ID);
      }),
  );
}

/** This process's child processes (a pipeline runs in one of its own). */
function children(): Set<number> {
  try {
    return new Set(
      execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return new Set();
  }
}
