/**
 * The outbound-fetch policy from the attacker's side: a real HTTP server on 127.0.0.1 plays the
 * "internal" target and counts the requests that reach it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress, effectiveFetchPolicy, policyDispatcher, refusal, refusedCause } from '../../../src/services/net/fetch-policy.js';
import { javascriptCopy } from '../../../src/services/workers/js-sources.js';

let target: http.Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits++;
    if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
      res.end();
      return;
    }
    res.end('<title>internal secret</title>');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => target.close(() => r())));

/** The five spellings of loopback from the issue, as a caller would write them. */
const spellings = () => [
  `http://127.0.0.1:${port}/secret`,
  `http://localhost:${port}/secret`,
  `http://0x7f000001:${port}/secret`,
  `http://2130706433:${port}/secret`,
  `http://0177.0.0.1:${port}/secret`,
];

async function get(url: string, policy: 'public' | 'any') {
  const d = policyDispatcher(policy, { maxRedirections: 5 });
  try {
    const res = await request(url, { dispatcher: d });
    return { status: res.statusCode, body: await res.body.text() };
  } catch (err) {
    return { error: err as Error };
  } finally {
    await d.close();
  }
}

describe('address classification', () => {
  it('normalises numeric spellings through the URL parser and classifies them', () => {
    for (const h of ['0x7f000001', '2130706433', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]'])
      expect(classifyAddress(new URL(`http://${h}/`).hostname)?.kind, h).toBe('loopback');
    for (const h of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '[fec0::1]']) expect(classifyAddress(new URL(`http://${h}/`).hostname)?.kind, h).toBe('private');
    expect(classifyAddress('[fc00::1]')?.kind).toBe('unique-local');
    expect(classifyAddress('[fd12:3456::1]')?.kind).toBe('unique-local');
    expect(classifyAddress('0.0.0.0')?.kind).toBe('unspecified');
    expect(classifyAddress('[::]')?.kind).toBe('unspecified');
    expect(classifyAddress('169.254.1.1')?.kind).toBe('link-local');
    expect(classifyAddress('[fe80::1]')?.kind).toBe('link-local');
    expect(classifyAddress('169.254.169.254')?.kind).toBe('metadata');
    expect(classifyAddress('[fd00:ec2::254]')?.kind).toBe('metadata');
    expect(classifyAddress('[::ffff:169.254.169.254]')?.kind).toBe('metadata');
    for (const h of ['8.8.8.8', '172.32.0.1', '[2606:4700::1111]', '[::ffff:8.8.8.8]']) expect(classifyAddress(h)?.kind, h).toBe('public');
    expect(classifyAddress('example.com')).toBeNull();
  });

  it('refuses link-local and metadata under every policy, the rest only under public', () => {
    for (const p of ['any', 'public'] as const) {
      expect(refusal('169.254.169.254', p)).toMatch(/metadata/);
      expect(refusal('[fe80::1]', p)).toMatch(/link-local/);
      expect(refusal('metadata.google.internal', p)).toMatch(/metadata/);
      expect(refusal('METADATA.GOOGLE.INTERNAL.', p)).toMatch(/metadata/);
      expect(refusal('8.8.8.8', p)).toBeNull();
    }
    expect(refusal('127.0.0.1', 'any')).toBeNull();
    expect(refusal('127.0.0.1', 'public')).toMatch(/loopback/);
    expect(refusal('10.0.0.1', 'public')).toMatch(/private/);
  });

  it('defaults to any on a loopback bind and public otherwise', () => {
    expect(effectiveFetchPolicy(undefined, '127.0.0.1')).toBe('any');
    expect(effectiveFetchPolicy(undefined, '::1')).toBe('any');
    expect(effectiveFetchPolicy(undefined, 'localhost')).toBe('any');
    expect(effectiveFetchPolicy(undefined, '0.0.0.0')).toBe('public');
    expect(effectiveFetchPolicy(undefined, '192.168.1.10')).toBe('public');
    expect(effectiveFetchPolicy('public', '127.0.0.1')).toBe('public');
    expect(effectiveFetchPolicy('any', '0.0.0.0')).toBe('any');
  });
});

describe('policyDispatcher against an internal server on 127.0.0.1', () => {
  it('under public, refuses all five spellings and a redirect to loopback, and nothing reaches the target', async () => {
    const before = hits;
    for (const url of spellings()) {
      const r = await get(url, 'public');
      expect(r.error, url).toBeDefined();
      expect(refusedCause(r.error)?.message, url).toMatch(/fetch policy 'public'.*loopback/);
    }
    expect(hits).toBe(before);
  });

  it('checks every redirect hop: a public-looking first hop that redirects to loopback is refused', async () => {
    // The first hop is allowed only under `any`; under public, a server elsewhere redirecting to
    // 127.0.0.1 is what an attacker would use. Use the any-policy target to serve the redirect and a
    // dispatcher whose policy refuses the second hop: a link-local target refused under every policy.
    const redirector = http.createServer((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const rport = (redirector.address() as AddressInfo).port;
    try {
      const r = await get(`http://127.0.0.1:${rport}/`, 'any');
      expect(refusedCause(r.error)?.message).toMatch(/169\.254\.169\.254 is a cloud metadata address/);
    } finally {
      await new Promise<void>((r) => redirector.close(() => r()));
    }
    const before = hits;
    const r = await get(`http://127.0.0.1:${port}/redirect`, 'public');
    expect(refusedCause(r.error)).not.toBeNull();
    expect(hits).toBe(before);
  });

  it('under any, loopback is reached (ops hook serve on 127.0.0.1 keeps working), redirects included', async () => {
    const before = hits;
    for (const url of spellings()) {
      const r = await get(url, 'any');
      expect(r.body, url).toContain('internal secret');
    }
    const r = await get(`http://127.0.0.1:${port}/redirect`, 'any');
    expect(r.body).toContain('internal secret');
    expect(hits).toBe(before + 7);
  });

  it('refuses 169.254.169.254 under any before connecting (no connect timeout, a policy error)', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://metadata.google.internal/computeMetadata/v1/', 'http://[::ffff:169.254.169.254]/']) {
      const r = await get(url, 'any');
      const refused = refusedCause(r.error);
      expect(refused, url).not.toBeNull();
      expect(refused!.message).toMatch(/refused under every policy/);
    }
  });
});

describe('undici, loaded on first use', () => {
  it('is not loaded by the pipeline connectors until a dispatcher is made (a worker without an http source never loads it)', async () => {
    const input = javascriptCopy(new URL('../../../src/services/pipelines/worker/connectors/input.ts', import.meta.url));
    const policy = javascriptCopy(new URL('../../../src/services/net/fetch-policy.ts', import.meta.url));
    // a thread of its own: its own module cache, where nothing has loaded undici yet
    const code = `const { parentPort } = require('node:worker_threads');
const loaded = () => Object.keys(require.cache).some((path) => path.includes('/node_modules/undici/'));
(async () => {
  await import(${JSON.stringify(input.href)});
  const before = loaded();
  const { policyDispatcher } = await import(${JSON.stringify(policy.href)});
  policyDispatcher('public');
  parentPort.postMessage({ before, after: loaded() });
})();`;
    const w = new Worker(code, { eval: true });
    try {
      const answer = await new Promise((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      });
      expect(answer).toEqual({ before: false, after: true });
    } finally {
      await w.terminate();
    }
  });
});
