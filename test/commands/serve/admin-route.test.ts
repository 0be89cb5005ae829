/**
 * `ops serve user|token|key` against a server running in this process: they go through its admin route (the
 * server acts and publishes user events at once, no polling), the route refuses requests without the
 * secret of <data-dir>/server.json (401), from a web page (403) and from other machines (403), and a file
 * left by a crashed server (dead pid, or a live pid whose URL refuses connections) falls back to the database.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import { fromThisMachine } from '../../../src/services/admin-route.js';
import { SERVER_FILE, readServerFileAsIs, runningServer, type ServerFile } from '../../../src/services/server-file.js';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { listUsers, listKeys } from '../../helpers/admin.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(dataDir = tempDir('ops-admin-route-')): Promise<{ server: RunningServer; dataDir: string }> {
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, linkCheck: false, fetchMetadata: false });
  servers.push(server);
  return { server, dataDir };
}

/** The events the notification service stored, of one type (it stores every event it is handed). */
async function storedEvents(server: RunningServer, type: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const r = await request(`${server.url}/notify/v1/events?type=${type}`, { headers: { authorization: `Bearer ${server.credentials.notifyApiKey}` } });
  expect(r.statusCode).toBe(200);
  return ((await r.body.json()) as { data: { type: string; data: Record<string, unknown> }[] }).data;
}

