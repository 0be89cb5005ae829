import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStore } from '../../src/webhooks/event-store.js';
import { Receiver, type ReceivedRecord, type RejectedRecord } from '../../src/webhooks/receiver.js';
import { startTestReceiver, eventually, type TestReceiver } from '../helpers/test-receiver.js';

const SECRET = 'whsec_receiver_test';
const hmac = (secret: string, body: string | Buffer) => createHmac('sha256', secret).update(body).digest('hex');
const envelope = (id: string, type = 'user.created', data: Record<string, unknown> = { id: '1' }) => JSON.stringify({ id, type, timestamp: '2026-01-01T00:00:00.000Z', data });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(opts: Partial<ConstructorParameters<typeof Receiver>[0]> = {}) {
  const events: ReceivedRecord[] = [];
  const rejected: RejectedRecord[] = [];
  const r = new Receiver({ secret: SECRET, path: '/hooks', onEvent: (e) => events.push(e), onRejected: (x) => rejected.push(x), ...opts });
  const url = await r.listen(0);
  cleanups.push(() => r.close());
  return { r, url, events, rejected };
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

describe('Receiver on 127.0.0.1', () => {
  it('accepts a body signed independently with node:crypto and reports it', async () => {
    const { url, events } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);
    const body = envelope('evt_a');
    const res = await post(url, body, { 'x-signature': hmac(SECRET, body) });
    expect(res).toEqual({ status: 200, json: { received: true, id: 'evt_a', duplicate: false } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: 'evt_a', type: 'user.created', verified: true, duplicate: false, data: { id: '1' } });
  });

  it('rejects tampered bodies, wrong secrets, missing and malformed headers with 400 and never echoes the MAC', async () => {
    const { url, events, rejected } = await start();
    const body = envelope('evt_b');
    const good = hmac(SECRET, body);
    const cases: [string | Buffer, Record<string, string>][] = [
      [body.replace('"1"', '"2"'), { 'x-signature': good }],
      [body, { 'x-signature': hmac('wrong', body) }],
      [body, {}],
      [body, { 'x-signature': 'not-hex' }],
      [body, { 'x-signature': good.slice(1) }],
      [body, { 'x-signature': `sha256=${good}` }],
      [body, { 'x-signature': good.toUpperCase() }],
      [body + ' ', { 'x-signature': good }],
    ];
    for (const [b, h] of cases) {
      const res = await post(url, b, h);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/invalid signature/);
      expect(JSON.stringify(res.json)).not.toContain(good);
    }
    expect(events).toHaveLength(0);
    expect(rejected.map((r) => r.signatureProblem)).toEqual(['mismatch', 'mismatch', 'missing', 'malformed', 'malformed', 'malformed', 'malformed', 'mismatch']);
  });

  it('accepts a signature made by openssl dgst -sha256 -hmac', async () => {
    const { url, events } = await start();
    const dir = mkdtempSync(join(tmpdir(), 'ops-openssl-'));
    const file = join(dir, 'body.json');
    const body = envelope('evt_openssl', 'payment.completed', { amount: 12, orderId: 'o1', customerId: 'c1' });
    writeFileSync(file, body);
    const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r', file], { encoding: 'utf8' });
    const sig = out.trim().split(/\s+/)[0]!;
    expect(sig).toBe(hmac(SECRET, body));
    const res = await post(url, body, { 'x-signature': sig });
    expect(res.status).toBe(200);
    expect(events[0]!.id).toBe('evt_openssl');
  });

  it('answers bad JSON and non-envelopes with 400 (after checking the signature)', async () => {
    const { url, events } = await start();
    for (const body of ['{not json', '[]', '{"type":"x"}', '"str"']) {
      const res = await post(url, body, { 'x-signature': hmac(SECRET, body) });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/invalid event/);
    }
    expect(events).toHaveLength(0);
  });

  it('de-duplicates by envelope id: a duplicate gets 200 and is reported as such', async () => {
    const { url, events } = await start();
    const body = envelope('evt_dup');
    const h = { 'x-signature': hmac(SECRET, body) };
    expect((await post(url, body, h)).json.duplicate).toBe(false);
    expect(await post(url, body, h)).toEqual({ status: 200, json: { received: true, id: 'evt_dup', duplicate: true } });
    expect(events.map((e) => e.duplicate)).toEqual([false, true]);
  });

  it('remembers ids across restarts through the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-recv-'));
    const file = join(dir, 'events.ndjson');
    const body = envelope('evt_persist');
    const h = { 'x-signature': hmac(SECRET, body) };
    const s1 = new EventStore(file);
    const a = await start({ store: s1 });
    expect((await post(a.url, body, h)).json.duplicate).toBe(false);
    await a.r.close();
    s1.close();
    const s2 = new EventStore(file);
    cleanups.push(() => s2.close());
    const b = await start({ store: s2 });
    expect((await post(b.url, body, h)).json.duplicate).toBe(true);
    expect(s2.get('evt_persist')).toMatchObject({ deliveries: 2, type: 'user.created' });
    expect(s2.get('evt_persist')!.body.toString()).toBe(body);
  });

  it('limits the body size (413) and answers 404/405 elsewhere, without crashing', async () => {
    const { url } = await start({ maxBodyBytes: 1000 });
    const big = envelope('evt_big', 'user.created', { pad: 'x'.repeat(2000) });
    const res = await post(url, big, { 'x-signature': hmac(SECRET, big) });
    expect(res.status).toBe(413);
    const base = url.replace('/hooks', '');
    expect((await request(`${base}/other`, { method: 'POST', body: '{}' })).statusCode).toBe(404);
    const g = await request(url, { method: 'GET' });
    expect(g.statusCode).toBe(405);
    await g.body.text();
    expect((await request(`${base}/healthz`)).statusCode).toBe(200);
    // garbage on the socket
    await new Promise<void>((resolve) => {
      const port = Number(new URL(url).port);
      const sock = connect(port, '127.0.0.1', () => sock.end('NOT HTTP AT ALL\r\n\r\n'));
      sock.on('data', () => {});
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
    });
    const body = envelope('evt_after');
    expect((await post(url, body, { 'x-signature': hmac(SECRET, body) })).status).toBe(200);
  });

  it('a chunked body over the limit is cut off with 413', async () => {
    const { url } = await start({ maxBodyBytes: 100 });
    const { Readable } = await import('node:stream');
    const res = await request(url, {
      method: 'POST',
      body: Readable.from([Buffer.alloc(80, 'a'), Buffer.alloc(80, 'b')]),
      headers: { 'x-signature': '0'.repeat(64) },
    }).catch((e: Error) => e);
    if (!(res instanceof Error)) expect(res.statusCode).toBe(413);
  });

  it('filters event types: others get 200 and are not reported', async () => {
    const ignored: string[] = [];
    const { url, events } = await start({ events: ['payment.completed'], onIgnored: (i) => ignored.push(i.type) });
    const a = envelope('evt_u', 'user.created');
    const b = envelope('evt_p', 'payment.completed');
    expect((await post(url, a, { 'x-signature': hmac(SECRET, a) })).json).toMatchObject({ ignored: true });
    expect((await post(url, b, { 'x-signature': hmac(SECRET, b) })).status).toBe(200);
    expect(events.map((e) => e.id)).toEqual(['evt_p']);
    expect(ignored).toEqual(['user.created']);
  });

  it('forwards the exact bytes, re-signed, to a local URL', async () => {
    const target: TestReceiver = await startTestReceiver(() => ({ status: 202 }));
    cleanups.push(() => target.close());
    const { url, events } = await start({ forwardTo: target.url, forwardSecret: 'app-secret' });
    const body = envelope('evt_fwd');
    await post(url, body, { 'x-signature': hmac(SECRET, body) });
    await target.waitFor(1);
    const got = target.requests[0]!;
    expect(got.body.toString()).toBe(body);
    expect(got.headers['x-signature']).toBe(hmac('app-secret', body));
    expect(got.headers['x-ops-event-id']).toBe('evt_fwd');
    await eventually(() => events.length === 1);
    expect(events[0]!.forward).toMatchObject({ url: target.url, statusCode: 202, error: null });
    // duplicates are not forwarded again
    await post(url, body, { 'x-signature': hmac(SECRET, body) });
    await eventually(() => events.length === 2);
    expect(target.requests).toHaveLength(1);
  });

  it('reports a forward target that is down without failing the sender', async () => {
    const { url, events } = await start({ forwardTo: 'http://127.0.0.1:9/nothing' });
    const body = envelope('evt_down');
    expect((await post(url, body, { 'x-signature': hmac(SECRET, body) })).status).toBe(200);
    await eventually(() => events.length === 1);
    expect(events[0]!.forward!.statusCode).toBeNull();
    expect(events[0]!.forward!.error).toMatch(/ECONNREFUSED/);
  });
});

describe('sendSigned', () => {
  it('a 2xx status that arrives in time counts even if the body is slow to finish', async () => {
    const { createServer } = await import('node:http');
    const { sendSigned } = await import('../../src/webhooks/send.js');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      // never ends the body
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const r = await sendSigned({ url: `http://127.0.0.1:${port}/`, body: Buffer.from('{}'), secret: 's', timeoutMs: 300 });
      expect(r).toMatchObject({ ok: true, statusCode: 200, error: null, responseExcerpt: 'partial' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('an invalid URL is an error result, never a throw', async () => {
    const { sendSigned } = await import('../../src/webhooks/send.js');
    expect(await sendSigned({ url: 'notaurl', body: Buffer.from('{}'), secret: 's' })).toMatchObject({ ok: false, statusCode: null });
  });
});
