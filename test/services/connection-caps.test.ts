/**
 * Caps against floods (issue 33, item 8), from the client's side: a slowloris client sending a header
 * line every 5 s is cut by the server's default head timeout; connections past the cap get a 503 that says
 * why and are closed while the open ones are served; webhook registrations and pipelines past their caps
 * are refused 403 with a body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { HEADERS_TIMEOUT_MS } from '../../src/services/connections.js';
import { DEFAULT_CAPS } from '../../src/services/limits.js';
import { rawClient, type RawClient } from '../helpers/raw-client.js';
import { tempDir } from '../helpers/cli.js';

let server: RunningServer | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.socket.destroy();
  await server?.close();
  server = undefined;
});

const start = (extra: Record<string, unknown> = {}) => startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-caps-'), fetchMetadata: false, linkCheck: false, ...extra });

async function open(url: string): Promise<RawClient> {
  const c = await rawClient(url);
  clients.push(c);
  return c;
}

describe('slow and excess connections', { timeout: 90_000 }, () => {
  it('a client sending one header line every 5 s is cut by the default head timeout (10 s from its first byte)', async () => {
    server = await start();
    const c = await open(server.url);
    const host = new URL(server.url).host;
    const t0 = Date.now();
    let lines = 0;
    const sending = (async () => {
      const head = [`GET /api/version HTTP/1.1\r\n`, `Host: ${host}\r\n`, ...Array.from({ length: 20 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
      for (const line of head) {
        if (c.socket.destroyed || c.socket.writableEnded) return;
        c.write(line);
        lines++;
        await new Promise((r) => setTimeout(r, 5_000));
      }
    })();
    await c.gone;
    const took = Date.now() - t0;
    await sending;
    expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
    // the head timeout, Node's once-a-second check, and a generous margin for a loaded machine
    expect(took).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(HEADERS_TIMEOUT_MS + 15_000);
    expect(lines).toBeLessThan(6);
  });

  it('a connection past the cap gets a 503 naming the cap and is closed; the open ones are served; a freed place is taken again', async () => {
    server = await start({ maxConnections: 5 });
    const host = new URL(server.url).host;
    const held = [];
    for (let i = 0; i < 5; i++) held.push(await open(server.url));
    const extra = await open(server.url);
    // a write the refused connection asks for is never carried out
    const key = server.credentials.notifyApiKey!;
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/refused', events: ['user.created'] });
    extra.write(`POST /notify/v1/webhooks HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await extra.gone;
    expect(extra.received).toMatch(/^HTTP\/1\.1 503 /);
    expect(extra.received).toContain('TooManyConnections');
    expect(extra.received).toContain('at most 5');
    expect(extra.received).not.toContain('"wh_');
    // the held ones still work
    held[0]!.write(`GET /api/version HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    for (let i = 0; i < 100 && !held[0]!.received.includes('"version"'); i++) await new Promise((r) => setTimeout(r, 20));
    expect(held[0]!.received).toMatch(/^HTTP\/1\.1 200 /);
    // free one place: the next connection is served
    held[1]!.socket.destroy();
    await held[1]!.gone;
    // once the server has seen the close (a moment on a loaded machine)
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const c = await open(server.url);
      c.write(`GET /api/version HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      await c.gone;
      status = Number(/^HTTP\/1\.1 (\d+)/.exec(c.received)?.[1]);
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    const hooks = (await (await fetch(`${server.url}/notify/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: unknown[] };
    expect(hooks.data).toEqual([]);
  });

  it('the default cap is 1,000 connections', () => {
    expect(DEFAULT_CAPS.connections).toBe(1_000);
  });
});

describe('caps on webhooks and pipelines', { timeout: 60_000 }, () => {
  it('registrations past --max-webhooks and pipelines past --max-pipelines are refused 403 with a body', async () => {
    server = await start({ maxWebhooks: 3, maxPipelines: 2 });
    const key = server.credentials.notifyApiKey!;
    const hook = (i: number) =>
      fetch(`${server!.url}/notify/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:9/${i}`, events: ['user.created'] }),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await hook(i)).status);
    expect(statuses).toEqual([201, 201, 201]);
    const refused = await hook(3);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'limit_reached', message: expect.stringContaining('at most 3 webhooks') });
    const list = (await (await fetch(`${server.url}/notify/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string }[] };
    expect(list.data).toHaveLength(3);
    // deleting one makes room
    await fetch(`${server.url}/notify/v1/webhooks/${list.data[0]!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect((await hook(4)).status).toBe(201);

    const put = (name: string) =>
      fetch(`${server!.url}/v0/pipelines/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, program_code: 'CREATE TABLE t (x INT);', runtime_config: {} }),
      });
    expect((await put('a')).status).toBe(201);
    expect((await put('b')).status).toBe(201);
    const third = await put('c');
    expect(third.status).toBe(403);
    expect(await third.json()).toMatchObject({ error_code: 'PipelineLimitReached', details: { max_pipelines: 2 } });
    // updating an existing pipeline is not creating one
    expect((await put('a')).status).toBe(200);
    expect(((await (await fetch(`${server.url}/v0/pipelines`)).json()) as unknown[]).length).toBe(2);
  });
});
