/**
 * `ops hook` through the built binary: the receiver with signatures made by openssl, sign/verify
 * exit codes, and the whole loop with `ops serve` (register, trigger, deliveries, replay, rm).
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';
import { opsIn } from '../helpers/ops-in-process.js';
import { eventually, startTestReceiver } from '../helpers/test-receiver.js';

const SECRET = 'e2e-secret-☃';
/** Each `ops` run starts a node process: generous on a busy machine. */
const CLI_TIMEOUT = 180_000;
const running: { stop(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const r of running) await r.stop().catch(() => {});
});

interface HookServe {
  url: string;
  lines: Record<string, any>[];
  stderr: () => string;
  process: ResultPromise;
  stop(signal?: NodeJS.Signals): Promise<unknown>;
}

async function startHookServe(args: string[], env: Record<string, string | undefined>): Promise<HookServe> {
  const child = execa('node', [BIN, 'hook', 'serve', '--port', '0', '--json', ...args], { env, extendEnv: false, reject: false, stdin: 'ignore', buffer: false });
  const lines: Record<string, any>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`ops hook serve did not start: ${stderr}`)), 30_000);
    rl.on('line', (line) => {
      const rec = JSON.parse(line);
      lines.push(rec);
      if (rec.event === 'ready') {
        clearTimeout(timer);
        resolve(rec.url);
      }
    });
    void child.then((r) => reject(new Error(`ops hook serve exited ${r.exitCode}: ${stderr}`)));
  });
  const h: HookServe = {
    url,
    lines,
    stderr: () => stderr,
    process: child,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return child;
    },
  };
  running.push(h);
  return h;
}

const post = async (url: string, body: string | Buffer, signature?: string) => {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature': signature } : {}) } });
  return { status: res.statusCode, body: (await res.body.json()) as any };
};

const envelope = (id: string, type = 'payment.completed') => JSON.stringify({ id, type, timestamp: '2026-01-01T00:00:00.000Z', data: { amount: 5, orderId: 'o', customerId: 'c' } });