/** A closed port on 127.0.0.1 (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('the running-server file', () => {
  test('written 0600 when the server listens, with its pid, URL and a fresh secret; removed on close', async () => {
    const { server, dataDir } = await serve();
    const file = join(dataDir, SERVER_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerFile;
    expect(info).toMatchObject({ pid: process.pid, url: server.url });
    expect(info.secret!.length).toBeGreaterThanOrEqual(40);
    expect(runningServer(dataDir)).toEqual(info);
    await server.close();
    expect(existsSync(file)).toBe(false);
    // a second start has another secret
    const again = await serve(dataDir);
    expect(readServerFileAsIs(dataDir)!.secret).not.toBe(info.secret);
    await again.server.close();
  });

  test('a file whose process is gone, or that is not a server file, names no running server', () => {
    const dataDir = tempDir('ops-admin-route-');
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dataDir, SERVER_FILE), JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1', secret: 's', started_at: '' }));
    expect(readServerFileAsIs(dataDir)?.pid).toBe(dead);
    expect(runningServer(dataDir)).toBeUndefined();
    for (const junk of ['', '{', '[]', '{"pid":"1","url":"u","secret":"s"}', `{"pid":${process.pid},"url":"u"}`]) {
      writeFileSync(join(dataDir, SERVER_FILE), junk);
      expect(runningServer(dataDir)).toBeUndefined();
    }
  });
});

describe('ops serve user|token|key with a server running', () => {
  test('user add/update/rm go through the admin route: the server publishes each event before the command returns', async () => {
    const { server, dataDir } = await serve();
    const env = isolatedEnv();
    const d = ['--data-dir', dataDir];
    const add = await opsIn(['--json', 'serve', 'user', 'add', '--name', 'Eve', '--email', 'eve@example.com', ...d], { env });
    expect(add.exitCode, add.stderr).toBe(0);
    const { user, token } = JSON.parse(add.stdout);
    // no waiting: stored by the notification service by the time the command answered
    expect((await storedEvents(server, 'user.created')).map((e) => e.data.email)).toEqual(['eve@example.com', 'admin@localhost']);
    const links = await request(`${server.url}/api/v2/links`, { headers: { authorization: `Bearer ${token}` } });
    expect(links.statusCode).toBe(200);
    await links.body.dump();

    expect((await opsIn(['serve', 'user', 'update', 'eve@example.com', '--name', 'Eve E.', ...d], { env })).exitCode).toBe(0);
    expect((await storedEvents(server, 'user.updated')).map((e) => e.data.name)).toEqual(['Eve E.']);
    expect((await opsIn(['--yes', 'serve', 'user', 'rm', 'eve@example.com', ...d], { env })).exitCode).toBe(0);
    expect((await storedEvents(server, 'user.deleted')).map((e) => e.data.id)).toEqual([String(user.id)]);
    // the removed user's token is refused at once by the server that removed it
    const after = await request(`${server.url}/api/v2/links`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.statusCode).toBe(401);
    await after.body.dump();
  });

  test("a user removed through the route disappears from the running server's cached pages and search at once", async () => {
    const { server, dataDir } = await serve();
    const env = isolatedEnv();
    const d = ['--data-dir', dataDir];
    const eve = JSON.parse((await opsIn(['--json', 'serve', 'user', 'add', '--name', 'Eve', '--email', 'eve@example.com', ...d], { env })).stdout);
    const system = JSON.parse((await opsIn(['--json', 'serve', 'token', 'create', '--system', ...d], { env })).stdout);
    const api = async (token: string, method: string, path: string, body?: unknown) => {
      const r = await request(`${server.url}${path}`, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: r.statusCode, body: (await r.body.json()) as any };
    };
    expect((await api(eve.token, 'POST', '/api/v2/links', { url: 'https://eve.example/', title: 'eve', visibility: 1 })).status).toBe(200);
    const urls = async () => (await api(system.token, 'GET', '/api/v2/links')).body.data.map((l: { url: string }) => l.url);
    // read twice: the second answer comes from the page cache
    expect(await urls()).toEqual(['https://eve.example/']);
    expect(await urls()).toEqual(['https://eve.example/']);
    expect((await opsIn(['--yes', 'serve', 'user', 'rm', 'eve@example.com', ...d], { env })).exitCode).toBe(0);
    expect(await urls()).toEqual([]);
    expect((await api(system.token, 'GET', '/api/v2/links')).body.meta.total).toBe(0);
  });

  test('token revoke and key create/revoke act on the running server at once; refusals keep their exit codes', async () => {
    const { server, dataDir } = await serve();
    const env = isolatedEnv();
    const d = ['--data-dir', dataDir];
    const created = JSON.parse((await opsIn(['--json', 'serve', 'token', 'create', '--system', '--name', 'ci', ...d], { env })).stdout);
    const get = async (tok: string) => {
      const r = await request(`${server.url}/api/v2/links`, { headers: { authorization: `Bearer ${tok}` } });
      await r.body.dump();
      return r.statusCode;
    };
    expect(await get(created.token)).toBe(200);
    expect((await opsIn(['--yes', 'serve', 'token', 'revoke', String(created.id), ...d], { env })).exitCode).toBe(0);
    expect(await get(created.token)).toBe(401);

    const key = JSON.parse((await opsIn(['--json', 'serve', 'key', 'create', '--name', 'laptop', ...d], { env })).stdout);
    const hooks = async () => {
      const r = await request(`${server.url}/notify/v1/webhooks`, { headers: { authorization: `Bearer ${key.key}` } });
      await r.body.dump();
      return r.statusCode;
    };
    expect(await hooks()).toBe(200);
    expect(JSON.parse((await opsIn(['--json', 'serve', 'key', 'list', ...d], { env })).stdout).map((k: { name: string }) => k.name)).toEqual(['local', 'laptop']);
    expect((await opsIn(['--yes', 'serve', 'key', 'revoke', String(key.id), ...d], { env })).exitCode).toBe(0);
    expect(await hooks()).toBe(401);

    const bad = await opsIn(['serve', 'user', 'add', '--name', 'X', '--email', 'nope', ...d], { env });
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining('not a valid email')]);
    const unknown = await opsIn(['serve', 'token', 'create', '--user', 'ghost@example.com', ...d], { env });
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, expect.stringContaining('No user')]);
    expect((await opsIn(['--yes', 'serve', 'key', 'revoke', '99', ...d], { env })).exitCode).toBe(1);
  });
});

describe('the admin route refuses', () => {
  const call = (server: RunningServer, headers: Record<string, string>, path = '/admin/bookmarks/user.list') =>
    request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

  test('no secret or another secret is 401; a foreign Origin is 403 even with the secret; a bad action 422', async () => {
    const { server, dataDir } = await serve();
    const { secret } = readServerFileAsIs(dataDir)!;
    for (const headers of [{}, { authorization: 'Bearer forged' }, { authorization: `Bearer ${secret}x` }, { authorization: secret }] as Record<string, string>[]) {
      const r = await call(server, headers);
      expect(r.statusCode).toBe(401);
      expect(JSON.stringify(await r.body.json())).not.toContain('admin@localhost');
    }
    const page = await call(server, { authorization: `Bearer ${secret}`, origin: 'http://evil.example' });
    expect(page.statusCode).toBe(403);
    await page.body.dump();
    const ok = await call(server, { authorization: `Bearer ${secret}` });
    expect(ok.statusCode).toBe(200);
    expect(((await ok.body.json()) as { result: { email: string }[] }).result.map((u) => u.email)).toEqual(['admin@localhost']);
    const unknownAction = await call(server, { authorization: `Bearer ${secret}` }, '/admin/bookmarks/user.drop');
    expect([unknownAction.statusCode, ((await unknownAction.body.json()) as { exit_code: number }).exit_code]).toEqual([422, 2]);
    const unknownService = await call(server, { authorization: `Bearer ${secret}` }, '/admin/pipelines/user.list');
    expect(unknownService.statusCode).toBe(404);
    await unknownService.body.dump();
    // not advertised to API clients
    const spec = (await (await request(`${server.url}/openapi.json`)).body.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
    const notObject = await request(`${server.url}/admin/bookmarks/user.list`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, body: '[1]' });
    expect(notObject.statusCode).toBe(422);
    await notObject.body.dump();
  });

  test('only peers on this machine: loopback, or the address the server was reached on', () => {
    expect(fromThisMachine('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(fromThisMachine('::1', '::1')).toBe(true);
    expect(fromThisMachine('::ffff:127.0.0.1', '::ffff:127.0.0.1')).toBe(true);
    expect(fromThisMachine('192.168.1.10', '192.168.1.10')).toBe(true);
    expect(fromThisMachine('192.168.1.11', '192.168.1.10')).toBe(false);
    expect(fromThisMachine('10.0.0.5', '0.0.0.0')).toBe(false);
    expect(fromThisMachine(undefined, '127.0.0.1')).toBe(false);
  });
});

describe('ops serve user|token|key with no server', () => {
  test('write the database when no server file is there', async () => {
    const dataDir = tempDir('ops-admin-route-');
    const env = isolatedEnv();
    expect((await opsIn(['serve', 'user', 'add', '--name', 'A', '--email', 'a@example.com', '--data-dir', dataDir], { env })).exitCode).toBe(0);
    expect(existsSync(join(dataDir, SERVER_FILE))).toBe(false);
    expect(listUsers(dataDir).map((u) => u.email)).toEqual(['a@example.com']);
  });

  test('a crashed server (its pid gone, or a live pid whose URL refuses connections) falls back to the database', async () => {
    const env = isolatedEnv();
    const port = await closedPort();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    for (const pid of [dead, process.pid]) {
      const dataDir = tempDir('ops-admin-route-');
      writeFileSync(join(dataDir, SERVER_FILE), JSON.stringify({ pid, url: `http://127.0.0.1:${port}`, secret: 'left-behind', started_at: '' }), { mode: 0o600 });
      const add = await opsIn(['serve', 'user', 'add', '--name', 'B', '--email', 'b@example.com', '--data-dir', dataDir], { env });
      expect(add.exitCode, add.stderr).toBe(0);
      expect(listUsers(dataDir).map((u) => u.email)).toEqual(['b@example.com']);
      expect((await opsIn(['serve', 'key', 'create', '--name', 'k', '--data-dir', dataDir], { env })).exitCode).toBe(0);
      expect(listKeys(dataDir).map((k) => k.name)).toEqual(['k']);
    }
  });
});
