import { describe, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminError } from '../../../src/services/admin-actions.js';
import { addUser, createApiToken, listApiTokens, listUsers, removeUser, revokeToken, updateUser } from '../../helpers/admin.js';
import { openDb } from '../../../src/services/bookmarks/store/db.js';
import service from '../../../src/services/bookmarks/index.js';
import { buildServiceApp } from '../../helpers/service-app.js';
import { EventBus, type DomainEvent } from '../../../src/services/events.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'ops-bm-admin-'));

describe('admin functions on a data dir', () => {
  test('users: add (with a first token), list, update, remove', () => {
    const dir = tmp();
    const { user, token } = addUser(dir, { name: ' Alice ', email: 'alice@example.com' });
    expect(user).toMatchObject({ id: 1, name: 'Alice', email: 'alice@example.com', tokens: 1 });
    expect(token).toMatch(/^\d+\|[A-Za-z0-9_-]{40}$/);
    addUser(dir, { name: 'Bob', email: 'bob@example.com' });
    expect(listUsers(dir).map((u) => u.email)).toEqual(['alice@example.com', 'bob@example.com']);
    expect(updateUser(dir, 'alice@example.com', { name: 'Alice B.' }).name).toBe('Alice B.');
    expect(removeUser(dir, 2).email).toBe('bob@example.com');
    expect(listUsers(dir)).toHaveLength(1);
  });

  test('user errors: bad email, duplicate email, empty name, unknown user', () => {
    const dir = tmp();
    addUser(dir, { name: 'A', email: 'a@example.com' });
    expect(() => addUser(dir, { name: 'A', email: 'not-an-email' })).toThrow(AdminError);
    expect(() => addUser(dir, { name: 'A2', email: 'A@example.com' })).toThrow(/already exists/);
    expect(() => addUser(dir, { name: '  ', email: 'b@example.com' })).toThrow(/empty/);
    try {
      removeUser(dir, 'nobody@example.com');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AdminError);
      expect((e as AdminError).exitCode).toBe(1);
    }
  });

  test('tokens: user and system tokens, stored hashed, listed without secrets, revoked', () => {
    const dir = tmp();
    const { token: first } = addUser(dir, { name: 'A', email: 'a@example.com' });
    const t = createApiToken(dir, { user: 'a@example.com', name: 'ci' });
    expect(t.info).toMatchObject({ name: 'ci', user_id: 1, user_email: 'a@example.com', system: false, private_access: false });
    const s = createApiToken(dir, { system: true, privateAccess: true, name: 'backup' });
    expect(s.info).toMatchObject({ system: true, private_access: true, user_id: null });
    const all = listApiTokens(dir);
    expect(all.map((x) => x.name)).toEqual(['default', 'ci', 'backup']);
    expect(JSON.stringify(all)).not.toContain(t.token.split('|')[1]);
    expect(listApiTokens(dir, { user: 1 }).map((x) => x.name)).toEqual(['default', 'ci']);
    const db = openDb(join(dir, 'bookmarks'));
    const stored = db.prepare('SELECT hash FROM tokens').pluck().all() as string[];
    db.close();
    for (const tok of [first, t.token, s.token]) expect(stored.join()).not.toContain(tok.split('|')[1]);
    expect(stored.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
    expect(revokeToken(dir, t.info.id).name).toBe('ci');
    expect(() => revokeToken(dir, t.info.id)).toThrow(/No token/);
    expect(() => revokeToken(dir, 'abc')).toThrow(AdminError);
  });

  test('token usage errors', () => {
    const dir = tmp();
    addUser(dir, { name: 'A', email: 'a@example.com' });
    expect(() => createApiToken(dir, {})).toThrow(/Give the user/);
    expect(() => createApiToken(dir, { system: true, user: 1 })).toThrow(/either/);
    expect(() => createApiToken(dir, { user: 1, privateAccess: true })).toThrow(/system tokens only/);
    expect(() => createApiToken(dir, { user: 99 })).toThrow(/No user/);
    expect(() => createApiToken(dir, { user: 1, name: 'x'.repeat(101) })).toThrow(/1 to 100/);
  });
});

