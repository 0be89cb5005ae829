/**
 * What the built binary loads for a command (issue 32): each command loads only what it runs. The binary is run
 * with a module hook (test/helpers/module-log.mjs) that logs every module file it loads; the sources bundled
 * into each loaded chunk of dist/cli/ are read from its source map. Asserts modules, never timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, ROOT, isolatedEnv, ops, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';

const HOOK = join(ROOT, 'test', 'helpers', 'module-log.mjs');

/** Run `ops ARGS` and answer with its exit code and the source files (relative to the package) it loaded. */
async function loadedBy(args: string[], env: Record<string, string | undefined>): Promise<{ exitCode: number; stdout: string; sources: string[]; builtins: string[]; tookStdin: boolean }> {
  const log = join(tempDir('ops-modules-'), 'loaded.txt');
  const r = await execa('node', ['--import', HOOK, BIN, ...args], { env: { ...env, OPS_MODULE_LOG: log }, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const sources = new Set<string>();
  const builtins = urls.filter((url) => url.startsWith('node:'));
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const file = fileURLToPath(url);
    sources.add(relative(ROOT, file));
    if (existsSync(file + '.map')) {
      const map = JSON.parse(readFileSync(file + '.map', 'utf8')) as { sources: string[] };
      for (const source of map.sources) sources.add(relative(ROOT, resolve(dirname(file), source)));
    }
  }
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), sources: [...sources].sort(), builtins, tookStdin: urls.includes('process.stdin') };
}

const PROMPTS = /node_modules\/@inquirer\//;
const SPINNER = /node_modules\/ora\//;
const CONFIG_WRITER = /node_modules\/(conf|ajv|ajv-formats|semver)\//;
/** undici's index and what only it loads: WebSocket, EventSource, caches, mocks, interceptors, proxies */
const UNDICI_INDEX = /node_modules\/undici\/(index\.js|lib\/(web\/(websocket|eventsource|cache)|mock|cache|interceptor)\/|lib\/dispatcher\/.*proxy)/;
/**
 * Built-in modules an everyday command over plain http does not need: undici's HTTP/2 half and commander's
 * child_process, and node:http, which undici reads for its default header limit (core/http.ts gives it), are
 * loaded on first use (scripts/bundle-cli.mjs); readline only by `ops pipe shell`
 */
const UNUSED_BUILTINS = new Set(['node:http2', 'node:tls', 'node:crypto', 'node:child_process', 'node:dgram', 'node:http', 'node:readline']);
const COMMAND_TREE = /src\/commands\/(bm|pipe|hook|serve|auth|config|completion)\//;

