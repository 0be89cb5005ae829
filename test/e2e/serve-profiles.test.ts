/** Two real `ops serve` processes sharing one config dir: the second never takes over the profile of the first. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { BIN, isolatedEnv, ops, startServe, tempDir } from '../helpers/cli.js';

const ARGS = ['--no-metadata', '--no-link-check'];

function profiles(env: Record<string, string | undefined>) {
  const dir = env.OPS_CONFIG_DIR!;
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>>; servedBy: Record<string, string> };
  const secrets = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> };
  return { config, secrets };
}

describe('ops serve and the profile in use', () => {
  it('a second server on another data dir writes its own profile; local keeps its URL and token; restarts update the URL', async () => {
    const env = isolatedEnv();
    const dirA = tempDir('ops-main-');
    const dirB = tempDir('ops-throwaway-');
    const a = await startServe(ARGS, env, dirA);
    let b;
    try {
      expect((await ops(['bm', 'links', 'add', 'https://main.example/', '--json'], { env })).exitCode).toBe(0);
      const before = profiles(env);
      expect(before.config.profiles.local!['bm.url']).toBe(a.url);
      expect(before.config.servedBy.local).toBe(dirA);

      b = await startServe(ARGS, env, dirB);
      const mine = `local-${basename(dirB)}`;
      const after = profiles(env);
      // local untouched: same URL, same token (URL and secret stay a pair)
      expect(after.config.profiles.local).toEqual(before.config.profiles.local);
      expect(after.secrets.profiles.local).toEqual(before.secrets.profiles.local);
      expect(after.config.servedBy).toEqual({ local: dirA, [mine]: dirB });
      expect(after.config.profiles[mine]!['bm.url']).toBe(b.url);
      expect(after.secrets.profiles[mine]!['bm.token']).toMatch(/^\d+\|/);
      expect(after.secrets.profiles[mine]!['bm.token']).not.toBe(after.secrets.profiles.local!['bm.token']);

      // ops bm still talks to the main server; --profile reaches the throwaway one with its own token
      const main = await ops(['bm', 'links', 'list', '--json'], { env });
      expect(main.exitCode).toBe(0);
      expect(JSON.parse(main.stdout).map((l: { url: string }) => l.url)).toEqual(['https://main.example/']);
      const other = await ops(['--profile', mine, 'bm', 'links', 'list', '--json'], { env });
      expect([other.exitCode, JSON.parse(other.stdout)]).toEqual([0, []]);

      // --profile naming the main server's profile is refused before anything listens
      const refused = await ops(['--profile', 'local', 'serve', '--port', '0', '--data-dir', tempDir('ops-third-')], { env });
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain(`profile "local" belongs to the ops serve on ${dirA}`);
    } finally {
      await b?.stop('SIGTERM');
      await a.stop('SIGTERM');
    }

    // the main server restarted (another port): local follows it and keeps its token
    const tokenBefore = profiles(env).secrets.profiles.local!['bm.token'];
    const a2 = await startServe(ARGS, env, dirA);
    try {
      const now = profiles(env);
      expect(now.config.profiles.local!['bm.url']).toBe(a2.url);
      expect(now.secrets.profiles.local!['bm.token']).toBe(tokenBefore);
      const listed = await ops(['bm', 'links', 'list', '--json'], { env });
      expect(JSON.parse(listed.stdout)).toHaveLength(1);
    } finally {
      await a2.stop('SIGTERM');
    }
  });

  it('says which profile it wrote and how to use it', async () => {
    const env = isolatedEnv();
    const a = await startServe(ARGS, env, tempDir('ops-main-'));
    const dirB = tempDir('ops-side-');
    try {
      const b = await startServe(['--profile', 'side', ...ARGS], env, dirB);
      await b.stop('SIGTERM');
      expect(profiles(env).config.servedBy.side).toBe(dirB);
      const listed = JSON.parse((await ops(['config', 'profiles', '--json'], { env })).stdout) as { name: string; servedDataDir: string | null }[];
      expect(listed.find((p) => p.name === 'side')?.servedDataDir).toBe(dirB);
      // the text form; Ctrl-C then stops it with exit 130
      const child = execa('node', [BIN, 'serve', '--port', '0', '--data-dir', tempDir('ops-text-'), ...ARGS], { env, extendEnv: false, reject: false, stdin: 'ignore' });
      let stdout = '';
      await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()).includes('Press Ctrl-C') && resolve()));
      child.kill('SIGINT');
      expect((await child).exitCode).toBe(130);
      expect(stdout).toMatch(/profile +"local-ops-text-\w+" \(use it with: ops --profile local-ops-text-\w+ bm links list, or OPS_PROFILE=local-ops-text-\w+; "local" stays with the server on /);
    } finally {
      await a.stop('SIGTERM');
    }
  });
});
