/** `ops serve` as a process: listening line, health, the local profile, graceful stop, bad flags. */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { isolatedEnv, ops, startServe } from '../helpers/cli.js';

describe('ops serve', () => {
  it('prints a JSON listening line, serves /health, writes the local profile and stops cleanly on SIGTERM', async () => {
    const serve = await startServe();
    try {
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${serve.url}/health`);
      const body = (await health.json()) as { status: string; services: Record<string, { status: string }> };
      expect(Object.keys(body.services).sort()).toEqual(['bookmarks', 'notifications', 'pipelines']);
      expect(['ok', 'degraded', 'down']).toContain(body.status);
      const profile = await ops(['config', 'list', '--json'], { env: serve.env });
      const parsed = JSON.parse(profile.stdout) as { profile: string; settings: { key: string; value: string; source: string }[] };
      expect(parsed.profile).toBe('local');
      const value = (k: string) => parsed.settings.find((s) => s.key === k)!;
      expect(value('bm.url')).toMatchObject({ value: serve.url, source: 'profile' });
      expect(value('pipe.url')).toMatchObject({ value: serve.url, source: 'profile' });
      expect(value('notify.url')).toMatchObject({ value: `${serve.url}/notify`, source: 'profile' });
    } finally {
      await serve.stop('SIGTERM');
    }
    const result = await serve.process;
    expect(result.exitCode).toBe(0);
    expect(serve.lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ event: 'stopped', signal: 'SIGTERM' }));
  });

  it('also stops cleanly on SIGINT (Ctrl-C), with exit code 130 as everywhere in ops', async () => {
    const serve = await startServe();
    await serve.stop('SIGINT');
    const result = await serve.process;
    expect(result.exitCode).toBe(130);
    expect(serve.lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ event: 'stopped', signal: 'SIGINT' }));
  });

  it('refuses a port in use with a clear message, and a bad port as a usage error', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const env = isolatedEnv();
      const busy = await ops(['serve', '--port', String(port)], { env });
      expect(busy.exitCode).toBe(1);
      expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      const bad = await ops(['serve', '--port', 'eighty'], { env });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain('--port');
    } finally {
      blocker.close();
    }
  });
});
