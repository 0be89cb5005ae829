/**
 * The stores of `ops serve` against a full disk and damaged files (src/services/store-guard.ts), from the
 * outside: the whole server on a small tmpfs filled up (where the test may mount one), files damaged by
 * the test before start and while the server runs.
 */
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../src/services/server.js';
import { StoreDamagedError, StoreGuard, STORE_SYNCHRONOUS } from '../../src/services/store-guard.js';
import { openDb } from '../../src/services/bookmarks/store/db.js';
import { PipelineStore } from '../../src/services/pipelines/control/store.js';
import { NotifyStore } from '../../src/services/notifications/store/index.js';

const quiet = { fetchMetadata: false, linkCheck: false };

/** Captures what the server writes to stderr (store faults are logged there when the JSON log is off). */
function captureStderr(): { lines: () => string[]; restore: () => void } {
  const seen: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    seen.push(String(chunk));
    return true;
  });
  return { lines: () => seen.join('').split('\n').filter(Boolean), restore: () => spy.mockRestore() };
}

async function call(server: RunningServer, method: string, path: string, body: unknown, token?: string): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const writes = {
  bookmarks: (s: RunningServer, i: number, token = s.credentials.bmToken) =>
    call(s, 'POST', '/api/v2/links', { url: `https://example.com/${i}`, title: `t${i}`, description: 'x'.repeat(20_000) }, token),
  notifications: (s: RunningServer, i: number) =>
    call(s, 'POST', '/notify/v1/webhooks', { url: `http://127.0.0.1:9/${i}`, events: ['user.created'], description: 'x'.repeat(500) }, s.credentials.notifyApiKey),
  pipelines: (s: RunningServer, i: number) => call(s, 'PUT', `/v0/pipelines/p${i}`, { name: `p${i}`, program_code: `CREATE TABLE t${i} (x INT); -- ${'x'.repeat(20_000)}`, runtime_config: {} }),
};

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mountPoint = mkdtempSync(join(tmpdir(), 'ops-tmpfs-'));
const canMount = tryMountTmpfs(mountPoint, '16m');
if (canMount) execFileSync('umount', [mountPoint]);

describe('a full disk', { timeout: 60_000 }, () => {
  it.skipIf(!canMount)('answers 507 naming the store, logs it once per store, and takes writes again once space is freed (every service)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-full-'));
    expect(tryMountTmpfs(dir, '16m')).toBe(true);
    const stderr = captureStderr();
    let server: RunningServer | undefined;
    try {
      server = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data'), ...quiet });
      // fill the filesystem to its last byte
      const filler = join(dir, 'filler');
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch {
        // ENOSPC
      }
      try {
        for (;;) writeSync(fd, chunk.subarray(0, 512));
      } catch {
        // ENOSPC
      }
      closeSync(fd);
      const files = { bookmarks: 'bookmarks.sqlite', notifications: 'notifications.db', pipelines: 'pipelines.db' };
      for (const [name, write] of Object.entries(writes)) {
        const answers = [];
        // several writes, each far bigger than what a WAL frame left free could hold
        for (let i = 0; i < 4; i++) answers.push(await write(server, i));
        const full = answers.filter((a) => a.status === 507);
        expect(full.length, `${name}: ${JSON.stringify(answers.map((a) => a.status))}`).toBeGreaterThanOrEqual(3);
        for (const a of answers) expect([507]).toContain(a.status);
        expect(JSON.stringify(full[0]!.json)).toContain(files[name as keyof typeof files]);
        expect(JSON.stringify(full[0]!.json)).toMatch(/disk is full/i);
        const logged = stderr.lines().filter((l) => l.includes(`${name}: the disk is full`));
        expect(logged, name).toHaveLength(1);
      }
      const health = await call(server, 'GET', '/health', undefined);
      expect(health.json.services.bookmarks.store).toBe('full');
      // ops serve user add through the admin route: 507 too
      const { secret } = JSON.parse(readFileSync(join(dir, 'data', 'server.json'), 'utf8')) as { secret: string };
      const admin = await fetch(`${server.url}/admin/bookmarks/user.add`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(100), email: `${'y'.repeat(30_000)}@example.com` }),
      });
      expect(admin.status, await admin.clone().text()).toBe(507);
      expect(await admin.json()).toMatchObject({ error_code: 'InsufficientStorage' });
      // space again: every service writes without a restart
      rmSync(filler);
      for (const [name, write] of Object.entries(writes)) {
        const again = await write(server, 100);
        expect(again.status, `${name}: ${JSON.stringify(again.json)}`).toBeLessThan(300);
        expect(stderr.lines().filter((l) => l.includes(`${name}: writes to`) && l.includes('succeed again'))).toHaveLength(1);
      }
      expect((await call(server, 'GET', '/api/v2/links', undefined, server.credentials.bmToken)).json.data).toHaveLength(1);
    } finally {
      await server?.close();
      stderr.restore();
      execFileSync('umount', [dir]);
    }
  });

  it('a real SQLITE_FULL (a page limit reached) is told apart from other errors, logged once, and ended by the next write that succeeds', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (x BLOB)');
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
    const logged: string[] = [];
    const guard = new StoreGuard(
      '/data/x.db',
      'bookmarks',
      () => db,
      (_level, m) => logged.push(m),
    );
    const full = (): unknown => {
      try {
        db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(100_000));
      } catch (e) {
        return e;
      }
      throw new Error('expected SQLITE_FULL');
    };
    expect(guard.fault(full())).toMatchObject({ status: 507, code: 'insufficient_storage' });
    expect(guard.fault(full())?.message).toContain('/data/x.db');
    expect(guard.status).toBe('full');
    expect(guard.fault(new Error('something else'))).toBeNull();
    expect(logged).toHaveLength(1);
    guard.noteWriteSucceeded();
    guard.noteWriteSucceeded();
    expect(guard.status).toBe('ok');
    expect(logged).toHaveLength(2);
    db.close();
  });
});

