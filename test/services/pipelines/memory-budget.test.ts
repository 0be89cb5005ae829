/**
 * The server's memory budget for its running pipelines together (memory-budget.ts): over it, the pipeline
 * using the most is failed with a reason, and the others, the server and their results are untouched.
 */
import { describe, expect, it } from 'vitest';
import { overBudget, overBudgetError, START_RESERVE_MB, startRefusal } from '../../../src/services/pipelines/runner/memory-budget.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor } from './helpers.js';

const MIB = 1024 * 1024;

describe('overBudget', () => {
  const p = (name: string, mb: number) => ({ name, bytes: mb * MIB });
  it('names the largest pipeline only when all together are over the budget', () => {
    expect(overBudget([p('a', 40), p('b', 70)], 100 * MIB)).toEqual(p('b', 70));
    expect(overBudget([p('a', 40), p('b', 60)], 100 * MIB)).toBeNull(); // exactly the budget: within
    expect(overBudget([p('a', 90), p('b', 20), p('c', 30)], 100 * MIB)).toEqual(p('a', 90));
    expect(overBudget([], 0)).toBeNull();
  });

  it('its error names the figures', () => {
    const e = overBudgetError(p('big', 120), 150 * MIB, 100);
    expect(e).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_budget_mb: 100, pipelines_memory_mb: 150, pipeline_memory_mb: 120 } });
    expect(e.message).toMatch(/together used 150 MiB, over the memory budget of 100 MiB.*the largest at 120 MiB/);
  });
});

describe('startRefusal', () => {
  const p = (name: string, mb: number) => ({ name, bytes: mb * MIB });
  it('lets a pipeline start while the budget has room for its process, counting pipelines still starting at the reserve', () => {
    expect(startRefusal([], START_RESERVE_MB)).toBeNull();
    expect(startRefusal([p('a', 100)], 100 + START_RESERVE_MB)).toBeNull();
    expect(startRefusal([p('a', 101)], 100 + START_RESERVE_MB)).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_budget_mb: 228, pipelines_memory_mb: 101 } });
    // one not reported yet (0 bytes) counts as the reserve
    expect(startRefusal([p('a', 0)], 2 * START_RESERVE_MB)).toBeNull();
    expect(startRefusal([p('a', 0), p('b', 0)], 2 * START_RESERVE_MB)?.details).toMatchObject({ pipelines_memory_mb: 2 * START_RESERVE_MB });
    expect(startRefusal([p('a', 0), p('b', 0)], 2 * START_RESERVE_MB)?.message).toMatch(
      /cannot start: the server's 2 running pipeline\(s\) use 256 MiB of the memory budget of 256 MiB.*needs about 128 MiB to start/,
    );
  });
});

describe('the memory budget of a running server', () => {
  it('refuses to start a pipeline it has no room for (Failed, saying why); it starts once another stops', { timeout: 120_000 }, async () => {
    // one idle pipeline's process (~85-95 MB resident) fits; a second one's reserve on top of it does not
    const svc = await startSvc({ pipelinesMemoryBudgetMb: 200 });
    try {
      const SQL = 'CREATE TABLE t (id BIGINT); CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM t;';
      for (const name of ['p1', 'p2']) await createCompiled(svc, name, SQL);
      await startRunning(svc, 'p1');
      const rss = (await svc.call('GET', '/v0/pipelines/p1/stats')).json.global_metrics.rss_bytes;
      expect(rss + START_RESERVE_MB * MIB).toBeGreaterThan(200 * MIB); // what the refusal below rests on
      expect((await svc.call('POST', '/v0/pipelines/p2/start')).status).toBe(202);
      const p2 = await waitFor(async () => {
        const p = (await svc.call('GET', '/v0/pipelines/p2')).json;
        return p.deployment_status === 'Failed' ? p : undefined;
      }, 'p2 to fail to start');
      expect(p2.deployment_error).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_budget_mb: 200, start_reserve_mb: START_RESERVE_MB } });
      expect(p2.deployment_error.message).toMatch(/cannot start: the server's 1 running pipeline\(s\) use \d+ MiB of the memory budget of 200 MiB/);
      // the running one is untouched
      expect((await svc.call('GET', '/v0/pipelines/p1')).json.deployment_status).toBe('Running');
      expect((await ingest(svc, 'p1', 't', 'format=csv', '1\n2\n')).status).toBe(200);
      // it stops: the refused one starts after /shutdown acknowledges its failure
      await shutdown(svc, 'p1');
      await shutdown(svc, 'p2');
      expect((await svc.call('GET', '/v0/pipelines/p2')).json.deployment_error).toBeNull();
      await startRunning(svc, 'p2');
      expect((await ingest(svc, 'p2', 't', 'format=csv', '7\n')).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('fails the largest pipeline when together they go over it; the other runs on with exact results', { timeout: 120_000 }, async () => {
    // room for both idle processes (~85-95 MB each) and a start's reserve, little more: the big one grows
    // less before the budget stops it
    const svc = await startSvc({ pipelinesMemoryBudgetMb: 320 });
    try {
      const SQL = "CREATE TABLE t (id BIGINT, s VARCHAR) WITH ('materialized' = 'true');\nCREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c, SUM(id) AS s FROM t;";
      await createCompiled(svc, 'small', SQL);
      await createCompiled(svc, 'big', SQL, { runtime_config: { resources: { memory_mb_max: 2048 } } });
      await startRunning(svc, 'small');
      await startRunning(svc, 'big');
      expect((await ingest(svc, 'small', 't', 'format=csv', '1,a\n2,b\n3,c\n')).status).toBe(200);
      const status = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}`)).json;
      // the big one grows 100,000 rows (about 16 MB of heap, its contents being packed) at a time until the
      // budget stops it (its own limit is far above)
      let sent = 0;
      const pad = 'x'.repeat(150);
      for (let k = 0; k < 30 && (await status('big')).deployment_status === 'Running'; k++) {
        const rows = Array.from({ length: 100_000 }, (_, i) => `${sent + i},row-${sent + i}-${pad}\n`).join('');
        const r = await ingest(svc, 'big', 't', 'format=csv', rows);
        if (r.status === 200) sent += 100_000;
        expect((await status('small')).deployment_status).toBe('Running');
      }
      const big = await waitFor(async () => {
        const p = await status('big');
        return p.deployment_status === 'Failed' ? p : undefined;
      }, 'the big pipeline to fail');
      expect(big.deployment_error).toMatchObject({ error_code: 'RuntimeError.OutOfMemory', details: { memory_budget_mb: 320 } });
      expect(big.deployment_error.message).toMatch(/over the memory budget of 320 MiB it keeps for them; this pipeline, the largest at \d+ MiB, was stopped/);
      expect(sent).toBeGreaterThan(0);
      // the other pipeline and the server: untouched
      expect((await status('small')).deployment_status).toBe('Running');
      const q = await svc.call('GET', `/v0/pipelines/small/query?sql=${encodeURIComponent('SELECT c, s FROM n')}&format=json`);
      expect(JSON.parse(q.text)).toEqual({ C: 3, S: 6 });
      expect((await svc.call('GET', '/v0/pipelines')).status).toBe(200);
      // /shutdown clears the failure; the pipeline starts again with its memory given back
      await shutdown(svc, 'big');
      expect((await status('big')).deployment_error).toBeNull();
      await startRunning(svc, 'big');
      expect((await ingest(svc, 'big', 't', 'format=csv', '7,x\n')).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
