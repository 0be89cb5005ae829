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
import { afterEach, describe, expect, it } from 'vitest';
import { createCompiled, ingest, snapshot, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, k INT, v BIGINT) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW by_k AS SELECT k, COUNT(*) AS n, SUM(v) AS s FROM t GROUP BY k;
CREATE MATERIALIZED VIEW total AS SELECT COUNT(*) AS n, SUM(v) AS s FROM t;
CREATE MATERIALIZED VIEW dup AS SELECT id, COUNT(*) AS c FROM t GROUP BY id HAVING COUNT(*) > 1;`;

const open: Svc[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

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
});
