/**
 * Slow and idle clients against `ops serve` (all three services in one server, as `ops serve` runs
 * them): a request head sent a byte at a time (slowloris), fifty of them at once, a head too big, a
 * connection that sends nothing, a body trickled in. The server's timeouts (src/services/connections.ts, set small here) end each of them
 * with 408 and close the connection, while the server keeps answering everyone else.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverTimeoutOptions, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/services/connections.js';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { rawClient, type RawClient } from '../helpers/raw-client.js';

const HEADERS_MS = 1000;
const REQUEST_MS = 2500;
/** Far beyond the timeouts plus Node's check interval (200 ms here), for a loaded machine. */
const BOUND_MS = 30_000;

let server: RunningServer;
let hostHeader: string;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-slow-clients-'));
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    connectionTimeouts: { headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS, checkIntervalMs: 200 },
    fetchMetadata: false,
    linkCheck: false,
  });
  hostHeader = new URL(server.url).host;
});
afterAll(() => server.close());

/** Sends `text` a byte at a time, `gapMs` apart, until it is all sent or the server closed the connection. */
async function trickle(c: RawClient, text: string, gapMs: number): Promise<void> {
  for (const ch of text) {
    if (c.socket.destroyed || c.socket.writableEnded) return;
    c.write(ch);
    await new Promise((r) => setTimeout(r, gapMs));
  }
}

/** Waits until the server closed the connection; fails past BOUND_MS. */
async function closedByServer(c: RawClient): Promise<number> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([c.gone.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), BOUND_MS)))]);
  clearTimeout(timer);
  expect(closed, 'the server to close the connection').toBe(true);
  return Date.now() - t0;
}

describe('slow clients', { timeout: 60_000 }, () => {
  it('the defaults: a request head within 10 s, a whole request within 10 minutes', () => {
    const o = serverTimeoutOptions();
    expect(o.http.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(o.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(600_000);
  });

  for (const path of ['/api/v2/links', '/v0/pipelines', '/notify/api/events']) {
    it(`a request head sent a byte at a time to ${path} gets 408 and is closed`, async () => {
      const c = await rawClient(server.url);
      // a head that would take about 20 s at this pace: far beyond the headers timeout
      const head = `GET ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\nUser-Agent: ${'s'.repeat(200)}\r\n\r\n`;
      void trickle(c, head, 100);
      await closedByServer(c);
      expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
      // everyone else is answered meanwhile and after
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    });
  }

  it('50 slowloris connections at once are all closed with 408 while /health keeps answering', async () => {
    const clients = await Promise.all(Array.from({ length: 50 }, () => rawClient(server.url)));
    const paths = ['/api/v2/links', '/v0/pipelines', '/notify/api/events'];
    clients.forEach((c, i) => void trickle(c, `GET ${paths[i % 3]} HTTP/1.1\r\nHost: ${hostHeader}\r\nX-Pad: ${'p'.repeat(300)}\r\n\r\n`, 100));
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    for (const c of clients) await closedByServer(c);
    expect(clients.filter((c) => /^HTTP\/1\.1 408 /.test(c.received))).toHaveLength(50);
  });

  it('a request head over 16 KiB gets 431 and is closed', async () => {
    const c = await rawClient(server.url);
    c.write(`GET /v0/pipelines HTTP/1.1\r\nHost: ${hostHeader}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    await closedByServer(c);
    expect(c.received).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('a connection that sends nothing is closed after the headers timeout', async () => {
    const c = await rawClient(server.url);
    const took = await closedByServer(c);
    expect(took).toBeGreaterThanOrEqual(HEADERS_MS - 100);
  });

  it('a body trickled in is cut at the request timeout; the pipeline applied nothing of it', async () => {
    const put = await fetch(`${server.url}/v0/pipelines/slow`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow', program_code: "CREATE TABLE t (id BIGINT NOT NULL) WITH ('materialized' = 'true');", runtime_config: {}, program_config: {} }),
    });
    expect([200, 201]).toContain(put.status);
    for (;;) {
      const p = (await (await fetch(`${server.url}/v0/pipelines/slow`)).json()) as { program_status: string };
      if (p.program_status === 'Success') break;
      expect(['Pending', 'CompilingSql', 'CompilingRust']).toContain(p.program_status);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await fetch(`${server.url}/v0/pipelines/slow/start`, { method: 'POST' })).status).toBe(202);
    for (;;) {
      const p = (await (await fetch(`${server.url}/v0/pipelines/slow`)).json()) as { deployment_status: string };
      if (p.deployment_status === 'Running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const c = await rawClient(server.url);
    const rows = Array.from({ length: 200 }, (_, i) => `${i}\n`).join('');
    c.write(`POST /v0/pipelines/slow/ingress/t?format=csv HTTP/1.1\r\nHost: ${hostHeader}\r\nContent-Type: text/csv\r\nContent-Length: ${rows.length}\r\n\r\n`);
    void trickle(c, rows, 50);
    await closedByServer(c);
    expect(c.received === '' || /^HTTP\/1\.1 408 /.test(c.received), c.received).toBe(true);
    // nothing of it was applied; a request sent at once afterwards is
    const ok = await fetch(`${server.url}/v0/pipelines/slow/ingress/t?format=csv`, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: '7\n' });
    expect(ok.status).toBe(200);
    const q = await fetch(`${server.url}/v0/pipelines/slow/query?sql=${encodeURIComponent('SELECT COUNT(*) AS n, MIN(id) AS m FROM t')}&format=json`);
    expect(await q.text()).toBe('{"N":1,"M":7}\n');
  });
});
