/** `ops serve key create|list|revoke` run in-process (the binary's argv path), on a temporary data dir. */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { opsIn as ops } from '../../helpers/ops-in-process.js';

describe('ops serve key', () => {
  it('creates (value shown once), lists masked, revokes with --yes; bad ids are usage errors', async () => {
    const env = isolatedEnv();
    const d = ['--data-dir', tempDir('ops-keys-')];
    const created = await ops(['serve', 'key', 'create', '--name', 'ci', ...d], { env });
    expect(created.exitCode).toBe(0);
    expect(created.stderr).toContain('shown only now');
    const key = created.stdout.trim();
    expect(key).toMatch(/^ntf_[A-Za-z0-9_-]{32}$/);

    const json = JSON.parse((await ops(['--json', 'serve', 'key', 'create', '--name', 'laptop', ...d], { env })).stdout);
    expect(json).toMatchObject({ id: 2, name: 'laptop', key: expect.stringMatching(/^ntf_/), last_used_at: null });

    const list = await ops(['serve', 'key', 'list', ...d], { env });
    expect(list.exitCode).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(0, 3)),
    ).toEqual([
      ['1', 'ci', `${key.slice(0, 8)}…`],
      ['2', 'laptop', `${json.key.slice(0, 8)}…`],
    ]);
    expect(list.stdout).not.toContain(key);

    const refused = await ops(['serve', 'key', 'revoke', '1', ...d], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const revoked = await ops(['--yes', 'serve', 'key', 'revoke', '1', ...d], { env });
    expect([revoked.exitCode, revoked.stderr]).toEqual([0, expect.stringContaining('key 1 "ci" revoked')]);
    expect(JSON.parse((await ops(['--json', 'serve', 'key', 'list', ...d], { env })).stdout).map((k: any) => k.id)).toEqual([2]);
    expect((await ops(['--yes', 'serve', 'key', 'revoke', '1', ...d], { env })).exitCode).toBe(1);
    expect((await ops(['--yes', 'serve', 'key', 'revoke', 'x', ...d], { env })).exitCode).toBe(2);
    expect((await ops(['serve', 'key', 'create', '--name', '', ...d], { env })).exitCode).toBe(2);
  });
});
