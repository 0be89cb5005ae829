/**
 * The slow-reader attack on watch streams: 200 streams opened and never read (a Python client with a
 * tiny receive buffer holds them). What the pipeline keeps for each is bounded by the per-stream limit
 * (egress/watch.ts), chunks past it are dropped for that stream only, steps go on, a reader that keeps
 * up gets every change exactly once, and shutdown ends all 200.
 */
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t WHERE id % 2 = 0;';
const LIMIT = 64 * 1024;
const STALLED = 200;

/** Starts the Python slow readers and resolves once all of them were answered 200 (the process is wrapped: it is a thenable). */
async function stalledReaders(svc: Svc, path: string, n: number): Promise<{ child: ResultPromise }> {
  const child = execa('python3', [join(ROOT, 'test', 'helpers', 'stalled_readers.py'), '127.0.0.1', new URL(svc.base).port, path, String(n)], {
    stdin: 'pipe',
    reject: false,
    buffer: false,
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l === 'ready' && resolve());
    void child.then(() => reject(new Error(`the slow readers exited: ${stderr}`)));
  });
  return { child };
}

describe('watch streams that are never read', () => {
  it(`${STALLED} of them: bounded output kept per stream, steps go on, a reader that keeps up gets everything, shutdown ends them all`, async () => {
    const svc = await startSvc({ pipelinesWatchMaxBytes: LIMIT });
    onTestFinished(() => svc.close());
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const { child: readers } = await stalledReaders(svc, '/v0/pipelines/p/egress/v?format=json', STALLED);
    onTestFinished(() => void readers.kill());
    const fast = await WatchReader.open(svc, 'p', 'v', 'format=json');

    // 4 MiB per stream in 10 steps: more than the kernel takes for a connection that is not read
    const steps = 10;
    const rows = 200;
    const s = 'x'.repeat(2000);
    for (let step = 0; step < steps; step++) {
      const body = JSON.stringify(Array.from({ length: rows }, (_, i) => ({ insert: { id: (step * rows + i) * 2, s } })));
      expect((await ingest(svc, 'p', 't', 'format=json&array=true', body)).status).toBe(200);
      await fast.until((w) => w.items().length === (step + 1) * rows, `step ${step} on the reader that keeps up`);
    }
    const largestChunk = Math.max(...fast.raw.split('\n').map((line) => Buffer.byteLength(line) + 1));
    // every change once, in order, with no gap in its sequence numbers
    expect(fast.items().map((c) => c.insert.ID)).toEqual(Array.from({ length: steps * rows }, (_, k) => k * 2));
    const seqs = fast.chunks.map((c) => c.sequence_number);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));

    const stats = (await svc.call('GET', '/v0/pipelines/p/stats')).json;
    expect(stats.global_metrics.total_processed_records).toBe(steps * rows);
    const stalled = stats.outputs.filter((o: any) => o.metrics.transmitted_records < steps * rows);
    expect(stalled).toHaveLength(STALLED);
    for (const o of stalled) {
      // the bound: the limit, or one chunk when a chunk is bigger than the limit (its sequence number may have more digits)
      expect(o.metrics.queued_bytes).toBeLessThanOrEqual(Math.max(LIMIT, largestChunk + 20));
      expect(o.metrics.dropped_batches).toBeGreaterThan(0);
    }
    // the warning is logged once per stream that fell behind, not once per dropped chunk
    const logs = (await svc.call('GET', '/v0/pipelines/p/logs')).text;
    const warnings = logs.split('\n').filter((l) => l.includes('not keeping up')).length;
    // (here about 3 chunks dropped per stream, so one line per chunk would be about 600)
    expect(warnings).toBeGreaterThanOrEqual(STALLED);
    expect(warnings).toBeLessThanOrEqual(
      Math.min(
        2 * STALLED,
        stalled.reduce((n: number, o: any) => n + o.metrics.dropped_batches, 0),
      ),
    );

    await shutdown(svc, 'p');
    await fast.until((w) => w.ended, 'the stream to end');
    // the stalled streams do not take the rest of their output: their connections are cut
    await waitFor(async () => {
      const n = await new Promise<number>((r) => svc.sa.app.server.getConnections((_e, c) => r(c)));
      return n < STALLED;
    }, 'the stalled connections to be cut');
    readers.stdin!.end();
    await readers;
  }, 120_000);
});
