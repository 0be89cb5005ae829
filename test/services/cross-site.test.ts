/**
 * `ops serve` against other local programs and web pages, from the attacker's side: a real chromium page
 * served from another 127.0.0.1 port tries to drive the pipeline API and the dashboard's Redeliver form,
 * requests come with a foreign Host (DNS rebinding) or Origin; and the data at rest after a start with
 * umask 000, and an old install with loose modes tightened at start.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { launchChromium } from '../helpers/browser.js';
import { eventually, startTestReceiver, type TestReceiver } from '../helpers/test-receiver.js';

let server: RunningServer;
let dataDir: string;
let browser: Browser;
let rcv: TestReceiver;
let attacker: Server;
let attackerUrl = '';
let attackPage = '';
let notifyKey = '';
let oldUmask = 0;

/** A request as a non-browser client would send it (no Origin), with the Host and headers given. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: u.port, method, path, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
};
const notify = (method: string, path: string, body?: unknown) => api(method, `/notify${path}`, body, { authorization: `Bearer ${notifyKey}` });

beforeAll(async () => {
  oldUmask = process.umask(0o000);
  dataDir = mkdtempSync(join(tmpdir(), 'ops-xsite-'));
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir, retryScale: 0.0001, linkCheck: false, fetchMetadata: false });
  notifyKey = server.credentials.notifyApiKey!;
  browser = await launchChromium();
  rcv = await startTestReceiver(() => ({ status: 500 }));
  attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage));
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  process.umask(oldUmask);
  await browser?.close();
  await server?.close();
  await rcv?.close();
  await new Promise<void>((r) => attacker?.close(() => r()));
});

describe('Host and Origin', () => {
  it('answers 421 with a clear body to a foreign Host (DNS rebinding) and to the right name on a wrong port', async () => {
    const port = new URL(server.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, `localhost.evil.example:${port}`]) {
      const r = await raw('GET', '/v0/pipelines', host ? { host } : {});
      expect(r.status, host).toBe(421);
      expect(JSON.parse(r.body)).toMatchObject({ error_code: 'MisdirectedRequest' });
      expect(JSON.parse(r.body).message).toMatch(/answers only to .*127\.0\.0\.1:\d+|no Host header/);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const r = await raw('GET', '/health', { host });
      expect(r.status, host).toBe(200);
    }
  });

  it('refuses a foreign Origin on state-changing requests, accepts its own origin and no Origin (the CLI)', async () => {
    const port = new URL(server.url).port;
    const body = JSON.stringify({ name: 'from-origin', program_code: 'CREATE TABLE t (x INT);' });
    for (const origin of [attackerUrl, 'null', `http://localhost:${Number(port) + 1}`, 'https://evil.example']) {
      const r = await raw('POST', '/v0/pipelines', { host: `127.0.0.1:${port}`, origin, 'content-type': 'application/json' }, body);
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ error_code: 'CrossSiteRequestRefused' });
    }
    expect((await api('GET', '/v0/pipelines/from-origin')).status).toBe(404);
    const own = await raw('POST', '/v0/pipelines', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' }, body);
    expect(own.status).toBe(201);
    expect((await api('DELETE', '/v0/pipelines/from-origin')).status).toBe(200);
  });

  it('sends no CORS headers, so no page can read an answer', async () => {
    const r = await fetch(`${server.url}/v0/pipelines`);
    expect([...r.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });
});

describe('a web page on another 127.0.0.1 port', () => {
  it('cannot create, change or start a pipeline, nor press Redeliver, even with the dashboard cookie in the browser', async () => {
    // the victim's state: a pipeline, and a failed delivery
    const sql = 'CREATE TABLE t (x INT);\nCREATE MATERIALIZED VIEW v AS SELECT x FROM t;';
    expect((await api('PUT', '/v0/pipelines/victim', { name: 'victim', program_code: sql })).status).toBe(201);
    await eventually(async () => (await api('GET', '/v0/pipelines/victim')).json.program_status === 'Success');
    await notify('POST', '/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'x' });
    const ev = await notify('POST', '/v1/events/trigger', { type: 'payment.failed' });
    const deliveryId: string = ev.json.deliveries[0];
    await eventually(async () => (await notify('GET', `/v1/deliveries/${deliveryId}`)).json.status === 'failed');
    const attemptsBefore = (await notify('GET', `/v1/deliveries/${deliveryId}`)).json.attempts.length;
    const receivedBefore = rcv.requests.length;

    const context = await browser.newContext();
    const page = await context.newPage();
    // the user has the dashboard open: its cookie is in the browser
    await page.goto(`${server.url}/notify/dashboard?key=${encodeURIComponent(notifyKey)}`);
    expect(await page.locator(`button[data-delivery="${deliveryId}"]`).count()).toBe(1);

    const target = server.url;
    attackPage = `<!doctype html><html><body>
<form id="f" method="post" action="${target}/notify/dashboard/deliveries/${deliveryId}/redeliver" target="sink"><input name="x" value="1"></form>
<iframe name="sink"></iframe>
<script>
const evil = JSON.stringify({ name: 'victim', program_code: 'CREATE TABLE t (x INT);' });
const tries = [
  fetch('${target}/v0/pipelines/victim', { method: 'PUT', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: evil }),
  fetch('${target}/v0/pipelines/victim', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: evil }),
  fetch('${target}/v0/pipelines', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'planted', program_code: 'CREATE TABLE p (x INT);' }) }),
  fetch('${target}/v0/pipelines/victim/start', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '' }),
  fetch('${target}/v0/pipelines/victim/ingress/t?format=json', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"insert":{"x":1}}' }),
  fetch('${target}/api/v2/links/check', { mode: 'no-cors' }),
];
Promise.allSettled(tries).then((r) => { window.fetchOutcomes = r.map((x) => x.status); document.getElementById('f').submit(); });
</script></body></html>`;
    const statuses: { url: string; method: string; status: number }[] = [];
    page.on('response', (res) => {
      if (res.url().startsWith(target)) statuses.push({ url: res.url().slice(target.length), method: res.request().method(), status: res.status() });
    });
    await page.goto(attackerUrl);
    await eventually(() => statuses.some((s) => s.url.includes('/redeliver')));
    await eventually(async () => (await page.evaluate(() => (globalThis as unknown as { fetchOutcomes?: string[] }).fetchOutcomes)) !== undefined);

    // every request that reached the server was refused there
    expect(statuses.length).toBeGreaterThanOrEqual(5);
    for (const s of statuses) expect(s.status, `${s.method} ${s.url}`).toBe(403);
    // and nothing changed
    const victim = (await api('GET', '/v0/pipelines/victim')).json;
    expect(victim.program_code).toBe(sql);
    expect(victim.deployment_status).toBe('Shutdown');
    expect((await api('GET', '/v0/pipelines/planted')).status).toBe(404);
    const after = (await notify('GET', `/v1/deliveries/${deliveryId}`)).json;
    expect(after.attempts.length).toBe(attemptsBefore);
    expect(after.status).toBe('failed');
    expect(rcv.requests.length).toBe(receivedBefore);

    // the dashboard's own Redeliver button still works in the same browser
    await page.goto(`${server.url}/notify/dashboard`);
    await page.locator(`button[data-delivery="${deliveryId}"]`).click();
    await page.waitForLoadState();
    expect(await page.locator('.flash').textContent()).toContain(`Redelivery of ${deliveryId} queued`);
    await eventually(async () => (await notify('GET', `/v1/deliveries/${deliveryId}`)).json.attempts.length > attemptsBefore);
    await context.close();
  }, 60_000);
});

describe('data at rest', () => {
  it('after a start with umask 000: the data dir and its directories 0700, every file 0600', () => {
    const seen: string[] = [];
    const walk = (d: string) => {
      expect(statSync(d).mode & 0o777, d).toBe(0o700);
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else {
          seen.push(name);
          expect(st.mode & 0o777, p).toBe(0o600);
        }
      }
    };
    walk(dataDir);
    // the databases and their WAL files are among them
    for (const f of ['bookmarks.sqlite', 'pipelines.db', 'notifications.db', 'bookmarks.sqlite-wal', 'notifications.db-wal']) expect(seen, f).toContain(f);
  });

  it('tightens an existing install with loose modes at start', async () => {
    const old = mkdtempSync(join(tmpdir(), 'ops-old-install-'));
    chmodSync(old, 0o755);
    mkdirSync(join(old, 'notifications'), { mode: 0o755 });
    writeFileSync(join(old, 'notifications', 'stray-secret'), 'x', { mode: 0o644 });
    chmodSync(join(old, 'notifications'), 0o755);
    const s = await startServer({ host: '127.0.0.1', port: 0, dataDir: old, linkCheck: false, fetchMetadata: false });
    try {
      expect(statSync(old).mode & 0o777).toBe(0o700);
      expect(statSync(join(old, 'notifications')).mode & 0o777).toBe(0o700);
      expect(statSync(join(old, 'notifications', 'stray-secret')).mode & 0o777).toBe(0o600);
      expect(statSync(join(old, 'files')).mode & 0o777).toBe(0o700);
    } finally {
      await s.close();
    }
  });
});
