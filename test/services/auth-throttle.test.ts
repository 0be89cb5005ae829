/**
 * Failed authentications are throttled (issue 33, item 6), from the attacker's side: bursts of wrong
 * tokens at each service of a real `ops serve` get 429 with Retry-After while the right token goes on
 * getting 200; guesses at one token id from other addresses are throttled by the id; the budget refills.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { AuthThrottle, AUTH_FAILURES_PER_MINUTE } from '../../src/services/auth-throttle.js';
import { createApiToken } from '../helpers/admin.js';
import { tempDir } from '../helpers/cli.js';

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = tempDir('ops-throttle-');
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir, fetchMetadata: false, linkCheck: false, pipelinesAuth: true });
});
afterAll(() => server.close());

/** A client whose connections come from another loopback address (127.0.0.N). */
const from = (n: number) => ({ localAddress: `127.0.0.${n}`, close: async () => {} });
type Client = ReturnType<typeof from>;

function status(path: string, credential: string, client: Client = from(1)): Promise<{ status: number; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + path, { headers: { authorization: `Bearer ${credential}` }, localAddress: client.localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null }));
    });
    req.on('error', reject);
    req.end();
  });
}

const services = () => [
  { name: 'bookmarks', path: '/api/v2/links', right: server.credentials.bmToken!, wrong: (i: number) => `${900 + i}|wrongwrongwrongwrongwrongwrongwrong${i}` },
  { name: 'pipelines', path: '/v0/pipelines', right: server.credentials.pipeApiKey!, wrong: (i: number) => `apikey:wrong${i}` },
  { name: 'notifications', path: '/notify/v1/webhooks', right: server.credentials.notifyApiKey!, wrong: (i: number) => `ntf_w${i}rongwrongwrongwrongwrong` },
];

describe('wrong credentials', { timeout: 60_000 }, () => {
  it.each([0, 1, 2])('a burst of wrong tokens gets 429 with Retry-After, and the right token still gets 200 (service %i)', async (index) => {
    const svc = services()[index]!;
    const agent = from(10 + index);
    expect((await status(svc.path, svc.right, agent)).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 200; i++) {
      answers.push(await status(svc.path, svc.wrong(i), agent));
      if (i % 20 === 0) expect((await status(svc.path, svc.right, agent)).status, `${svc.name}: the right token during the burst`).toBe(200);
    }
    const unauthorized = answers.filter((a) => a.status === 401).length;
    const throttled = answers.filter((a) => a.status === 429);
    // the budget, plus what it refilled while the burst ran (generous)
    expect(unauthorized, svc.name).toBeGreaterThanOrEqual(AUTH_FAILURES_PER_MINUTE);
    expect(unauthorized, svc.name).toBeLessThan(AUTH_FAILURES_PER_MINUTE + 40);
    expect(throttled.length + unauthorized, svc.name).toBe(200);
    for (const t of throttled) expect(Number(t.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await status(svc.path, svc.right, agent)).status).toBe(200);
    // another address is not held up by this one's guesses
    expect((await status(svc.path, svc.wrong(1000), from(50 + index))).status).toBe(401);
    await agent.close();
  });

  it('while an address is throttled, a valid token it has not used yet is not checked either (guesses learn nothing)', async () => {
    const agent = from(20);
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 5; i++) await status('/api/v2/links', `abc${i}`, agent);
    const fresh = createApiToken(dataDir, { user: 1, name: 'fresh' }).token;
    const r = await status('/api/v2/links', fresh, agent);
    expect(r.status).toBe(429);
    // from an address with budget left it works, and from then on everywhere
    expect((await status('/api/v2/links', fresh, from(21))).status).toBe(200);
    expect((await status('/api/v2/links', fresh, agent)).status).toBe(200);
    await agent.close();
  });

  it('wrong secrets at the admin route of ops serve user|token|key are throttled too; the right one still works', async () => {
    const { secret } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { secret: string };
    const admin = (s: string, client = from(30)) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}/admin/bookmarks/user.list`,
          { method: 'POST', headers: { authorization: `Bearer ${s}`, 'content-type': 'application/json' }, localAddress: client.localAddress, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    expect(await admin(secret)).toBe(200);
    const answers = [];
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 10; i++) answers.push(await admin(`wrong-${i}`));
    expect(answers.filter((s) => s === 401).length).toBeGreaterThanOrEqual(AUTH_FAILURES_PER_MINUTE);
    expect(answers.at(-1)).toBe(429);
    expect(await admin(secret)).toBe(200);
  });

  it('guesses at one bookmark token id from many addresses are throttled by the id', async () => {
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 5; i++) {
      const agent = from(100 + (i % 30));
      await status('/api/v2/links', `7|guess${i}`, agent);
      await agent.close();
    }
    const fresh = from(200);
    expect((await status('/api/v2/links', '7|another-guess', fresh)).status).toBe(429);
    expect((await status('/api/v2/links', '8|another-guess', fresh)).status).toBe(401);
    await fresh.close();
  });
});

describe('AuthThrottle', () => {
  it('refills the budget evenly over a minute, and counts nothing for a missing credential', () => {
    let now = 0;
    const t = new AuthThrottle({ failuresPerMinute: 6, now: () => now });
    expect(t.check('a', undefined)).toBeNull();
    for (let i = 0; i < 6; i++) {
      expect(t.check('a', `x${i}`)).toBeNull();
      t.failed('a', `x${i}`);
    }
    expect(t.check('a', 'y')).toBe(10);
    now += 5_000;
    expect(t.check('a', 'y')).toBe(5);
    now += 5_000;
    expect(t.check('a', 'y')).toBeNull();
    t.succeeded('good');
    t.failed('a', 'y');
    expect(t.check('a', 'z')).not.toBeNull();
    expect(t.check('a', 'good')).toBeNull();
    now += 60_000;
    expect(t.check('a', 'z')).toBeNull();
  });
});
