/**
 * An ad-hoc query runs in its pipeline's worker and holds it while it runs; a client that closes its
 * connection before the answer cancels it, so what waited behind it (here an ingress) goes on at once, and
 * the pipeline's log says so. Shutting a pipeline down cancels a query still running. The query below
 * looks at 10^10 pairs: it would run for minutes, far past the test's timeout, if it were not stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const SQL = "CREATE TABLE a (x INT) WITH ('materialized' = 'true');\nCREATE TABLE b (y INT) WITH ('materialized' = 'true');";
const N = 100_000;
const ENDLESS = 'SELECT COUNT(*) AS c FROM a, b WHERE a.x + b.y < 0';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc?.close();
});

async function filled(name: string): Promise<void> {
  await createCompiled(svc, name, SQL);
  await startRunning(svc, name);
  const ids = Array.from({ length: N }, (_, i) => `${i}\n`).join('');
  expect((await ingest(svc, name, 'a', 'format=csv', ids)).status).toBe(200);
  expect((await ingest(svc, name, 'b', 'format=csv', ids)).status).toBe(200);
}

/** Sends the endless query and gives the way to hang up on it. */
function endlessQuery(name: string): { hangUp: () => void; settled: Promise<unknown> } {
  const ac = new AbortController();
  const settled = fetch(`${svc.base}/v0/pipelines/${name}/query?sql=${encodeURIComponent(ENDLESS)}&format=json`, { signal: ac.signal }).then(
    (r) => r.text(),
    (err: Error) => err.name,
  );
  return { hangUp: () => ac.abort(), settled };
}

const logs = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}/logs`)).text;

describe('an ad-hoc query whose client went away', () => {
  it('is cancelled: the ingress waiting behind it is applied, the log says so, the pipeline runs on', { timeout: 90_000 }, async () => {
    await filled('c1');
    const q = endlessQuery('c1');
    await new Promise((r) => setTimeout(r, 300)); // running by now, or queued: cancelled either way
    q.hangUp();
    expect(await q.settled).toBe('AbortError');
    expect((await ingest(svc, 'c1', 'a', 'format=csv', '-5\n')).status).toBe(200);
    await waitFor(async () => (await logs('c1')).includes('An ad-hoc query was cancelled: its client closed the connection'), 'the log line', 45_000);
    const r = await svc.call('GET', `/v0/pipelines/c1/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c, MIN(x) AS m FROM a')}&format=json`);
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ C: N + 1, M: -5 });
  });

  it('a shutdown cancels a query still running', { timeout: 90_000 }, async () => {
    // the pipeline of the test before, still running with its two tables (filling another one costs seconds)
    const before = (await logs('c1')).split('An ad-hoc query was cancelled').length;
    const q = endlessQuery('c1');
    await new Promise((r) => setTimeout(r, 300));
    await shutdown(svc, 'c1');
    await q.settled;
    await waitFor(async () => (await logs('c1')).split('An ad-hoc query was cancelled').length > before, 'the log line', 45_000);
  });
});
