/**
 * Every event type of description 3 (and the bookmark automation types) produced by the real
 * actions of built `ops` binaries against `ops serve`: users through `ops serve user add|update|rm`,
 * links and tags through the bookmark API, payments through `ops hook trigger`. Each delivery's
 * x-signature is checked with openssl over the exact bytes received.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ops, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';
import { eventually, startTestReceiver, type TestReceiver } from '../helpers/test-receiver.js';

const SECRET = 'events-e2e-secret';
const CLI_TIMEOUT = 180_000;
let serve: ServeHandle | undefined;
let rcv: TestReceiver | undefined;
afterAll(async () => {
  await serve?.stop().catch(() => {});
  await rcv?.close();
});

describe('every event type from real actions (built binaries)', () => {
  it(
    'user.created, user.updated, user.deleted, link.created, link.updated, tag.created, payment.completed, payment.failed',
    async () => {
      const env = isolatedEnv({ OPS_HOOK_SECRET: SECRET });
      serve = await startServe(['--retry-scale', '0.001', '--no-link-check', '--no-metadata'], env);
      const d = ['--data-dir', serve.dataDir];
      rcv = await startTestReceiver(() => ({ status: 200 }));
      const reg = await ops(['hook', 'register', rcv.url, '--events', '*', '--json'], { env });
      expect(reg.exitCode).toBe(0);

      const add = await ops(['serve', 'user', 'add', '--name', 'Eve', '--email', 'eve@example.com', '--json', ...d], { env });
      expect(add.exitCode).toBe(0);
      const { user, token } = JSON.parse(String(add.stdout));
      const upd = await ops(['serve', 'user', 'update', 'eve@example.com', '--name', 'Eve E.', ...d], { env });
      expect(upd.exitCode, String(upd.stderr)).toBe(0);
      expect((await ops(['serve', 'user', 'update', 'eve@example.com', ...d], { env })).exitCode).toBe(2);

      const bm = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
        const r = await request(`${serve!.url}/api/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        const json = (await r.body.json()) as { id: number };
        expect(r.statusCode, JSON.stringify(json)).toBeLessThan(300);
        return json;
      };
      const link = await bm('POST', '/links', { url: 'http://127.0.0.1:9/page', title: 'A page', tags: ['e2e'] });
      await bm('PATCH', `/links/${link.id}`, { title: 'A better page' });

      expect((await ops(['hook', 'trigger', 'payment.completed'], { env })).exitCode).toBe(0);
      const failed = await ops(['hook', 'trigger', 'payment.failed', '--data', '{"amount":100,"orderId":"o1","customerId":"c1","error":"card_declined"}'], { env });
      expect(failed.exitCode).toBe(0);
      // after the link events, so that the user's links and tags are gone with it
      expect((await ops(['serve', 'user', 'rm', 'eve@example.com', '--yes', ...d], { env })).exitCode).toBe(0);

      const types = ['user.created', 'user.updated', 'link.created', 'link.updated', 'tag.created', 'payment.completed', 'payment.failed', 'user.deleted'];
      const byType = () => new Map(rcv!.requests.map((r) => [JSON.parse(r.body.toString()).type as string, r]));
      await eventually(() => types.every((t) => byType().has(t)), 30_000);

      const dir = tempDir('ops-events-');
      for (const [i, r] of rcv.requests.entries()) {
        const file = join(dir, `body-${i}.json`);
        writeFileSync(file, r.body);
        const sig = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r', file], { encoding: 'utf8' }).split(' ')[0]!;
        expect(r.headers['x-signature']).toBe(sig);
        const env = JSON.parse(r.body.toString());
        expect(Object.keys(env)).toEqual(['id', 'type', 'timestamp', 'data']);
        expect(new Date(env.timestamp).toISOString()).toBe(env.timestamp);
      }
      const data = (t: string) => JSON.parse(byType().get(t)!.body.toString()).data;
      const id = String(user.id);
      expect(data('user.created')).toEqual({ id, email: 'eve@example.com', name: 'Eve', createdAt: expect.any(String) });
      expect(data('user.updated')).toEqual({ id, email: 'eve@example.com', name: 'Eve E.', createdAt: expect.any(String) });
      expect(data('user.deleted')).toEqual({ id });
      expect(data('link.created')).toMatchObject({ id: link.id, title: 'A page' });
      expect(data('link.updated')).toMatchObject({ id: link.id, title: 'A better page' });
      expect(data('tag.created')).toMatchObject({ name: 'e2e' });
      expect(data('payment.completed')).toMatchObject({ amount: expect.any(Number), orderId: expect.any(String), customerId: expect.any(String) });
      expect(data('payment.failed')).toEqual({ amount: 100, orderId: 'o1', customerId: 'c1', error: 'card_declined' });
    },
    CLI_TIMEOUT,
  );
});
