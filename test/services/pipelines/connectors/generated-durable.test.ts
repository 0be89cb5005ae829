/**
 * Generating connectors in durable pipelines: a checkpoint keeps each one's position, and the next start goes
 * on from it, so that the tables end with every event exactly once (none twice, none missing).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompiled, startRunning, startSvc, waitFor, type Svc } from '../helpers.js';
import { nexmarkTables } from './nexmark-sql.js';

const open: Svc[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

async function serve(dataDir: string): Promise<Svc> {
  const svc = await startSvc({ pipelineApi: 'current' }, { dataDir });
  open.push(svc);
  return svc;
}

const EVENTS = 60_000;
const SQL = `${nexmarkTables({ events: EVENTS, cores: 1, extraOptions: ', "max_step_size_per_thread": 1000' })}
CREATE MATERIALIZED VIEW counts AS SELECT COUNT(*) AS n, COUNT(DISTINCT date_time) AS times FROM bid;
CREATE MATERIALIZED VIEW people AS SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM person;`;

async function query(svc: Svc, sql: string): Promise<any> {
  const r = await svc.call('GET', `/v0/pipelines/p/query?sql=${encodeURIComponent(sql)}&format=json`);
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text.trim().split('\n')[0]!);
}

const processed = async (svc: Svc) => (await svc.call('GET', '/v0/pipelines/p/stats')).json.global_metrics.total_processed_records as number;

describe('generating connectors in durable pipelines', () => {
  it('a server stopped mid-stream and started again: the nexmark connector goes on from its checkpoint, every event once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-gen-durable-'));
    const a = await serve(dataDir);
    await createCompiled(a, 'p', SQL);
    await startRunning(a, 'p');
    const atStop = await waitFor(async () => {
      const n = await processed(a);
      return n > 10_000 ? n : undefined;
    }, 'some events');
    // stopped mid-stream (a graceful stop checkpoints the pipeline where it is)
    expect(atStop).toBeLessThan(EVENTS / 2);
    open.splice(open.indexOf(a), 1);
    await a.close();

    const b = await serve(dataDir);
    const resumedAt = await waitFor(async () => {
      const p = (await b.call('GET', '/v0/pipelines/p')).json;
      return p.deployment_status === 'running' || p.deployment_status === 'Running' ? await processed(b) : undefined;
    }, 'Running again');
    expect(resumedAt).toBeGreaterThan(0);
    await waitFor(async () => (await b.call('GET', '/v0/pipelines/p/stats')).json.global_metrics.pipeline_complete, 'the end', 60_000);
    const counts = await query(b, 'SELECT n, times FROM counts');
    expect(counts).toEqual({ N: (EVENTS * 46) / 50, TIMES: (EVENTS * 46) / 50 });
    const people = await query(b, 'SELECT n, ids FROM people');
    expect(people).toEqual({ N: EVENTS / 50, IDS: EVENTS / 50 });
  }, 120_000);
});