describe('first start, tokens and user events with a running service', () => {
  test('the first start creates an admin and a token (once); a restart keeps everything', async () => {
    const dataDir = tmp();
    const events = new EventBus();
    const seen: DomainEvent[] = [];
    events.subscribe((e) => seen.push(e));
    const one = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false }, { dataDir, events });
    const creds = await one.handle.localCredentials!();
    expect(creds.bmToken).toMatch(/^\d+\|/);
    await one.listen();
    const r = await one.app.inject({ method: 'POST', url: '/api/v2/links', headers: { authorization: `Bearer ${creds.bmToken}` }, payload: { url: 'https://kept.example' } });
    expect(r.statusCode).toBe(200);
    expect(seen.find((e) => e.type === 'user.created')?.data).toMatchObject({ id: '1', email: 'admin@localhost', name: 'admin' });
    await one.close();

    const two = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false }, { dataDir, events });
    try {
      expect(await two.handle.localCredentials!()).toEqual({});
      expect(listUsers(dataDir)).toHaveLength(1);
      const l = await two.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${creds.bmToken}` } });
      expect(JSON.parse(l.body).data.map((x: any) => x.url)).toEqual(['https://kept.example']);
      expect(await two.handle.health()).toMatchObject({ status: 'ok' });
    } finally {
      await two.close();
    }
  });

  test("the running service's admin actions publish user events at once (no polling); its tokens work at once", async () => {
    const dataDir = tmp();
    const sa = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false }, { dataDir });
    const seen: DomainEvent[] = [];
    sa.events.subscribe((e) => seen.push(e));
    await sa.listen();
    try {
      const admin = sa.handle.admin!;
      const { token } = (await admin['user.add']!({ name: 'Carol', email: 'carol@example.com' })) as { token: string };
      // published before the action returned
      expect(seen.map((e) => e.type)).toEqual(['user.created', 'user.created']);
      const r = await sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${token}` } });
      expect(r.statusCode).toBe(200);
      await admin['user.update']!({ user: 'carol@example.com', name: 'Carol C.' });
      await admin['user.remove']!({ user: 'carol@example.com' });
      const r2 = await sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${token}` } });
      expect(r2.statusCode).toBe(401);
      const users = seen.filter((e) => e.type.startsWith('user.'));
      expect(users.map((e) => e.type)).toEqual(['user.created', 'user.created', 'user.updated', 'user.deleted']);
      expect(users[1]!.data).toEqual({ id: '2', email: 'carol@example.com', name: 'Carol', createdAt: expect.stringMatching(/\.\d{6}Z$/) });
      expect(users[2]!.data).toMatchObject({ id: '2', name: 'Carol C.' });
      expect(users[3]!.data).toMatchObject({ id: '2', email: 'carol@example.com' });
      expect(users[1]!.userId).toBe('2');
      // a refused action publishes nothing
      expect(() => admin['user.add']!({ name: 'Carol', email: 'nope' })).toThrow(AdminError);
      expect(() => admin['user.add']!({ name: 42, email: 'x@example.com' })).toThrow(/name must be a string/);
      expect(seen).toHaveLength(4);
    } finally {
      await sa.close();
    }
  });

  test('a user added on the data dir while the service runs (no admin route) can use its token at once; no event is kept for later', async () => {
    const dataDir = tmp();
    const sa = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false }, { dataDir });
    const seen: DomainEvent[] = [];
    sa.events.subscribe((e) => seen.push(e));
    await sa.listen();
    try {
      const { token } = addUser(dataDir, { name: 'Dan', email: 'dan@example.com' });
      expect((await sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    } finally {
      await sa.close();
    }
    const db = openDb(join(dataDir, 'bookmarks'));
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    db.close();
    expect(tables).not.toContain('user_events');
    expect(seen.map((e) => e.type)).toEqual(['user.created']);
  });

  test('a revoked token stops working; a system token sees private items only with private access', async () => {
    const dataDir = tmp();
    const sa = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false }, { dataDir });
    try {
      const admin = (await sa.handle.localCredentials!()).bmToken!;
      await sa.app.inject({ method: 'POST', url: '/api/v2/links', headers: { authorization: `Bearer ${admin}` }, payload: { url: 'https://p.example', visibility: 3 } });
      const t = createApiToken(dataDir, { user: 1, name: 'temp' });
      const get = (tok: string) => sa.app.inject({ method: 'GET', url: '/api/v2/links', headers: { authorization: `Bearer ${tok}` } });
      expect((await get(t.token)).statusCode).toBe(200);
      revokeToken(dataDir, t.info.id);
      expect((await get(t.token)).statusCode).toBe(401);
      const sys = createApiToken(dataDir, { system: true });
      const sysp = createApiToken(dataDir, { system: true, privateAccess: true });
      expect(JSON.parse((await get(sys.token)).body).data).toHaveLength(0);
      expect(JSON.parse((await get(sysp.token)).body).data).toHaveLength(1);
    } finally {
      await sa.close();
    }
  });
});
