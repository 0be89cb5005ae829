/**
 * Ingress requests arriving together at one pipeline take its memory a bounded amount at a time (host.ts,
 * INGRESS_MEMORY_SHARE of its limit; a test knob sets it low here): past the budget a newer request's body
 * is not read further until older requests are applied, and the oldest request never waits, so nothing
 * deadlocks. (The worker's heap limit does not bound parsed bodies, which live outside its heap: before,
 * requests arriving together took memory in proportion to their number.)
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, startRunning, startSvc, type Svc } from './helpers.js';

const BUDGET = 256 * 1024;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc({ pipelinesIngressBudgetBytes: BUDGET });
  await createCompiled(svc, 'adm', "CREATE TABLE t (id BIGINT, s VARCHAR) WITH ('materialized' = 'true');");
  await startRunning(svc, 'adm');
});
afterAll(async () => {
  await svc?.close();
});

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${from + i},row-${from + i}\n`).join('');

/** A request whose body is sent in two parts, the second when asked: gives its answer's status. */
function twoPartRequest(first: string, second: string): { finish: () => void; answered: Promise<number> } {
  const url = new URL(`${svc.base}/v0/pipelines/adm/ingress/t?format=csv`);
  let finish = () => {};
  const answered = new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        headers: { 'content-type': 'text/csv', 'content-length': Buffer.byteLength(first) + Buffer.byteLength(second) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(first);
    finish = () => req.end(second);
  });
  return { finish, answered };
}

const count = async () => JSON.parse((await svc.call('GET', `/v0/pipelines/adm/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM t')}&format=json`)).text).C;

describe('ingress requests arriving together', () => {
  it('past the budget a newer request waits for the older ones; the oldest never waits', { timeout: 60_000 }, async () => {
    // the oldest request sends part of its body and stalls: it holds part of the budget
    const oldest = twoPartRequest(rows(0, 5_000), rows(5_000, 5_000));
    await new Promise((r) => setTimeout(r, 200));
    // a newer request bigger than the rest of the budget: taken in up to the budget, then it waits
    const big = rows(100_000, 30_000);
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * BUDGET);
    let newerStatus = 0;
    const newer = fetch(`${svc.base}/v0/pipelines/adm/ingress/t?format=csv`, { method: 'POST', body: big, headers: { 'content-type': 'text/csv' } }).then((r) => (newerStatus = r.status));
    await new Promise((r) => setTimeout(r, 1500));
    expect(newerStatus).toBe(0); // still waiting: the oldest has not been applied
    expect(await count()).toBe(0);
    oldest.finish();
    expect(await oldest.answered).toBe(200);
    await newer;
    expect(newerStatus).toBe(200);
    expect(await count()).toBe(40_000);
  });

  it('many requests at once, each within the budget or not, all apply exactly', { timeout: 60_000 }, async () => {
    const before = await count();
    const bodies = Array.from({ length: 30 }, (_, k) => rows(1_000_000 + k * 20_000, 2_000 + 1_000 * (k % 7)));
    const statuses = await Promise.all(
      bodies.map((b) => fetch(`${svc.base}/v0/pipelines/adm/ingress/t?format=csv`, { method: 'POST', body: b, headers: { 'content-type': 'text/csv' } }).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const expected = bodies.reduce((sum, b) => sum + b.split('\n').length - 1, 0);
    expect((await count()) - before).toBe(expected);
  });
});
