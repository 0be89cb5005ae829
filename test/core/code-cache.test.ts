/** core/code-cache.ts: a CommonJS file runs as require would, and V8's code for it is kept and taken again. */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { requireWithCodeCache, saveCodeCaches } from '../../src/core/code-cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A CommonJS file in a fresh directory (its name unique, as the bundle's content-hashed names are), and a cache directory. */
function setup(source: string): { file: string; env: NodeJS.ProcessEnv; cacheFiles: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'ops-code-cache-'));
  dirs.push(dir);
  const file = join(dir, `part-${process.hrtime.bigint()}.cjs`);
  writeFileSync(file, source);
  const env = { XDG_CACHE_HOME: join(dir, 'cache') };
  const codeCache = join(dir, 'cache', 'ops', 'code-cache');
  return { file, env, cacheFiles: () => (existsSync(codeCache) ? readdirSync(codeCache).map((f) => join(codeCache, f)) : []) };
}

const SOURCE = `
const { join } = require('node:path');
let missing;
try { require('node:no-such-builtin'); } catch (err) { missing = err.code; }
function add(a, b) { return a + b; }
module.exports = { joined: join('a', 'b'), sum: add(2, 3), missing, file: __filename, self: exports === module.exports };
`;

describe('requireWithCodeCache', () => {
  it("runs the file as require would: its exports, node's built-ins, a missing built-in throwing as require throws", () => {
    const { file, env } = setup(SOURCE);
    const exports = requireWithCodeCache(file, env) as Record<string, unknown>;
    expect(exports).toEqual({ joined: join('a', 'b'), sum: 5, missing: expect.stringMatching(/ERR_UNKNOWN_BUILTIN_MODULE|MODULE_NOT_FOUND/), file, self: true });
  });

  it("keeps V8's code for the file once it ran: written as the process exits, for this node and V8 flags, readable by its user only", () => {
    const { file, env, cacheFiles } = setup(SOURCE);
    requireWithCodeCache(file, env);
    expect(cacheFiles()).toEqual([]); // written when the process exits, with all it compiled
    saveCodeCaches();
    const [cache] = cacheFiles();
    expect(cache).toContain(`${process.version}-${cachedDataVersionTag().toString(16)}`);
    expect(statSync(cache!).mode & 0o777).toBe(0o600);
    expect(readFileSync(cache!).length).toBeGreaterThan(0);
    // that a later process takes it (and one that is damaged is refused and written anew) is for a new
    // process to show: within one, V8 keeps the compiled script itself (test/e2e/cli-loading.test.ts)
  });

  it("an error's stack names the file's own line and column", () => {
    const { file, env } = setup('const ok = 1;\n  module.exports = () => { throw new Error("here"); };\n');
    const thrower = requireWithCodeCache(file, env) as () => void;
    expect(() => thrower()).toThrow(expect.objectContaining({ stack: expect.stringContaining(`${file}:2:34`) }));
  });

  it('NODE_DISABLE_COMPILE_CACHE turns it off, and an unwritable cache directory only means no cache', () => {
    const { file, env, cacheFiles } = setup(SOURCE);
    expect((requireWithCodeCache(file, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' }) as { sum: number }).sum).toBe(5);
    saveCodeCaches();
    expect(cacheFiles()).toEqual([]);

    const blocked = join(file, '..', 'blocked');
    writeFileSync(blocked, ''); // a file where the cache directory would be
    expect(() => requireWithCodeCache(file, { XDG_CACHE_HOME: join(blocked, 'under-a-file') })).not.toThrow();
    expect(() => saveCodeCaches()).not.toThrow();
  });
});
