/** The connector root's path rules on a real file system: special files, dangling symlinks, directories. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveReadPath, resolveWritePath } from '../../../../src/services/pipelines/shared/connector-access.js';

const base = mkdtempSync(join(tmpdir(), 'ops-access-'));
const root = join(base, 'root');
mkdirSync(join(root, 'sub'), { recursive: true });
writeFileSync(join(root, 'a.json'), '{}');
const access = { root, fetchPolicy: 'any' as const, maxBytes: 1024 };

describe('connector root paths', () => {
  it('reads regular files by relative path, absolute path and file URL, and a symlink that stays inside', async () => {
    symlinkSync(join(root, 'a.json'), join(root, 'sub', 'link.json'));
    for (const p of ['a.json', join(root, 'a.json'), `file://${join(root, 'a.json')}`, 'sub/../a.json', 'sub/link.json']) expect(await resolveReadPath(p, access), p).toBe(join(root, 'a.json'));
  });

  it('refuses a FIFO, a device behind a symlink, a directory and a NUL byte', async () => {
    execFileSync('mkfifo', [join(root, 'pipe.json')]);
    await expect(resolveReadPath('pipe.json', access)).rejects.toThrow(/not a regular file/);
    await expect(resolveWritePath('pipe.json', access)).rejects.toThrow(/not a regular file/);
    symlinkSync('/dev/zero', join(root, 'zero.json'));
    await expect(resolveReadPath('zero.json', access)).rejects.toThrow(/outside the connector root/);
    await expect(resolveReadPath('sub', access)).rejects.toThrow(/not a regular file/);
    await expect(resolveWritePath('sub', access)).rejects.toThrow(/not a regular file/);
    await expect(resolveReadPath('a\0.json', access)).rejects.toThrow(/NUL byte/);
    await expect(resolveReadPath('file://evil.example/etc/passwd', access)).rejects.toThrow(/not a usable file URL/);
  });

  it('refuses to write through a dangling symlink (which would create a file wherever it points)', async () => {
    symlinkSync(join(base, 'would-be-created'), join(root, 'dangling.jsonl'));
    await expect(resolveWritePath('dangling.jsonl', access)).rejects.toThrow(/leads nowhere/);
  });

  it('refuses kernel files even when the root is set to include them', async () => {
    const wide = { ...access, root: '/' };
    await expect(resolveReadPath('/proc/self/environ', wide)).rejects.toThrow(/not a regular file/);
    await expect(resolveReadPath('proc/self/status', wide)).rejects.toThrow(/not a regular file/);
    await expect(resolveWritePath('/proc/self/comm', wide)).rejects.toThrow(/not a regular file/);
    await expect(resolveReadPath('sys/kernel/hostname', { ...access, root: '/proc' })).rejects.toThrow(/not a regular file/);
  });

  it('a new output file under the root resolves to its place', async () => {
    expect(await resolveWritePath('sub/new.jsonl', access)).toBe(join(root, 'sub', 'new.jsonl'));
  });
});
