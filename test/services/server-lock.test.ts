/**
 * startServer and the data dir's lock: taken before any store is opened (a data dir in use is refused with
 * nothing created in it), released on close and on a start that fails, one winner when two start at once, and
 * server.json going starting -> running -> stopping -> removed.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { DataDirInUseError, dataDirLocked, lockDataDir } from '../../src/services/data-dir-lock.js';
import { SERVICE_DIRS } from '../../src/services/data-dir-layout.js';
import { loadServiceModules } from '../../src/services/server.js';
import { ownerOf, readServerFileAsIs } from '../../src/services/server-file.js';
import { tempDir } from '../helpers/cli.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const options = (dataDir: string, port = 0) => ({ host: '127.0.0.1', port, dataDir, linkCheck: false, fetchMetadata: false });

async function serve(dataDir: string): Promise<RunningServer> {
  const server = await startServer(options(dataDir));
  servers.push(server);
  return server;
}

describe('one server per data dir', () => {
  test('the data dir layout names every service module', async () => {
    expect((await loadServiceModules()).map((m) => m.name).sort()).toEqual([...SERVICE_DIRS].sort());
  });

  test('a data dir whose lock is held is refused before anything in it is created or opened', async () => {
    const dataDir = tempDir('ops-server-lock-');
    const lock = lockDataDir(dataDir);
    try {
      await expect(startServer(options(dataDir))).rejects.toBeInstanceOf(DataDirInUseError);
      expect(readdirSync(dataDir)).toEqual(['serve.lock']);
    } finally {
      lock.release();
    }
  });

  test('a second server on a running one is refused and leaves it as it was (its server.json, its answers)', async () => {
    const dataDir = tempDir('ops-server-lock-');
    const first = await serve(dataDir);
    const before = readServerFileAsIs(dataDir);
    expect(before).toMatchObject({ pid: process.pid, url: first.url, state: 'running' });
    await expect(startServer(options(dataDir))).rejects.toBeInstanceOf(DataDirInUseError);
    expect(readServerFileAsIs(dataDir)).toEqual(before);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
  });

  test('two servers starting at the same instant: exactly one runs', async () => {
    const dataDir = tempDir('ops-server-lock-');
    const results = await Promise.allSettled([startServer(options(dataDir)), startServer(options(dataDir)), startServer(options(dataDir))]);
    const won = results.filter((r): r is PromiseFulfilledResult<RunningServer> => r.status === 'fulfilled').map((r) => r.value);
    servers.push(...won);
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DataDirInUseError);
    expect(ownerOf(dataDir)?.file?.url).toBe(won[0]!.url);
  });

  test('close() removes server.json and releases the lock (stopping while it closes); a new server can start', async () => {
    const dataDir = tempDir('ops-server-lock-');
    const server = await startServer(options(dataDir));
    const closing = server.close();
    expect(readServerFileAsIs(dataDir)?.state).toBe('stopping');
    expect(dataDirLocked(dataDir)).toBe(true);
    await closing;
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    expect(dataDirLocked(dataDir)).toBe(false);
    await serve(dataDir);
  });

  test("admin actions without a server run under the data dir's lock: refused before opening anything while it is held", async () => {
    const { runAdminOffline } = await import('../../src/services/admin-offline.js');
    const dataDir = tempDir('ops-server-lock-');
    const lock = lockDataDir(dataDir);
    try {
      await expect(runAdminOffline(dataDir, 'bookmarks', 'user.list', {})).rejects.toBeInstanceOf(DataDirInUseError);
      expect(readdirSync(dataDir)).toEqual(['serve.lock']);
    } finally {
      lock.release();
    }
    expect(await runAdminOffline(dataDir, 'bookmarks', 'user.list', {})).toEqual(expect.any(Array));
    expect(dataDirLocked(dataDir)).toBe(false);
  });

  test('a start that fails (port in use) closes what it opened and leaves the data dir free', async () => {
    const dataDir = tempDir('ops-server-lock-');
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      await expect(startServer(options(dataDir, port))).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    expect(dataDirLocked(dataDir)).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    await serve(dataDir);
  });
});
