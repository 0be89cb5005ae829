/**
 * Secrets never reach a log line, and the notification dashboard does not leak its key (issue 33, item 5):
 * the whole server with `--log-requests` and its JSON log on, captured and searched for every secret the
 * requests carried; the dashboard's headers; one-time dashboard links (`ops hook dashboard` in process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { redactUrl } from '../../src/services/redact.js';
import { LinkCodes, LINK_CODE_TTL_MS } from '../../src/services/notifications/dashboard.js';
import { runHookDashboard } from '../../src/commands/hook/dashboard.js';
import { Context } from '../../src/context.js';
import { memoryIo } from '../helpers/memory-io.js';
import { tempDir } from '../helpers/cli.js';

let server: RunningServer;
const requestLines: string[] = [];
const jsonLines: string[] = [];
let previousLevel: string | undefined;

beforeAll(async () => {
  previousLevel = process.env.OPS_LOG_LEVEL;
  process.env.OPS_LOG_LEVEL = 'debug';
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: tempDir('ops-secrets-'),
    fetchMetadata: false,
    linkCheck: false,
    pipelinesAuth: true,
    requestLog: (l) => requestLines.push(l),
    logStream: { write: (l) => void jsonLines.push(l) },
  });
});
afterAll(async () => {
  await server.close();
  if (previousLevel === undefined) delete process.env.OPS_LOG_LEVEL;
  else process.env.OPS_LOG_LEVEL = previousLevel;
});

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(server.url + path, { method, headers, redirect: 'manual' });

describe('secrets in logs', () => {
  it('no log line shows a key, token, code or cookie that a request carried, in the URL or in a header', async () => {
    const { bmToken, notifyApiKey, pipeApiKey } = server.credentials;
    const secrets = [bmToken!, notifyApiKey!, pipeApiKey!, 'wrong-token-d41d8cd98f00b204', 'ntf_guessed_0123456789abcdef'];
    const link = (await (await get('/notify/dashboard/links', { authorization: `Bearer ${notifyApiKey}` }, 'POST')).json()) as { code: string; url: string };
    secrets.push(link.code);
    const answers = [
      await get(`/notify/dashboard?key=${encodeURIComponent(notifyApiKey!)}&status=failed`),
      await get(`/notify/dashboard?code=${link.code}`),
      await get(`/notify/dashboard?key=${secrets[4]}`),
      await get('/notify/dashboard', { cookie: `ops_notify_key=${encodeURIComponent(notifyApiKey!)}` }),
      await get('/notify/v1/webhooks', { authorization: `Bearer ${notifyApiKey}` }),
      await get('/api/v2/links', { authorization: `Bearer ${bmToken}` }),
      await get(`/api/v2/links?api_token=${bmToken}&page=1`),
      await get('/api/v2/links', { authorization: `Bearer ${secrets[3]}` }),
      await get('/v0/pipelines', { authorization: `Bearer ${pipeApiKey}` }),
      await get(`/v0/pipelines?access_token=${pipeApiKey}`),
      await get('/v0/pipelines', { authorization: `Bearer ${secrets[3]}` }),
    ];
    expect(answers.map((a) => a.status)).toEqual([303, 303, 401, 200, 200, 200, 401, 401, 200, 401, 401]);
    expect(requestLines.length).toBeGreaterThanOrEqual(answers.length);
    expect(jsonLines.length).toBeGreaterThan(answers.length);
    for (const line of [...requestLines, ...jsonLines]) for (const secret of secrets) expect(line).not.toContain(secret);
    // the lines are there, with what may be shown
    expect(requestLines.some((l) => l.includes('GET /notify/dashboard?key=[REDACTED]&status=failed 303'))).toBe(true);
    expect(requestLines.some((l) => l.includes('GET /api/v2/links?api_token=[REDACTED]&page=1 401'))).toBe(true);
    expect(jsonLines.some((l) => l.includes('/notify/dashboard?code=[REDACTED]'))).toBe(true);
  });

  it('redactUrl blanks the values of secret parameters and keeps the rest', () => {
    expect(redactUrl('/a/b')).toBe('/a/b');
    expect(redactUrl('/x?key=1&status=ok&API_KEY=2&Access-Token=3&code=4&secret=5&password=6&q=key')).toBe(
      '/x?key=[REDACTED]&status=ok&API_KEY=[REDACTED]&Access-Token=[REDACTED]&code=[REDACTED]&secret=[REDACTED]&password=[REDACTED]&q=key',
    );
    expect(redactUrl('/x?%6Bey=1')).toBe('/x?%6Bey=[REDACTED]');
    expect(redactUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=[REDACTED]');
  });
});

describe('the dashboard', () => {
  it('answers every request with Referrer-Policy: no-referrer and Cache-Control: no-store', async () => {
    const key = server.credentials.notifyApiKey!;
    const link = await get('/notify/dashboard/links', { authorization: `Bearer ${key}` }, 'POST');
    const answers = [
      link,
      await get(`/notify/dashboard?key=${key}`),
      await get('/notify/dashboard', { authorization: `Bearer ${key}` }),
      await get('/notify/dashboard'),
      await get('/notify/dashboard?code=nope'),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 303, 200, 401, 401]);
    for (const a of answers) {
      expect(a.headers.get('referrer-policy')).toBe('no-referrer');
      expect(a.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('a one-time link works once: the code is exchanged for the session cookie, and refused the second time', async () => {
    const key = server.credentials.notifyApiKey!;
    expect((await get('/notify/dashboard/links', {}, 'POST')).status).toBe(401);
    expect((await get('/notify/dashboard/links', { authorization: 'Bearer ntf_wrong' }, 'POST')).status).toBe(401);
    const link = (await (await get('/notify/dashboard/links', { authorization: `Bearer ${key}` }, 'POST')).json()) as { code: string; url: string };
    expect(link.url).toBe(`/notify/dashboard?code=${link.code}`);
    expect(link.url).not.toContain(key);
    const first = await get(link.url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/notify/dashboard');
    const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
    expect((await get('/notify/dashboard', { cookie })).status).toBe(200);
    expect((await get(link.url)).status).toBe(401);
  });

  it('codes expire after LINK_CODE_TTL_MS', () => {
    let now = 1_000_000;
    const codes = new LinkCodes(() => now);
    const a = codes.issue('k1');
    const b = codes.issue('k2');
    now += LINK_CODE_TTL_MS - 1;
    expect(codes.redeem(a.code)).toBe('k1');
    now += 1;
    expect(codes.redeem(b.code)).toBeUndefined();
    expect(codes.redeem('unknown')).toBeUndefined();
  });

  it('`ops hook dashboard` prints a one-time link that does not carry the key', async () => {
    const key = server.credentials.notifyApiKey!;
    const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_NOTIFY_URL: `${server.url}/notify`, OPS_NOTIFY_API_KEY: key };
    const io = memoryIo({ env });
    await runHookDashboard({}, new Context({ json: true }, env, io));
    const out = JSON.parse(io.stdoutText());
    expect(out.one_time).toBe(true);
    expect(out.url).toMatch(new RegExp(`^${server.url}/notify/dashboard\\?code=[\\w-]+$`));
    expect(out.url).not.toContain(key);
    const opened = await fetch(out.url, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('set-cookie')).toContain('HttpOnly');
  });
});
