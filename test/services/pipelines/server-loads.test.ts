/**
 * What the server process loads (docs/architecture.md, "The processes of `ops serve`"): a pipeline's work runs in
 * its own process and SQL compiles in the compiler's, so the server process loads none of the engine's modules (its
 * SQL parser and binder, their WebAssembly) nor the pipeline service's worker side, neither at start nor when a
 * program is compiled. The server runs in a child process with a module load hook that writes down every module
 * it loads, and WebAssembly's entry points wrapped to say who compiles what. test/house/layering.test.ts keeps the
 * imports that would load them out; this test checks what a real server process does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, test } from 'vitest';
import { javascriptCopy } from '../../../src/services/workers/js-sources.js';

/** Registers the load hook, wraps WebAssembly, starts the server from the JavaScript copy of src/, then answers "report" on stdin. */
const CHILD = `
import { register } from 'node:module';
import { createInterface } from 'node:readline';
const hook = "import { appendFileSync } from 'node:fs'; let file; export function initialize(d) { file = d.file; } " +
  "export async function load(url, context, next) { appendFileSync(file, url + '\\\\n'); return next(url, context); }";
register('data:text/javascript,' + encodeURIComponent(hook), import.meta.url, { data: { file: process.env.LOADED_FILE } });
const wasm = [];
for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) { wasm.push(name + ' ' + (new Error().stack ?? '').split('\\n').slice(2, 5).join(' / ')); return original.apply(this, args); };
}
WebAssembly.Module = new Proxy(WebAssembly.Module, { construct(target, args) { wasm.push('Module'); return Reflect.construct(target, args); } });
const { startServer } = await import(process.env.SERVER_JS);
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: process.env.DATA_DIR, fetchMetadata: false, linkCheck: false });
console.log('READY ' + server.url);
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'report') continue;
  console.log('WASM ' + JSON.stringify(wasm));
  await server.close();
  process.exit(0);
}
`;

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  lines: AsyncIterator<string>;
  loadedFile: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startChild(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'ops-server-loads-'));
  dirs.push(dir);
  const loadedFile = join(dir, 'loaded.txt');
  const serverJs = javascriptCopy(new URL('../../../src/services/server.ts', import.meta.url)).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: { ...process.env, LOADED_FILE: loadedFile, SERVER_JS: serverJs, DATA_DIR: join(dir, 'data'), NODE_OPTIONS: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error(`the server did not start: ${stderr}`);
    if (next.value.startsWith('READY ')) return { child, url: next.value.slice('READY '.length), lines, loadedFile };
  }
}

/** The modules loaded so far: src/ modules as src-relative paths (from the copy), packages by their path under node_modules. */
function loaded(server: Server): string[] {
  return readFileSync(server.loadedFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => url.replace(/^.*\/\.src-js\//, 'src/').replace(/^.*\/node_modules\//, 'node_modules/'));
}

async function report(server: Server): Promise<string[]> {
  server.child.stdin.write('report\n');
  for (;;) {
    const next = await server.lines.next();
    if (next.done) throw new Error('the server ended without its report');
    if (next.value.startsWith('WASM ')) return JSON.parse(next.value.slice('WASM '.length)) as string[];
  }
}

async function compiled(base: string, name: string): Promise<unknown> {
  const until = Date.now() + 90_000;
  for (;;) {
    const res = await fetch(`${base}/v0/pipelines/${name}`);
    const status = ((await res.json()) as { program_status: unknown }).program_status;
    if (status === 'Success' || (typeof status === 'object' && status !== null)) return status;
    if (Date.now() > until) throw new Error(`no compile result: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the server process', () => {
  test("loads none of the engine's modules, the SQL parser or the worker side, at start nor while programs compile", { timeout: 120_000 }, async () => {
    const server = await startChild();
    try {
      const atStart = loaded(server);
      // a check on the hook itself: it saw the server's own modules
      expect(atStart).toContain('src/services/server.js');
      expect(atStart).toContain('src/services/pipelines/index.js');
      expect(atStart).toContain('src/services/pipelines/control/manager.js');
      expect(atStart).toContain('src/services/pipelines/runner/host.js');

      const put = (name: string, program_code: string) =>
        fetch(`${server.url}/v0/pipelines/${name}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, program_code, runtime_config: {} }) });
      expect((await put('good', 'CREATE TABLE t (x INT); CREATE VIEW v AS SELECT x + 1 AS y FROM t;')).status).toBe(201);
      expect((await put('bad', 'CREATE TABLE t (x INT); CREATE VIEW v AS SELECT nope FROM t;')).status).toBe(201);
      expect(await compiled(server.url, 'good')).toBe('Success');
      expect(await compiled(server.url, 'bad')).toHaveProperty('SqlError');
      const validate = await fetch(`${server.url}/v0/validate_program`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ program_code: 'CREATE TABLE u (a INT);' }),
      });
      expect(validate.status).toBe(200);

      const all = loaded(server);
      expect(all.filter((m) => m.startsWith('src/engine/'))).toEqual([]);
      expect(all.filter((m) => m.startsWith('src/services/pipelines/worker/'))).toEqual([]);
      expect(all.filter((m) => m.includes('sqlparser') || m.endsWith('.wasm'))).toEqual([]);
      // Node's own fetch compiles its HTTP parser (undici's llhttp) to WebAssembly: not ours, left out
      expect((await report(server)).filter((call) => !call.includes('node:internal/deps/undici'))).toEqual([]);
    } finally {
      server.child.kill();
    }
  });
});