/** Overwrites one page of a database file with garbage. */
function garblePage(file: string, page: number, pageSize = 4096): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
}

function rootPage(file: string, name: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(name) as { rootpage: number }).rootpage;
  } finally {
    db.close();
  }
}

async function dataDirWithStores(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-damaged-'));
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet });
  await writes.bookmarks(server, 1);
  await writes.notifications(server, 1);
  await server.close();
  return dataDir;
}

describe('a damaged store', { timeout: 60_000 }, () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("every store opens with synchronous FULL; the notification worker's bookkeeping leaves it FULL for the writes the API acknowledges", () => {
    expect(STORE_SYNCHRONOUS).toBe('FULL');
    const FULL = 2;
    const dir = mkdtempSync(join(tmpdir(), 'ops-sync-'));
    const bm = openDb(join(dir, 'bookmarks'));
    expect(bm.pragma('synchronous', { simple: true })).toBe(FULL);
    bm.close();
    const pipes = new PipelineStore(mkdtempSync(join(tmpdir(), 'ops-sync-p-')));
    expect(pipes.db.pragma('synchronous', { simple: true })).toBe(FULL);
    pipes.close();
    const notify = new NotifyStore(mkdtempSync(join(tmpdir(), 'ops-sync-n-')));
    expect(notify.db.pragma('synchronous', { simple: true })).toBe(FULL);
    const seen: number[] = [];
    const pragma = notify.db.pragma.bind(notify.db);
    notify.db.pragma = ((source: string, options?: { simple?: boolean }) => {
      if (/^synchronous = /.test(source)) seen.push(source === 'synchronous = NORMAL' ? 1 : 2);
      return pragma(source, options);
    }) as typeof notify.db.pragma;
    notify.useApiKey('ntf_nothing', Date.now());
    notify.takeDue('wh_none', Date.now(), 10, Date.now() + 1000);
    expect(seen).toEqual([1, 2, 1, 2]);
    expect(pragma('synchronous', { simple: true })).toBe(FULL);
    notify.close();
  });

  it.each([
    ['bookmarks', 'bookmarks.sqlite', 'links'],
    ['notifications', 'notifications.db', 'webhooks'],
    ['pipelines', 'pipelines.db', 'pipelines'],
  ])('a garbage page in %s refuses the start naming the file and what to do; --reset-store moves it aside and starts empty', async (label, fileName, table) => {
    const dataDir = await dataDirWithStores();
    const file = join(dataDir, label, fileName);
    garblePage(file, rootPage(file, table));
    const start = startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet });
    await expect(start).rejects.toBeInstanceOf(StoreDamagedError);
    const err = (await start.catch((e: unknown) => e)) as StoreDamagedError;
    expect(err.message).toContain(file);
    expect(err.remedy).toContain(`--reset-store ${label}`);
    expect(err.remedy).toMatch(/restore/);
    // refused before anything else was written into it: the garbage is still there
    await expect(startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet })).rejects.toBeInstanceOf(StoreDamagedError);

    const stderr = captureStderr();
    try {
      server = await startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet, resetStores: [label as 'bookmarks'] });
    } finally {
      stderr.restore();
    }
    expect(readdirSync(join(dataDir, label)).some((f) => f.startsWith(`${fileName}.damaged-`))).toBe(true);
    expect(stderr.lines().some((l) => l.includes('moved aside'))).toBe(true);
    expect((await call(server, 'GET', '/health', undefined)).json.services[label].store).toBe('ok');
  });

  it('a file that is not a database at all refuses the start naming the file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-damaged-'));
    mkdirSync(join(dataDir, 'notifications'), { recursive: true });
    writeFileSync(join(dataDir, 'notifications', 'notifications.db'), Buffer.alloc(8192, 0x41));
    const err = (await startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(StoreDamagedError);
    expect(err.message).toContain(join(dataDir, 'notifications', 'notifications.db'));
  });

  it('damaged while running: reads of the damaged part answer 503, and the store takes no more writes', async () => {
    const dataDir = await dataDirWithStores();
    server = await startServer({ host: '127.0.0.1', port: 0, dataDir, ...quiet });
    const token = server.credentials.bmToken ?? (await import('../helpers/admin.js')).createApiToken(dataDir, { user: 1, name: 'probe' }).token;
    expect((await call(server, 'POST', '/api/v2/lists', { name: 'reading' }, token)).status).toBeLessThan(300);
    const file = join(dataDir, 'bookmarks', 'bookmarks.sqlite');
    const other = new Database(file);
    other.pragma('wal_checkpoint(TRUNCATE)');
    const linksBefore = other.prepare('SELECT count(*) AS n FROM links').get() as { n: number };
    garblePage(file, rootPage(file, 'lists'));
    // another connection's commit makes the server's connection drop its cached pages
    other.exec('CREATE TABLE scratch (x)');
    other.close();

    const lists = await call(server, 'GET', '/api/v2/lists', undefined, token);
    expect(lists.status).toBe(503);
    expect(lists.json.message).toContain(file);
    expect(lists.json.error).toBe('store_damaged');
    const write = await writes.bookmarks(server, 2, token);
    expect(write.status).toBe(503);
    expect(write.json.message).toMatch(/damaged/);
    expect((await call(server, 'GET', '/health', undefined)).json.services.bookmarks.store).toBe('damaged');
    await server.close();
    server = undefined;
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT count(*) AS n FROM links').get()).toEqual(linksBefore);
    after.close();
    expect(existsSync(file)).toBe(true);
  });
});
