/** `ops serve user ...` and `ops serve token ...` through the built binary, on a temporary data dir. */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';

describe('ops serve user / token', () => {
  it('adds, lists and removes users; creates, lists and revokes tokens', async () => {
    const env = isolatedEnv();
    const d = ['--data-dir', tempDir('ops-admin-')];
    const add = await opsIn(['serve', 'user', 'add', '--name', 'Alice', '--email', 'alice@example.com', ...d], { env });
    expect(add.exitCode).toBe(0);
    expect(existsSync(join(d[1]!, 'bookmarks', 'bookmarks.sqlite'))).toBe(true);
    expect(add.stdout.trim()).toMatch(/^1\|[A-Za-z0-9_-]{40}$/);
    expect(add.stderr).toContain('shown only now');
    const list = await opsIn(['serve', 'user', 'list', ...d], { env });
    expect(list.stdout.trim().split('\t').slice(0, 4)).toEqual(['1', 'Alice', 'alice@example.com', '1']);
    const json = JSON.parse((await opsIn(['serve', 'user', 'list', '--json', ...d], { env })).stdout);
    expect(json).toEqual([expect.objectContaining({ id: 1, name: 'Alice', email: 'alice@example.com', tokens: 1 })]);

    const sys = JSON.parse((await opsIn(['--json', 'serve', 'token', 'create', '--system', '--private-access', '--name', 'backup', ...d], { env })).stdout);
    expect(sys).toMatchObject({ id: 2, name: 'backup', system: true, private_access: true, user_id: null });
    expect(sys.token).toMatch(/^2\|/);
    const usr = await opsIn(['serve', 'token', 'create', '--user', 'alice@example.com', '--name', 'laptop', ...d], { env });
    expect(usr.stdout.trim()).toMatch(/^3\|/);
    const tokens = JSON.parse((await opsIn(['--json', 'serve', 'token', 'list', ...d], { env })).stdout);
    expect(tokens.map((t: any) => t.name)).toEqual(['default', 'backup', 'laptop']);
    expect(JSON.stringify(tokens)).not.toContain(sys.token.split('|')[1]);

    const refused = await opsIn(['serve', 'token', 'revoke', '3', ...d], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await opsIn(['--yes', 'serve', 'token', 'revoke', '3', ...d], { env })).exitCode).toBe(0);
    expect((await opsIn(['--yes', 'serve', 'token', 'revoke', '3', ...d], { env })).exitCode).toBe(1);
    expect((await opsIn(['--yes', 'serve', 'user', 'rm', 'alice@example.com', ...d], { env })).exitCode).toBe(0);
    expect(JSON.parse((await opsIn(['--json', 'serve', 'user', 'list', ...d], { env })).stdout)).toEqual([]);
  });

  it('bad input: usage errors exit 2, unknown users exit 1', async () => {
    const env = isolatedEnv();
    const d = ['--data-dir', tempDir('ops-admin-')];
    expect((await opsIn(['serve', 'user', 'add', '--name', 'X', ...d], { env })).exitCode).toBe(2);
    const bad = await opsIn(['serve', 'user', 'add', '--name', 'X', '--email', 'nope', ...d], { env });
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining('not a valid email')]);
    expect((await opsIn(['serve', 'token', 'create', ...d], { env })).exitCode).toBe(2);
    expect((await opsIn(['serve', 'token', 'create', '--user', '1', '--private-access', ...d], { env })).exitCode).toBe(2);
    const unknown = await opsIn(['serve', 'token', 'create', '--user', 'ghost@example.com', ...d], { env });
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, expect.stringContaining('No user')]);
    expect((await opsIn(['--yes', 'serve', 'user', 'rm', 'ghost@example.com', ...d], { env })).exitCode).toBe(1);
    await opsIn(['serve', 'user', 'add', '--name', 'A', '--email', 'a@example.com', ...d], { env });
    const dup = await opsIn(['serve', 'user', 'add', '--name', 'A', '--email', 'a@example.com', ...d], { env });
    expect([dup.exitCode, dup.stderr]).toEqual([1, expect.stringContaining('already exists')]);
  });
});
