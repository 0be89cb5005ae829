/** The foundation through the built binary: version/help, usage errors, config precedence, secrets, prompts. */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, ops } from '../helpers/cli.js';
import { opsIn } from '../helpers/ops-in-process.js';
import { runInPty, stripAnsi } from '../helpers/pty.js';

describe('ops (built binary)', () => {
  it('prints its version and help, exit 0', async () => {
    const v = await ops(['--version'], { env: isolatedEnv() });
    expect(v.exitCode).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await ops(['--help'], { env: isolatedEnv() });
    expect(h.exitCode).toBe(0);
    for (const word of ['bm', 'pipe', 'hook', 'serve', 'auth', 'config', '--profile', '--json']) expect(h.stdout).toContain(word);
  });

  it('answers a usage error with exit 2, the message and a hint, and no stack trace', async () => {
    const r = await ops(['config', 'get'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("missing required argument 'key'");
    expect(r.stderr).toContain('Usage: ops config get [options] <key>');
    expect(r.stderr).toContain("Run 'ops config get --help'");
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    const unknown = await ops(['frobnicate'], { env: isolatedEnv() });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('documents the environment and exit codes as help topics', async () => {
    const env = await opsIn(['help', 'environment'], { env: isolatedEnv() });
    for (const name of [
      'OPS_PROFILE',
      'OPS_BM_URL',
      'OPS_BM_TOKEN',
      'OPS_PIPE_URL',
      'OPS_PIPE_API_KEY',
      'OPS_NOTIFY_URL',
      'OPS_NOTIFY_API_KEY',
      'OPS_HOOK_SECRET',
      'OPS_NO_INPUT',
      'NO_COLOR',
      'FORCE_COLOR',
    ]) {
      expect(env.stdout).toContain(name);
    }
    const codes = await opsIn(['help', 'exit-codes'], { env: isolatedEnv() });
    for (const code of ['0 ', '1 ', '2 ', '4 ', '8 ', '130']) expect(codes.stdout).toContain(code);
    const bad = await opsIn(['help', 'nonsense'], { env: isolatedEnv() });
    expect(bad.exitCode).toBe(2);
  });

  it('resolves settings flag > environment > profile > default', async () => {
    const env = isolatedEnv();
    const get = async (args: string[], extra: Record<string, string> = {}) => (await opsIn([...args, 'config', 'get', 'bm.url'], { env: { ...env, ...extra } })).stdout;
    expect(await get([])).toBe('http://127.0.0.1:8700');
    expect((await opsIn(['config', 'set', 'bm.url', 'http://profile.example/'], { env })).exitCode).toBe(0);
    expect(await get([])).toBe('http://profile.example');
    expect(await get([], { OPS_BM_URL: 'http://env.example' })).toBe('http://env.example');
    expect(await get(['--bm-url', 'http://flag.example'], { OPS_BM_URL: 'http://env.example' })).toBe('http://flag.example');
    const list = await opsIn(['config', 'list', '--json'], { env: { ...env, OPS_BM_URL: 'http://env.example' } });
    const parsed = JSON.parse(list.stdout) as { profile: string; settings: { key: string; source: string }[] };
    expect(parsed.profile).toBe('local');
    expect(parsed.settings.find((s) => s.key === 'bm.url')?.source).toBe('env');
  });

  it('keeps profiles apart and switches between them', async () => {
    const env = isolatedEnv();
    await opsIn(['--profile', 'work', 'config', 'set', 'pipe.url', 'http://work.example'], { env });
    expect((await opsIn(['config', 'get', 'pipe.url', '--profile', 'work'], { env })).stdout).toBe('http://work.example');
    expect((await opsIn(['config', 'get', 'pipe.url'], { env: { ...env, OPS_PROFILE: 'work' } })).stdout).toBe('http://work.example');
    expect((await opsIn(['config', 'get', 'pipe.url'], { env })).stdout).toBe('http://127.0.0.1:8700');
    expect((await opsIn(['config', 'profiles', 'use', 'work'], { env })).exitCode).toBe(0);
    expect((await opsIn(['config', 'get', 'pipe.url'], { env })).stdout).toBe('http://work.example');
    const profiles = await opsIn(['config', 'profiles', '--json'], { env });
    expect(JSON.parse(profiles.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'work', active: true })]));
    expect((await opsIn(['config', 'profiles', 'use', 'nope'], { env })).exitCode).toBe(1);
    // a service command with a profile that does not exist stops instead of using the defaults
    for (const [args, extra] of [
      [['--profile', 'wrok', 'pipe', 'list'], {}],
      [['bm', 'links', 'list'], { OPS_PROFILE: 'wrok' }],
    ] as const) {
      const typo = await opsIn([...args], { env: { ...env, ...extra } });
      expect(typo.exitCode).toBe(1);
      expect(typo.stderr).toMatch(/no profile named "wrok"/);
      expect(typo.stderr).toMatch(/ops config profiles/);
    }
  });

  it('takes secrets from stdin only, stores them 0600, and never prints them in full', async () => {
    const env = isolatedEnv();
    const onCommandLine = await opsIn(['config', 'set', 'bm.token', 'abc'], { env });
    expect(onCommandLine.exitCode).toBe(2);
    const piped = await opsIn(['config', 'set', 'bm.token', '-'], { env, input: 'tok-1234567890\n' });
    expect(piped.exitCode).toBe(0);
    expect(statSync(join(env.OPS_CONFIG_DIR!, 'credentials.json')).mode & 0o777).toBe(0o600);
    const shown = await opsIn(['config', 'get', 'bm.token'], { env });
    expect(shown.stdout).toBe('tok-…7890');
    const list = await opsIn(['config', 'list'], { env });
    expect(list.stdout).not.toContain('tok-1234567890');
    expect((await opsIn(['config', 'get', 'bm.token', '--show-secret'], { env })).stdout).toBe('tok-1234567890');
    const badKey = await opsIn(['config', 'set', 'pipe.api-key', '-'], { env, input: 'nope' });
    expect(badKey.exitCode).toBe(2);
    expect(badKey.stderr).toContain('apikey:');
  });

  it('refuses a destructive command without a terminal and without --yes (exit 2), and obeys --yes', async () => {
    const env = isolatedEnv();
    await opsIn(['config', 'set', 'bm.url', 'http://x.example', '--profile', 'old'], { env });
    const refused = await opsIn(['config', 'profiles', 'rm', 'old'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await opsIn(['config', 'profiles', '--json'], { env })).stdout).toContain('"old"');
    const yes = await opsIn(['config', 'profiles', 'rm', 'old', '--yes'], { env });
    expect(yes.exitCode).toBe(0);
    expect((await opsIn(['config', 'profiles', '--json'], { env })).stdout).not.toContain('"old"');
  });

  it('asks for confirmation on a terminal and respects the answer; --no-input refuses', async () => {
    const env = isolatedEnv();
    await opsIn(['config', 'set', 'bm.url', 'http://x.example', '--profile', 'p1'], { env });
    const no = await runInPty(['config', 'profiles', 'rm', 'p1'], env, [['Delete profile', 'n\r']]);
    expect(stripAnsi(no.output)).toContain('Delete profile "p1"');
    expect(stripAnsi(no.output)).toContain('cancelled');
    expect((await opsIn(['config', 'profiles', '--json'], { env })).stdout).toContain('"p1"');
    const yes = await runInPty(['config', 'profiles', 'rm', 'p1'], env, [['Delete profile', 'y\r']]);
    expect(yes.exitCode).toBe(0);
    expect((await opsIn(['config', 'profiles', '--json'], { env })).stdout).not.toContain('"p1"');
    await opsIn(['config', 'set', 'bm.url', 'http://x.example', '--profile', 'p2'], { env });
    const noInput = await runInPty(['config', 'profiles', 'rm', 'p2', '--no-input'], env);
    expect(noInput.exitCode).toBe(2);
    expect(stripAnsi(noInput.output)).toContain('--no-input');
  });

  it('prints a table on a terminal and TSV when piped', async () => {
    const env = isolatedEnv();
    const tty = await runInPty(['config', 'list'], { ...env, NO_COLOR: '1' });
    const text = stripAnsi(tty.output);
    expect(text).toMatch(/KEY\s+VALUE\s+SOURCE/);
    expect(text).toMatch(/bm\.url\s+http:\/\/127\.0\.0\.1:8700\s+default/);
    const piped = await opsIn(['config', 'list'], { env });
    expect(piped.stdout.split('\n')[0]).toBe('bm.url\thttp://127.0.0.1:8700\tdefault');
  });

  it('asks for URL and secret on a terminal in auth login, and reads them from stdin with --with-token', async () => {
    const env = isolatedEnv();
    const noTty = await opsIn(['auth', 'login', 'bm'], { env });
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toContain('--with-token');
    const login = await runInPty(['auth', 'login', 'pipe', '--no-verify'], env, [
      ['URL', '\u0015http://pipes.example:9000\r'],
      ['API key', 'apikey:secretsecret\r'],
    ]);
    expect(login.exitCode).toBe(0);
    expect((await opsIn(['config', 'get', 'pipe.url'], { env })).stdout).toBe('http://pipes.example:9000');
    expect((await opsIn(['config', 'get', 'pipe.api-key', '--show-secret'], { env })).stdout).toBe('apikey:secretsecret');
    const scripted = await opsIn(['auth', 'login', 'notify', '--url', 'http://n.example', '--with-token', '--no-verify'], { env, input: 'nkey-123456789\n' });
    expect(scripted.exitCode).toBe(0);
    expect((await opsIn(['config', 'get', 'notify.api-key', '--show-secret'], { env })).stdout).toBe('nkey-123456789');
    const out = await opsIn(['auth', 'logout', 'notify', '--yes'], { env });
    expect(out.exitCode).toBe(0);
    expect((await opsIn(['config', 'get', 'notify.api-key'], { env })).exitCode).toBe(1);
  });

  it('reports an unreachable service in auth status with exit 1 for that service', async () => {
    const env = isolatedEnv({ OPS_BM_URL: 'http://127.0.0.1:9' });
    const r = await opsIn(['auth', 'status', 'bm', '--json'], { env });
    expect(r.exitCode).toBe(1);
    const parsed = JSON.parse(r.stdout) as { services: { service: string; state: string }[] };
    expect(parsed.services[0]).toMatchObject({ service: 'bookmarks', state: 'unreachable' });
  });
});