describe('ops hook serve (built binary)', () => {
  it(
    'accepts openssl signatures, rejects bad ones with 400, de-duplicates across restarts, prints NDJSON',
    async () => {
      const dir = tempDir('ops-hook-e2e-');
      const env = isolatedEnv({ OPS_HOOK_SECRET: SECRET, XDG_STATE_HOME: dir });
      const hs = await startHookServe(['--path', '/in'], env);
      expect(hs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/in$/);
      expect(hs.lines[0]).toMatchObject({ event: 'ready', secretSource: 'env', store: join(dir, 'ops', 'hook', 'events.ndjson') });
      expect(hs.lines[0]).not.toHaveProperty('secret');

      const file = join(dir, 'body.json');
      const body = envelope('evt_e2e_1');
      writeFileSync(file, body);
      const sig = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r', file], { encoding: 'utf8' }).split(' ')[0]!;
      expect(sig).toBe(createHmac('sha256', SECRET).update(body).digest('hex'));

      expect((await post(hs.url, body, sig)).status).toBe(200);
      expect((await post(hs.url, body.replace('"amount":5', '"amount":6'), sig)).status).toBe(400);
      expect((await post(hs.url, body, createHmac('sha256', 'wrong').update(body).digest('hex'))).status).toBe(400);
      expect((await post(hs.url, body)).status).toBe(400);
      expect((await post(hs.url, body, 'xyz')).status).toBe(400);
      const dup = await post(hs.url, body, sig);
      expect(dup).toEqual({ status: 200, body: { received: true, id: 'evt_e2e_1', duplicate: true } });
      const bad = '{"id": oops';
      expect((await post(hs.url, bad, createHmac('sha256', SECRET).update(bad).digest('hex'))).status).toBe(400);

      await eventually(() => hs.lines.filter((l) => l.event === 'received').length === 2);
      const received = hs.lines.filter((l) => l.event === 'received');
      expect(received.map((r) => [r.id, r.duplicate])).toEqual([
        ['evt_e2e_1', false],
        ['evt_e2e_1', true],
      ]);
      expect(received[0]).toMatchObject({ type: 'payment.completed', verified: true, data: { amount: 5 } });
      expect(hs.stderr()).toContain('rejected a request with 400');

      await hs.stop();
      const result = await hs.process;
      expect(result.exitCode).toBe(0);
      expect(hs.lines.at(-1)).toMatchObject({ event: 'stopped', received: 2 });

      // the store survives a restart: still a duplicate
      const again = await startHookServe(['--path', '/in'], env);
      expect((await post(again.url, body, sig)).body.duplicate).toBe(true);
      // Ctrl-C: a clean stop, exit 130 as everywhere in ops
      await again.stop('SIGINT');
      expect((await again.process).exitCode).toBe(130);
      expect(again.lines.at(-1)).toMatchObject({ event: 'stopped' });
    },
    CLI_TIMEOUT,
  );

  it(
    'generates and keeps a secret when none is given; --print-secret prints it',
    async () => {
      const env = isolatedEnv({ XDG_STATE_HOME: tempDir() });
      const hs = await startHookServe([], env);
      const secret = hs.lines[0]!.secret as string;
      expect(secret).toMatch(/^whsec_/);
      expect(hs.lines[0]!.secretSource).toBe('generated');
      await hs.stop();
      const printed = await opsIn(['hook', 'serve', '--print-secret'], { env });
      expect(printed.exitCode).toBe(0);
      expect(String(printed.stdout)).toBe(secret);
    },
    CLI_TIMEOUT,
  );

  it(
    'forwards to a local URL, re-signed, and filters --events',
    async () => {
      const target = await startTestReceiver(() => ({ status: 200 }));
      running.push({ stop: () => target.close() });
      const dir = tempDir();
      writeFileSync(join(dir, 'fwd'), 'forward-secret\n');
      const env = isolatedEnv({ OPS_HOOK_SECRET: SECRET, XDG_STATE_HOME: dir });
      const hs = await startHookServe(['--forward-to', target.url, '--forward-secret-file', join(dir, 'fwd'), '--events', 'payment.completed', '--no-store'], env);
      const a = envelope('evt_f1');
      const b = envelope('evt_f2', 'user.created');
      await post(hs.url, a, createHmac('sha256', SECRET).update(a).digest('hex'));
      expect((await post(hs.url, b, createHmac('sha256', SECRET).update(b).digest('hex'))).body).toMatchObject({ ignored: true });
      await target.waitFor(1);
      expect(target.requests[0]!.body.toString()).toBe(a);
      expect(target.requests[0]!.headers['x-signature']).toBe(createHmac('sha256', 'forward-secret').update(a).digest('hex'));
      await eventually(() => hs.lines.some((l) => l.event === 'received' && l.forward?.statusCode === 200));
      expect(hs.lines.filter((l) => l.event === 'received').map((l) => l.id)).toEqual(['evt_f1']);
      await hs.stop();
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses bad flags with exit 2',
    async () => {
      const env = isolatedEnv({ OPS_HOOK_SECRET: SECRET });
      for (const args of [
        ['--port', 'x'],
        ['--max-body', 'lots'],
        ['--forward-to', 'ftp://x'],
        ['--retention', 'forever'],
        ['--path', 'nope'],
      ]) {
        const r = await opsIn(['hook', 'serve', ...args], { env });
        expect(r.exitCode, args.join(' ')).toBe(2);
      }
    },
    CLI_TIMEOUT,
  );
});

describe('ops hook sign / verify (built binary)', () => {
  it(
    'signs like openssl and verifies with exit 0 / 1 / 2',
    async () => {
      const dir = tempDir();
      const env = isolatedEnv();
      const secretFile = join(dir, 'secret');
      writeFileSync(secretFile, `${SECRET}\n`);
      const file = join(dir, 'payload.json');
      writeFileSync(file, '{"id":"evt_1","type":"user.created","data":{}}\n');
      const openssl = execFileSync('openssl', ['dgst', '-sha256', '-hmac', SECRET, '-r', file], { encoding: 'utf8' }).split(' ')[0]!;
      const signed = await opsIn(['hook', 'sign', '--secret-file', secretFile, file], { env });
      expect(signed.exitCode).toBe(0);
      expect(String(signed.stdout)).toBe(openssl);
      const viaStdin = await opsIn(['hook', 'sign', '--secret-file', secretFile, '-'], { env, inputFile: file });
      expect(String(viaStdin.stdout)).toBe(openssl);
      const header = await opsIn(['hook', 'sign', '--header', file], { env: { ...env, OPS_HOOK_SECRET: SECRET } });
      expect(String(header.stdout)).toBe(`x-signature: ${openssl}`);

      const ok = await opsIn(['hook', 'verify', '--secret-file', secretFile, '--signature', openssl, file], { env });
      expect([ok.exitCode, String(ok.stdout)]).toEqual([0, 'valid']);
      const okStdin = await opsIn(['hook', 'verify', '--secret-file', secretFile, '--signature', openssl, '-'], { env, inputFile: file });
      expect(okStdin.exitCode).toBe(0);
      const tampered = join(dir, 'tampered.json');
      writeFileSync(tampered, readFileSync(file, 'utf8').trimEnd()); // one byte less
      const no = await opsIn(['hook', 'verify', '--secret-file', secretFile, '--signature', openssl, tampered, '--json'], { env });
      expect(no.exitCode).toBe(1);
      expect(JSON.parse(String(no.stdout))).toMatchObject({ valid: false, reason: 'mismatch' });
      expect(String(no.stderr)).toContain('invalid signature');
      const malformed = await opsIn(['hook', 'verify', '--secret-file', secretFile, '--signature', 'abc', file], { env });
      expect(malformed.exitCode).toBe(1);

      for (const args of [
        ['hook', 'verify', '--secret-file', secretFile, file],
        ['hook', 'verify', '--signature', openssl, file],
        ['hook', 'verify', '--secret-file', join(dir, 'missing'), '--signature', openssl, file],
        ['hook', 'verify', '--secret-file', secretFile, '--signature', openssl, join(dir, 'missing.json')],
        ['hook', 'sign', file],
      ]) {
        const r = await opsIn(args, { env });
        expect(r.exitCode, args.join(' ')).toBe(2);
      }
    },
    CLI_TIMEOUT,
  );
});

describe('ops hook with ops serve (built binaries)', () => {
  let serve: ServeHandle;

  it(
    'register, trigger, deliveries, replay, replay --failed, rm',
    async () => {
      const state = tempDir();
      const env = isolatedEnv({ OPS_HOOK_SECRET: SECRET, XDG_STATE_HOME: state });
      serve = await startServe(['--retry-scale', '0.0001'], env);
      running.push({ stop: () => serve.stop() });
      const hs = await startHookServe([], env);

      const reg = await opsIn(['hook', 'register', hs.url, '--events', 'payment.completed,user.created', '--json'], { env });
      expect(reg.exitCode).toBe(0);
      const hook = JSON.parse(String(reg.stdout));
      expect(hook).toMatchObject({ id: expect.stringMatching(/^wh_/), url: hs.url, events: ['payment.completed', 'user.created'] });
      expect(hook.secret).toBeUndefined(); // it came from OPS_HOOK_SECRET: not echoed

      const badReg = await opsIn(['hook', 'register', hs.url, '--events', 'user.exploded'], { env });
      expect(badReg.exitCode).toBe(1);
      expect(String(badReg.stderr)).toContain('unknown event type "user.exploded"');

      const upd = await opsIn(['hook', 'update', hook.id, '--events', 'payment.completed', '--events', 'user.created', '--description', 'e2e', '--json'], { env });
      expect(upd.exitCode).toBe(0);
      expect(JSON.parse(String(upd.stdout))).toMatchObject({ id: hook.id, description: 'e2e', events: ['payment.completed', 'user.created'] });
      expect((await opsIn(['hook', 'update', hook.id], { env })).exitCode).toBe(2);
      const list = JSON.parse(String((await opsIn(['hook', 'list', '--json'], { env })).stdout));
      expect(list.map((w: { id: string }) => w.id)).toEqual([hook.id]);

      const trig = await opsIn(['hook', 'trigger', 'payment.completed', '--json'], { env });
      expect(trig.exitCode).toBe(0);
      const { event } = JSON.parse(String(trig.stdout));
      await eventually(() => hs.lines.some((l) => l.event === 'received' && l.id === event.id));
      const got = hs.lines.find((l) => l.id === event.id)!;
      expect(got).toMatchObject({ type: 'payment.completed', duplicate: false, data: event.data });

      // the receiver has it before the server has its answer: the delivery reads 'delivered' once that came
      const deliveries = await eventually(async () => {
        const list = JSON.parse(String((await opsIn(['hook', 'deliveries', '--json'], { env })).stdout)) as Array<{ id: string; status: string }>;
        return list.length === 1 && list[0]!.status !== 'pending' ? list : null;
      });
      expect(deliveries[0]).toMatchObject({ status: 'delivered', eventId: event.id, attemptCount: 1 });
      const one = JSON.parse(String((await opsIn(['hook', 'deliveries', deliveries[0].id, '--json'], { env })).stdout));
      expect(one.attempts[0]).toMatchObject({ statusCode: 200, outcome: 'success' });

      // replay from the receiver's store: same id, so the receiver reports a duplicate
      const replayed = await opsIn(['hook', 'replay', '--to', hs.url, '--id', event.id, '--json'], { env });
      expect(replayed.exitCode).toBe(0);
      expect(JSON.parse(String(replayed.stdout))).toMatchObject([{ id: event.id, statusCode: 200, ok: true }]);
      await eventually(() => hs.lines.some((l) => l.event === 'received' && l.id === event.id && l.duplicate));

      // replay from a file of envelopes to another receiver
      const other = await startTestReceiver(() => ({ status: 200 }));
      running.push({ stop: () => other.close() });
      const file = join(state, 'saved.ndjson');
      writeFileSync(file, hs.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const fromFile = await opsIn(['hook', 'replay', '--to', other.url, '--from', file, '--type', 'payment.completed'], { env });
      expect(fromFile.exitCode).toBe(0);
      expect(other.requests).toHaveLength(2); // the original and its duplicate line
      expect(other.requests[0]!.headers['x-signature']).toBe(createHmac('sha256', SECRET).update(other.requests[0]!.body).digest('hex'));
      const refused = await startTestReceiver(() => ({ status: 500 }));
      running.push({ stop: () => refused.close() });
      expect((await opsIn(['hook', 'replay', '--to', refused.url, '--id', event.id], { env })).exitCode).toBe(1);
      expect((await opsIn(['hook', 'replay', '--id', event.id], { env })).exitCode).toBe(2);

      // a failed delivery, redelivered with replay --failed once the receiver is back
      const flaky = await startTestReceiver(() => ({ status: 503 }));
      running.push({ stop: () => flaky.close() });
      await opsIn(['hook', 'register', flaky.url, '--events', 'user.created'], { env });
      await opsIn(['hook', 'trigger', 'user.created'], { env });
      // poll the API directly (an ops process per poll would be slow)
      const key = String((await opsIn(['config', 'get', 'notify.api-key', '--show-secret'], { env })).stdout);
      const failedCount = async () => {
        const r = await request(`${serve.url}/notify/v1/deliveries?status=failed`, { headers: { authorization: `Bearer ${key}` } });
        return ((await r.body.json()) as { total: number }).total;
      };
      await eventually(async () => (await failedCount()) === 1, 30_000);
      flaky.setBehaviour(() => ({ status: 200 }));
      const again = await opsIn(['hook', 'replay', '--failed', '--json'], { env });
      expect(again.exitCode).toBe(0);
      expect(JSON.parse(String(again.stdout))).toHaveLength(1);
      await eventually(async () => (await failedCount()) === 0);
      // no longer failed as soon as it is queued again: the redelivery itself arrives a moment later
      await eventually(() => flaky.requests.length >= 6);
      expect(flaky.requests).toHaveLength(6);

      // rm without a terminal needs --yes
      const noYes = await opsIn(['hook', 'rm', hook.id], { env });
      expect(noYes.exitCode).toBe(2);
      expect((await opsIn(['hook', 'rm', hook.id, '--yes'], { env })).exitCode).toBe(0);
      expect((await opsIn(['hook', 'rm', hook.id, '--yes'], { env })).exitCode).toBe(1);

      const dash = await opsIn(['hook', 'dashboard'], { env });
      expect(String(dash.stdout)).toMatch(new RegExp(`^${serve.url}/notify/dashboard\\?code=[\\w-]+$`));
      expect((await request(String(dash.stdout))).statusCode).toBe(303);
      await hs.stop();
    },
    CLI_TIMEOUT,
  );

  it(
    'without an API key the commands fail with exit 4',
    async () => {
      const env = isolatedEnv();
      const s2 = await startServe([], env);
      running.push({ stop: () => s2.stop() });
      const r = await opsIn(['hook', 'list'], { env: { ...env, OPS_NOTIFY_API_KEY: 'ntf_wrong' } });
      expect(r.exitCode).toBe(4);
      expect(String(r.stderr)).toContain('not authenticated');
    },
    CLI_TIMEOUT,
  );
});
