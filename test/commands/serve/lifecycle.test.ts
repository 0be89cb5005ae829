/**
 * `ops serve status|stop|logs|reset` and the refusal of a second `ops serve`, run in this process against a
 * server started in this process (startServer) on a temporary data dir. The background forms (--detach, stop of a
 * running server, kill -9) run real processes in test/e2e/serve-lifecycle.test.ts.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import { lockDataDir } from '../../../src/services/data-dir-lock.js';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(dataDir = tempDir('ops-lifecycle-')): Promise<{ server: RunningServer; dataDir: string }> {
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, linkCheck: false, fetchMetadata: false });
  servers.push(server);
  return { server, dataDir };
}

const env = isolatedEnv();

describe('a second ops serve on a data dir in use', () => {
  test('exits 1 at once, naming the pid and URL of the server that holds it; the running one is untouched', async () => {
    const { server, dataDir } = await serve();
    const second = await opsIn(['serve', '--port', '0', '--data-dir', dataDir], { env });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`pid ${process.pid}`);
    expect(second.stderr).toContain(server.url);
    expect(second.stderr).toContain(`ops serve stop --data-dir ${dataDir}`);
    expect(second.stdout).toBe('');
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  test('--detach is refused the same way before anything starts; --detach with --ready-file is a usage error', async () => {
    const { server, dataDir } = await serve();
    const detach = await opsIn(['serve', '--detach', '--data-dir', dataDir], { env });
    expect(detach.exitCode).toBe(1);
    expect(detach.stderr).toContain(server.url);
    expect(existsSync(join(dataDir, 'serve.log'))).toBe(false);
    expect((await opsIn(['serve', '--detach', '--ready-file', join(dataDir, 'r.json'), '--data-dir', tempDir()], { env })).exitCode).toBe(2);
  });
});

describe('ops serve status', () => {
  test('not running: exit 3, says so (text and --json)', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const text = await opsIn(['serve', 'status', '--data-dir', dataDir], { env });
    expect(text).toMatchObject({ exitCode: 3, stdout: `not running (data dir ${dataDir})` });
    const json = await opsIn(['serve', 'status', '--json', '--data-dir', dataDir], { env });
    expect(json.exitCode).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({ running: false, state: 'not running', dataDir });
  });

  test('running: exit 0 with pid, URL, data dir and each service ok; `ops serve --data-dir D status` reads the same', async () => {
    const { server, dataDir } = await serve();
    const json = await opsIn(['serve', 'status', '--json', '--data-dir', dataDir], { env });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      running: true,
      state: 'running',
      pid: process.pid,
      url: server.url,
      dataDir,
      services: { bookmarks: 'ok', pipelines: 'ok', notifications: 'ok' },
    });
    const text = await opsIn(['serve', '--data-dir', dataDir, 'status'], { env });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^running\\s+pid ${process.pid}, ${server.url.replace(/\./g, '\\.')}`));
    expect(text.stdout).toMatch(/pipelines\s+ok/);
  });

  test('a lock held by something that has not named itself (a server starting): exit 1, state starting', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const lock = lockDataDir(dataDir);
    try {
      const r = await opsIn(['serve', 'status', '--json', '--data-dir', dataDir], { env });
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ running: true, state: 'starting', error: 'not listening yet' });
    } finally {
      lock.release();
    }
  });
});

describe('ops serve stop', () => {
  test('with no server: exit 0, says so, and --json says it stopped nothing', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const r = await opsIn(['serve', 'stop', '--json', '--data-dir', dataDir], { env });
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ stopped: false, dataDir });
    expect((await opsIn(['serve', 'stop', '--data-dir', dataDir], { env })).stderr).toContain(`no ops serve runs on ${dataDir}`);
  });
});

describe('ops serve stop of a holder in another process', () => {
  /** A process standing in for a server: it sleeps; the test holds the lock for it and names it in server.json. */
  async function standIn(dataDir: string, state: 'running' | 'stopping') {
    const { processStart } = await import('../../../src/services/server-file.js');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((r) => child.once('spawn', r));
    const lock = lockDataDir(dataDir);
    // the lock goes with the process, as a server's does
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => (lock.release(), r(signal))));
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: child.pid, pid_start: processStart(child.pid!), state, url: 'http://127.0.0.1:1', secret: 's', started_at: 'now' }));
    return { child, exited, lock };
  }

  test('SIGTERM to the holder, then waits until it let go of the data dir: exit 0, stopped', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const { child, exited } = await standIn(dataDir, 'running');
    const r = await opsIn(['serve', 'stop', '--json', '--data-dir', dataDir], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stopped: true, pid: child.pid });
    expect(await exited).toBe('SIGTERM');
  });

  test('a holder already stopping is not signalled again, only waited for: exit 8 when the wait runs out', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const { child, exited } = await standIn(dataDir, 'stopping');
    try {
      const r = await opsIn(['--timeout', '0.5', 'serve', 'stop', '--data-dir', dataDir], { env });
      expect(r.exitCode).toBe(8);
      expect(r.stderr).toContain(`pid ${child.pid}`);
      expect(child.exitCode === null && child.signalCode === null).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});