describe('what a command loads (built binary)', () => {
  let server: ServeHandle;
  beforeAll(async () => {
    server = await startServe();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('runs from the bundle: `ops bm links list` loads chunks of dist/cli, of dist/ only the errors it shares with the server', async () => {
    const r = await loadedBy(['bm', 'links', 'list'], server.env);
    expect(r.exitCode).toBe(0);
    expect(r.sources).toContain('src/core/http.ts');
    expect(r.sources.filter((s) => s.startsWith('dist/') && !s.startsWith('dist/cli/'))).toEqual(['dist/core/errors.js']);
    expect(r.sources.filter((s) => s.startsWith('src/services/'))).toEqual([]);
  });

  it.each([['bm links list'], ['pipe list'], ['hook deliveries'], ['auth status']])(
    '`ops %s` loads no prompt, spinner, config writer, table renderer, nor undici beyond its Agent and request',
    async (command) => {
      const args = command.split(' ');
      const r = await loadedBy(args, server.env);
      expect(r.exitCode).toBe(0);
      expect(r.sources.some((s) => s.includes('node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
      for (const unwanted of [PROMPTS, SPINNER, CONFIG_WRITER, UNDICI_INDEX]) expect(r.sources.filter((s) => unwanted.test(s))).toEqual([]);
      expect(r.builtins).toContain('node:net');
      expect(r.builtins.filter((b) => UNUSED_BUILTINS.has(b))).toEqual([]);
      // built-ins are taken with process.getBuiltinModule: no chunk it loads imports one as ESM (whose facade
      // reads every export: node:process creates stdin, node:fs loads its streams)
      for (const chunk of r.sources.filter((s) => s.startsWith('dist/cli/') && s.endsWith('.js'))) expect(readFileSync(join(ROOT, chunk), 'utf8')).not.toMatch(/^import[^;]*["']node:/m);
      // a command that reads no input never creates process.stdin (core/io.ts takes it on first use)
      expect(r.tookStdin).toBe(false);
      // piped output is tab-separated: no table renderer (core/output.ts loads cli-table3 for a terminal's table)
      expect(r.sources.filter((s) => /node_modules\/(cli-table3|@colors|string-width|emoji-regex)\//.test(s))).toEqual([]);
      // only the tree of the command that runs (auth checks values with config's set.ts)
      const trees = new Set(r.sources.map((s) => COMMAND_TREE.exec(s)?.[1]).filter(Boolean));
      expect(trees).toEqual(new Set(args[0] === 'auth' ? ['auth', 'config'] : [args[0]]));
    },
  );

  it("runs undici from a CommonJS file with V8's code cache: written by a first run, taken by the next, written anew if damaged", async () => {
    const env = { ...server.env, XDG_CACHE_HOME: tempDir('ops-cache-') };
    const first = await loadedBy(['pipe', 'list'], env);
    expect(first.exitCode).toBe(0);
    expect(first.sources.filter((s) => /^dist\/cli\/http-client-[\w-]+\.cjs$/.test(s))).toHaveLength(1);
    const dir = join(env.XDG_CACHE_HOME, 'ops', 'code-cache');
    const [name] = readdirSync(dir);
    expect(name).toMatch(new RegExp(`^http-client-[\\w-]+\\.cjs\\.${process.version.replace(/\./g, '\\.')}-[0-9a-f]+$`));
    const cache = join(dir, name!);
    const written = statSync(cache);

    const second = await ops(['pipe', 'list'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(statSync(cache).ino).toBe(written.ino); // V8 took it: not written again (a write renames a new file in)
    expect(readdirSync(dir)).toEqual([name]);

    // other V8 flags (as `ops serve`, which does not tune V8 as a command does) keep a cache of their own
    const otherFlags = await execa('node', ['--no-opt', BIN, 'pipe', 'list'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(otherFlags.exitCode).toBe(0);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(statSync(cache).ino).toBe(written.ino);

    // a changed byte in V8's data (which V8 does not check: it would crash) is caught by the cache's own checksum
    const flipped = readFileSync(cache);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    writeFileSync(cache, flipped);
    const afterFlip = await ops(['pipe', 'list'], { env });
    expect(afterFlip.exitCode).toBe(0);
    expect(afterFlip.stdout).toBe(first.stdout);
    expect(readFileSync(cache).equals(flipped)).toBe(false); // written anew

    writeFileSync(cache, 'damaged');
    const third = await ops(['pipe', 'list'], { env });
    expect(third.exitCode).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(readFileSync(cache, 'utf8')).not.toBe('damaged');
  });

  it('`ops --version` and `ops --version --json` load no command tree, not even commander', async () => {
    for (const args of [['--version'], ['--version', '--json']]) {
      const r = await loadedBy(args, isolatedEnv());
      expect(r.exitCode).toBe(0);
      expect(r.sources.filter((s) => COMMAND_TREE.test(s) || s.includes('node_modules/commander/'))).toEqual([]);
    }
  });

  it('`ops --help` loads commander and the root: no command tree, no context, output or config, no HTTP client', async () => {
    const r = await loadedBy(['--help'], isolatedEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Usage: ops');
    expect(r.sources.filter((s) => COMMAND_TREE.test(s) || s.includes('node_modules/undici/'))).toEqual([]);
    expect(r.sources.filter((s) => /^src\/(context|core\/(output|config|http))\.ts$/.test(s) || s.includes('node_modules/cli-table3/'))).toEqual([]);
  });

  it('`ops config set` loads conf to write (reading never does)', async () => {
    const env = isolatedEnv();
    const r = await loadedBy(['config', 'set', 'bm.url', 'http://127.0.0.1:1'], env);
    expect(r.exitCode).toBe(0);
    expect(r.sources.some((s) => s.includes('node_modules/conf/'))).toBe(true);
    const read = await loadedBy(['config', 'get', 'bm.url'], env);
    expect(read.stdout.trim()).toBe('http://127.0.0.1:1');
    expect(read.sources.filter((s) => CONFIG_WRITER.test(s))).toEqual([]);
  });
});
