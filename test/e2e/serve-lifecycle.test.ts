/**
 * `ops serve` as scripts drive it, with real processes (the built binary): --detach, status, a second server
 * refused with the holder's pid and URL, logs, reset refused while running, kill -9 and a new server taking the
 * data dir over, stop; two servers started at the same instant (one runs, the other names it); a detached start
 * that fails says why; the foreground --ready-file.
 */
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BIN, isolatedEnv, ops, startServe, tempDir } from '../helpers/cli.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(fn: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ops serve for scripts', () => {
  it('detach, status, second server refused, logs, reset refused, kill -9 then a new server takes over, stop, reset', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-lifecycle-e2e-');
    const dir = ['--data-dir', dataDir];
    const pids: number[] = [];
    try {
      const detached = await ops(['serve', '--detach', '--port', '0', '--json', ...dir], { env });
      expect(detached.exitCode, detached.stderr).toBe(0);
      const info = JSON.parse(detached.stdout) as { pid: number; url: string; profile: string; log: string; health: Record<string, string> };
      pids.push(info.pid);
      expect(info).toMatchObject({ profile: 'local', log: join(dataDir, 'serve.log'), health: { bookmarks: 'ok', pipelines: 'ok', notifications: 'ok' } });
      expect((await fetch(`${info.url}/health`)).status).toBe(200);

      const status = await ops(['serve', 'status', '--json', ...dir], { env });
      expect(status.exitCode).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: info.pid, url: info.url });

      const second = await ops(['serve', '--port', '0', ...dir], { env });
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain(`pid ${info.pid}`);
      expect(second.stderr).toContain(info.url);

      const logs = await ops(['serve', 'logs', ...dir], { env });
      expect(logs.exitCode).toBe(0);
      expect(logs.stdout).toContain(`ops serve listening on ${info.url}`);

      expect((await ops(['serve', 'reset', '--yes', ...dir], { env })).exitCode).toBe(1);
      expect(existsSync(join(dataDir, 'bookmarks'))).toBe(true);

      // a killed server leaves its lock behind for no one: the next one starts
      process.kill(info.pid, 'SIGKILL');
      await until(() => !alive(info.pid), 'the killed server to be gone');
      expect((await ops(['serve', 'status', ...dir], { env })).exitCode).toBe(3);
      const again = await ops(['serve', '--detach', '--port', '0', '--json', ...dir], { env });
      expect(again.exitCode, again.stderr).toBe(0);
      const next = JSON.parse(again.stdout) as { pid: number; url: string };
      pids.push(next.pid);
      expect(next.pid).not.toBe(info.pid);
      // the previous start's log is kept beside the new one
      expect(readFileSync(join(dataDir, 'serve.log.1'), 'utf8')).toContain(info.url);

      // out of time (exit 8) while it stops; a second stop waits for it, or finds it stopped (never signals again)
      const impatient = await ops(['--timeout', '0', 'serve', 'stop', ...dir], { env });
      expect(impatient.exitCode, impatient.stderr).toBe(8);
      expect(impatient.stderr).toContain('still stopping');
      const stop = await ops(['serve', 'stop', '--json', ...dir], { env });
      expect(stop.exitCode, stop.stderr).toBe(0);
      const stopped = JSON.parse(stop.stdout) as { stopped: boolean; pid?: number };
      if (stopped.stopped) expect(stopped.pid).toBe(next.pid);
      await until(() => !alive(next.pid), 'the server to exit');
      expect((await ops(['serve', 'status', ...dir], { env })).exitCode).toBe(3);
      const log = (await ops(['serve', 'logs', ...dir], { env })).stdout;
      expect(log).toMatch(/SIGTERM: shutting down/);
      expect(log).not.toMatch(/forced exit/);

      expect((await ops(['serve', 'reset', '--yes', ...dir], { env })).exitCode).toBe(0);
      expect(existsSync(join(dataDir, 'bookmarks'))).toBe(false);
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);

  it('two servers started at the same instant: one serves, the other exits 1 naming it', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-lifecycle-e2e-');
    const start = () => execa('node', [BIN, 'serve', '--port', '0', '--json', '--data-dir', dataDir], { env, extendEnv: false, reject: false, stdin: 'ignore', buffer: true });
    const children = [start(), start()];
    try {
      const loser = await Promise.race(children.map((c, i) => c.then((r) => ({ r, i }))));
      expect(loser.r.exitCode).toBe(1);
      const winner = children[1 - loser.i]!;
      expect(loser.r.stderr).toContain(`pid ${winner.pid}`);
      await until(() => existsSync(join(dataDir, 'server.json')) && JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')).state === 'running', 'the winner to run');
      const status = await ops(['serve', 'status', '--json', '--data-dir', dataDir], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: winner.pid });
      winner.kill('SIGTERM');
      expect((await winner).exitCode).toBe(0);
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }
  }, 60_000);

  it('a detached start that fails exits 1 with the reason from its log; nothing is left running', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-lifecycle-e2e-');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const r = await ops(['serve', '--detach', '--port', String((busy.address() as { port: number }).port), '--data-dir', dataDir], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/exited with code 1 before it was ready/);
      expect(r.stderr).toMatch(/already in use/);
      expect((await ops(['serve', 'status', '--data-dir', dataDir], { env })).exitCode).toBe(3);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  }, 60_000);

  it('Ctrl-C while --detach waits gives the start up: exit 130, and the background server is stopped', async () => {
    const env = isolatedEnv();
    const dataDir = tempDir('ops-lifecycle-e2e-');
    const parent = execa('node', [BIN, 'serve', '--detach', '--port', '0', '--data-dir', dataDir], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    try {
      // the log is opened just before the background server is spawned
      await until(() => existsSync(join(dataDir, 'serve.log')), 'the background start');
      parent.kill('SIGINT');
      expect((await parent).exitCode).toBe(130);
      await until(() => !existsSync(join(dataDir, 'server.json')), 'the background server to stop');
      expect((await ops(['serve', 'status', '--data-dir', dataDir], { env })).exitCode).toBe(3);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 60_000);

  it('the foreground --ready-file appears once every service answers and goes when the server stops', async () => {
    const file = join(tempDir('ops-ready-'), 'ready.json');
    const serve = await startServe(['--ready-file', file]);
    try {
      await until(() => existsSync(file), 'the ready file');
      const ready = JSON.parse(readFileSync(file, 'utf8')) as { event: string; url: string; pid: number; dataDir: string };
      expect(ready).toMatchObject({ event: 'ready', url: serve.url, pid: serve.process.pid, dataDir: serve.dataDir });
      expect((await fetch(`${ready.url}/health`)).status).toBe(200);
    } finally {
      await serve.stop('SIGTERM');
    }
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});