describe('ops serve reset', () => {
  function populated(): string {
    const dataDir = tempDir('ops-lifecycle-');
    for (const d of ['bookmarks', 'pipelines', 'notifications', 'files', 'mine']) mkdirSync(join(dataDir, d));
    for (const f of ['bookmarks/bookmarks.db', 'files/in.csv', 'serve.log', 'serve.log.1', 'notes.txt', 'mine/keep']) writeFileSync(join(dataDir, f), 'x');
    return dataDir;
  }

  test('refused while a server runs (exit 1, its pid and URL), nothing removed', async () => {
    const { server, dataDir } = await serve();
    const before = readdirSync(dataDir).sort();
    const r = await opsIn(['serve', 'reset', '--yes', '--data-dir', dataDir], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(server.url);
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  test('without a terminal and without --yes: exit 2, nothing removed', async () => {
    const dataDir = populated();
    const before = readdirSync(dataDir).sort();
    const r = await opsIn(['serve', 'reset', '--data-dir', dataDir], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(readdirSync(dataDir).sort()).toEqual(before);
  });

  test('--yes removes what ops serve keeps and names what it leaves; a server starts on the emptied dir', async () => {
    const dataDir = populated();
    const r = await opsIn(['serve', 'reset', '--yes', '--json', '--data-dir', dataDir], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ reset: true, dataDir, removed: ['bookmarks', 'files', 'notifications', 'pipelines', 'serve.log', 'serve.log.1'], kept: ['mine', 'notes.txt'] });
    expect(readdirSync(dataDir).sort()).toEqual(['mine', 'notes.txt', 'serve.lock']);
    await serve(dataDir);
  });

  test('a data dir that does not exist: nothing to do, exit 0', async () => {
    const r = await opsIn(['serve', 'reset', '--yes', '--data-dir', join(tempDir(), 'absent')], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('nothing to reset');
  });
});

describe('ops serve logs', () => {
  test('no log (no server was detached on the data dir): exit 3 with how to start one', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const r = await opsIn(['serve', 'logs', '--data-dir', dataDir], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('ops serve --detach');
  });

  test('a server running in the foreground has no log: exit 1, saying where its output goes', async () => {
    const { dataDir } = await serve();
    const r = await opsIn(['serve', 'logs', '--data-dir', dataDir], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`(pid ${process.pid}) was not started with --detach`);
  });

  test('the whole log, its last N lines (with and without a final newline), and a bad --lines', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const log = join(dataDir, 'serve.log');
    writeFileSync(log, 'one\ntwo\nthree\n');
    expect((await opsIn(['serve', 'logs', '--data-dir', dataDir], { env })).stdout).toBe('one\ntwo\nthree');
    expect((await opsIn(['serve', 'logs', '-n', '2', '--data-dir', dataDir], { env })).stdout).toBe('two\nthree');
    expect((await opsIn(['serve', 'logs', '-n', '0', '--data-dir', dataDir], { env })).stdout).toBe('');
    expect((await opsIn(['serve', 'logs', '-n', '9', '--data-dir', dataDir], { env })).stdout).toBe('one\ntwo\nthree');
    appendFileSync(log, 'four');
    expect((await opsIn(['serve', 'logs', '-n', '2', '--data-dir', dataDir], { env })).stdout).toBe('three\nfour');
    expect((await opsIn(['serve', 'logs', '-n', 'x', '--data-dir', dataDir], { env })).exitCode).toBe(2);
  });

  test('--follow prints what is appended while the data dir is held, and ends once it is free', async () => {
    const dataDir = tempDir('ops-lifecycle-');
    const log = join(dataDir, 'serve.log');
    writeFileSync(log, 'started\n');
    const lock = lockDataDir(dataDir);
    const following = opsIn(['serve', 'logs', '--follow', '--data-dir', dataDir], { env });
    await new Promise((r) => setTimeout(r, 300));
    appendFileSync(log, 'a request\n');
    await new Promise((r) => setTimeout(r, 300));
    appendFileSync(log, 'stopped');
    lock.release();
    const r = await following;
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('started\na request\nstopped');
  });
});

describe('ops serve --detach', () => {
  test('runs the same command line in the background without --detach/-d and --json, with its ready file', async () => {
    const { backgroundArgs } = await import('../../../src/commands/serve/detach.js');
    expect(backgroundArgs(['--json', 'serve', '-d', '--port', '0', '--detach', '--data-dir', 'x'], '/tmp/r.json')).toEqual(['serve', '--port', '0', '--data-dir', 'x', '--ready-file', '/tmp/r.json']);
  });
});

describe('ops serve user|token|key and a server that holds the data dir', () => {
  test('wait while it is starting (not listening yet), then act on the databases once the data dir is free', async () => {
    const { processStart } = await import('../../../src/services/server-file.js');
    const dataDir = tempDir('ops-lifecycle-');
    const lock = lockDataDir(dataDir);
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: process.pid, pid_start: processStart(process.pid), state: 'starting', started_at: 'now' }));
    let settled = false;
    const listing = opsIn(['serve', 'user', 'list', '--json', '--data-dir', dataDir], { env }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 500));
    expect(settled).toBe(false);
    lock.release();
    const r = await listing;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expect.any(Array));
  });
});
