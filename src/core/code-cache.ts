/**
 * V8's code cache for the bundle's CommonJS parts, as Node 22's `module.enableCompileCache()` keeps one for every
 * module: Node 20 has no such cache, and its ES module loader takes no cached code, so a part that is big and runs
 * on every request (undici's Agent and request: scripts/bundle-cli.mjs makes it `http-client-<hash>.cjs`) is
 * built as CommonJS and run from here. V8 compiles a script lazily, function by function as they first run, which
 * cost a command about a tenth of its time for undici alone; with the code of an earlier run the functions come
 * ready.
 *
 * Contract: `requireWithCodeCache(file)` runs a CommonJS file as `require` would (its `require` takes node's
 * built-ins; the bundle holds everything else) and answers its exports. The code V8 made for it is kept in
 * `<cache dir>/code-cache/<file name>.<node version>-<V8's tag>` (XDG_CACHE_HOME, else ~/.cache, + /ops; the
 * tag sums up V8's version, flags and CPU features): read when
 * there, else written as the process exits (saveCodeCaches), with every function the run compiled. The file name
 * carries a hash of the content, so a changed file is a new name, never a stale cache. A cache is written with a
 * CRC-32 of V8's data and taken only if it matches: V8 checks the data's header but not the rest (a changed byte
 * in it crashes the process), as Node 22's compile cache checks its own. A damaged cache is written anew. Any
 * failure to read or write the cache only means compiling without it.
 * NODE_DISABLE_COMPILE_CACHE (Node 22's switch) turns it off.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { cacheDir } from './paths.js';

type CommonJsFunction = (exports: object, require: (id: string) => unknown, module: { exports: object }, filename: string, dirname: string) => void;

export function requireWithCodeCache(file: string | URL, env: NodeJS.ProcessEnv = process.env): unknown {
  const filename = typeof file === 'string' ? file : fileURLToPath(file);
  const cacheFile = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFileOf(filename, env);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const source = readFileSync(filename, 'utf8');
  // the wrapper of node's CommonJS loader, on a line of its own that does not count: the file's lines and
  // columns are as in the file (and its source map)
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, { filename, cachedData, lineOffset: -1 });
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    if (unsaved.size === 0) process.once('exit', saveCodeCaches);
    unsaved.set(cacheFile, script);
  }
  const module = { exports: {} };
  let fallback: NodeJS.Require | undefined;
  // a built-in this Node lacks (undici probes node:sqlite) is left to require, which throws as undici expects
  const requireBuiltin = (id: string): unknown => process.getBuiltinModule(id) ?? (fallback ??= createRequire(filename))(id);
  (script.runInThisContext() as CommonJsFunction)(module.exports, requireBuiltin, module, filename, dirname(filename));
  return module.exports;
}

/** Scripts whose code is to be kept, by cache file: saved at exit, when they have compiled what the run ran. */
const unsaved = new Map<string, Script>();

/** Write the caches not yet written (run as the process exits). */
export function saveCodeCaches(): void {
  for (const [file, script] of unsaved) writeCache(file, script);
  unsaved.clear();
}

/** Where the code of `filename` is kept; none when there is no cache directory (no home directory to put it in). */
function cacheFileOf(filename: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    // V8's tag of its version, flags and CPU features: `ops serve` runs with other flags than a command (main.ts),
    // and each keeps its own cache rather than each refusing and rewriting the other's
    const tag = process.getBuiltinModule('node:v8').cachedDataVersionTag().toString(16);
    return join(cacheDir(env), 'code-cache', `${basename(filename)}.${process.version}-${tag}`);
  } catch {
    return undefined;
  }
}

/** V8's data from a cache file (its CRC-32, then the data), if it is whole. */
function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(CHECKSUM_BYTES);
  return bytes.length > CHECKSUM_BYTES && bytes.readUInt32BE(0) === crc32(data) ? data : undefined;
}

const CHECKSUM_BYTES = 4;

/** Written whole or not at all (a temporary file renamed), by a process that may share the cache with others. */
function writeCache(file: string, script: Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    const data = script.createCachedData();
    const checksum = Buffer.alloc(CHECKSUM_BYTES);
    checksum.writeUInt32BE(crc32(data));
    writeFileSync(temporary, Buffer.concat([checksum, data]), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // no cache: the next run compiles as this one did
  }
}
