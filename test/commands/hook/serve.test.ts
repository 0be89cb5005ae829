/** `ops hook serve` in-process: terminal vs piped output, ready line, stop. */
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { startHookServer } from '../../../src/commands/hook/serve.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';
import { eventually } from '../../helpers/test-receiver.js';

const SECRET = 'unit-secret';
const body = JSON.stringify({ id: 'evt_unit', type: 'payment.completed', timestamp: '2026-01-01T00:00:00.000Z', data: { amount: 1 } });
const sig = createHmac('sha256', SECRET).update(body).digest('hex');

function ctxFor(opts: { tty?: boolean; json?: boolean }) {
  const env = { OPS_CONFIG_DIR: tempDir(), XDG_STATE_HOME: tempDir(), OPS_HOOK_SECRET: SECRET };
  const io = memoryIo({ tty: opts.tty, env });
  return { ctx: new Context({ json: opts.json }, env, io), io, env };
}

const post = (url: string, b: string, s?: string) =>
  request(url, { method: 'POST', body: b, headers: { 'content-type': 'application/json', ...(s ? { 'x-signature': s } : {}) } }).then(async (r) => ({
    status: r.statusCode,
    body: await r.body.json(),
  }));

describe('ops hook serve (in process)', () => {
  it('prints a readable line per event on a terminal, the ready text and rejections on stderr', async () => {
    const { ctx, io } = ctxFor({ tty: true });
    const s = await startHookServer(ctx, { port: '0' });
    expect(io.stderrText()).toContain(`Ready: receiving webhooks at ${s.url}`);
    expect(io.stderrText()).toContain('signing secret from OPS_HOOK_SECRET');
    expect((await post(s.url, body, sig)).status).toBe(200);
    expect((await post(s.url, body, sig)).body).toMatchObject({ duplicate: true });
    expect((await post(s.url, body)).status).toBe(400);
    await eventually(() => io.stdoutText().split('\n').filter(Boolean).length === 2);
    const [first, second] = io.stdoutText().split('\n');
    expect(first).toMatch(/^\d\d:\d\d:\d\d {2}← payment\.completed {2}evt_unit$/);
    expect(second).toContain('duplicate');
    expect(io.stderrText()).toContain('rejected a request with 400: invalid signature: missing x-signature header');
    await s.stop();
  });

  it('prints NDJSON when piped, and with --json a ready and a stopped line', async () => {
    const { ctx, io } = ctxFor({ json: true });
    const s = await startHookServer(ctx, { port: '0', path: '/hooks', events: ['payment.completed'] });
    await post(s.url, body, sig);
    await eventually(() => io.stdoutText().split('\n').filter(Boolean).length === 2);
    await s.stop();
    const lines = io
      .stdoutText()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ event: 'ready', url: s.url, path: '/hooks', secretSource: 'env', events: ['payment.completed'] });
    expect(lines[1]).toMatchObject({ event: 'received', id: 'evt_unit', type: 'payment.completed', verified: true, duplicate: false, data: { amount: 1 } });
    expect(lines[2]).toMatchObject({ event: 'stopped', received: 1 });
  });

  it('a secret file wins over the environment; a missing one is a usage error', async () => {
    const { ctx } = ctxFor({ json: true });
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/s`, 'from-file\n');
    const s = await startHookServer(ctx, { port: '0', secretFile: `${dir}/s`, store: false });
    expect(s.secret).toMatchObject({ value: 'from-file', source: 'file' });
    await s.stop();
    await expect(startHookServer(ctx, { port: '0', secretFile: `${dir}/nope` })).rejects.toMatchObject({ exitCode: 2 });
  });
});
