/**
 * Rough edges a new user hit (issue 32, item 3), in process through the same argv path as the binary: each
 * answers with a clear message and the right exit code before any request is made.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { opsIn } from '../helpers/ops-in-process.js';
import { join } from 'node:path';

// a service URL nothing listens on: none of these may reach it
const env = () => isolatedEnv({ OPS_BM_URL: 'http://127.0.0.1:9', OPS_PIPE_URL: 'http://127.0.0.1:9', OPS_NOTIFY_URL: 'http://127.0.0.1:9' });

describe('usage edges', () => {
  it('`ops pipe create x nosuch.sql` says the file does not exist, not ENOENT (exit 1)', async () => {
    const missing = join(tempDir(), 'nosuch.sql');
    const r = await opsIn(['pipe', 'create', 'x', missing], { env: env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`ops: error: cannot read ${missing}: no such file`);
    const dir = await opsIn(['pipe', 'create', 'x', tempDir()], { env: env() });
    expect(dir.stderr).toMatch(/cannot read .*: it is a directory$/);
  });

  it('`ops bm trash restore 37`: an id where the type goes is named as such, with the command to run (exit 2)', async () => {
    const r = await opsIn(['bm', 'trash', 'restore', '37'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"37" is an id: say first what it is, e.g. `ops bm trash restore link 37`');
    expect(r.stderr).not.toContain("missing required argument 'id'");
    const noIds = await opsIn(['bm', 'trash', 'restore', 'tag'], { env: env() });
    expect(noIds.exitCode).toBe(2);
    expect(noIds.stderr).toContain('give at least one tag id');
  });

  it('`ops pipe bogus --help` is an unknown command (exit 2), not the parent help with exit 0', async () => {
    for (const args of [
      ['pipe', 'bogus', '--help'],
      ['pipe', 'txn', 'bogus', '-h'],
      ['--json', 'bm', 'nolinks', '--help'],
    ]) {
      const r = await opsIn(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`ops: error: unknown command '${args[args.length - 2]}'`);
      expect(r.stdout).toBe('');
    }
    // a known command's help is still help
    const ok = await opsIn(['pipe', 'txn', '--help'], { env: env() });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain('Usage: ops pipe txn');
    const helpOf = await opsIn(['help', 'pipe', 'list'], { env: env() });
    expect(helpOf.exitCode).toBe(0);
    // words that are values or arguments, not commands, are left alone
    for (const args of [
      ['completion', 'bash', '--help'],
      ['serve', '--data-dir', '/tmp/x', '--help'],
      ['--profile', 'work', 'pipe', 'list', '--help'],
    ]) {
      const r = await opsIn(args, { env: env() });
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout).toContain('Usage: ops');
    }
  });

  it('`ops --version --json` is JSON; `--version` alone the bare version', async () => {
    const json = await opsIn(['--version', '--json'], { env: env() });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const before = await opsIn(['--json', '-V'], { env: env() });
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(json.stdout));
    const text = await opsIn(['--version'], { env: env() });
    expect(text.stdout).toBe(JSON.parse(json.stdout).version);
  });
});
