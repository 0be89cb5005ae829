/**
 * A plain JavaScript copy of src/ for the worker threads and processes we start while running from the
 * TypeScript sources (vitest, development): each src/X.ts is transformed to .src-js/X.js with the oxc
 * transform that ships with vitest's vite (rolldown), or with TypeScript's transpileModule (a dev
 * dependency) where that is missing. The copy sits beside src/ as dist/ does, so paths taken relative to a
 * module (../../package.json) hold, and its relative imports (`./x.js`, as tsc maps them) find the copied
 * modules. What a worker runs is the copy of its entry bundled with the copies it imports into one file
 * (bundledCopy). Registering module hooks in each worker instead (a hooks thread that transformed the
 * graph again for each worker) cost 0.75 s of CPU to load a pipeline worker's modules, against 0.18 s
 * from the copies and 0.11 s from the bundle.
 *
 * Rules: a module is run only from a copy made from its source as it is now: the source's hash heads its
 * copy, and a source whose size or mtime changed, or whose copy changed, is looked at again at the next
 * start. A stale or missing copy is made again, written under a temporary name and renamed, so that
 * processes making it at once never read half a file. Built code (dist/) never calls this; the transforms
 * are loaded only when a copy is made.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A source tree and where its copy goes. */
export interface SourceTree {
  src: string;
  copy: string;
}

const SOURCES: SourceTree = { src: fileURLToPath(new URL('../../', import.meta.url)), copy: fileURLToPath(new URL('../../../.src-js/', import.meta.url)) };

/** Each source and its copy as they were when the copy was last found or made fresh in this process. */
const checked = new Map<string, { size: number; mtimeMs: number; copyMtimeMs: number; hash: string }>();
let transform: ((path: string, source: string) => string) | undefined;

/**
 * `entry` itself when it is JavaScript (built code), else its fresh JavaScript copy bundled into one file
 * (bundledCopy), or the copy itself where it cannot be bundled.
 */
export function runnableModule(entry: URL): URL {
  return entry.pathname.endsWith('.ts') ? bundledCopy(entry) : entry;
}

/**
 * The fresh copy of `entry` and the copies it imports bundled into one file beside it (X.bundle.js), with
 * rolldown (vitest's vite bundler), in a node process of its own since that is asynchronous; packages and
 * node's modules stay imports. A pipeline's worker loads its 130 modules in 0.11 s of CPU from the bundle
 * against 0.18 s from the copies. The bundle is headed by a hash of every source: any change to src/ makes
 * it again (0.3 s). Where rolldown is missing or the bundle cannot be made, the copy runs as it is.
 */
export function bundledCopy(entry: URL, tree: SourceTree = SOURCES): URL {
  const copy = javascriptCopy(entry, tree);
  const key = createHash('sha1');
  for (const [source, { hash }] of [...checked].filter(([source]) => !relative(tree.src, source).startsWith('..')).sort(([a], [b]) => (a < b ? -1 : 1)))
    key.update(`${relative(tree.src, source)} ${hash}\n`);
  const banner = `// bundle of ${key.digest('hex')}`;
  const target = fileURLToPath(copy).replace(/\.js$/, '.bundle.js');
  if (startsWith(target, banner + '\n')) return pathToFileURL(target);
  const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp.js`;
  try {
    const rolldown = pathToFileURL(createRequire(import.meta.url).resolve('rolldown')).href;
    const options = { input: fileURLToPath(copy), platform: 'node', logLevel: 'silent', output: { file: temporary, format: 'esm', banner } };
    const script = `const { build } = await import(${JSON.stringify(rolldown)});
const options = ${JSON.stringify(options)};
await build({ ...options, external: (id) => !id.startsWith('.') && !id.startsWith('/') });`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore', timeout: 60_000 });
    renameSync(temporary, target);
    return pathToFileURL(target);
  } catch {
    rmSync(temporary, { force: true });
    return copy;
  }
}

/** The URL of a fresh JavaScript copy of `entry`, a module under src/ (its whole tree made fresh first). */
export function javascriptCopy(entry: URL, tree: SourceTree = SOURCES): URL {
  const path = fileURLToPath(entry);
  const rel = relative(tree.src, path);
  if (rel.startsWith('..') || !rel.endsWith('.ts')) throw new Error(`not a TypeScript module under ${tree.src}: ${path}`);
  for (const source of tsFiles(tree.src)) refresh(tree, source);
  return pathToFileURL(copyPath(tree, path));
}

/** Whether the file begins with `text` (only that much of it is read). */
function startsWith(path: string, text: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(Buffer.byteLength(text));
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('utf8') === text;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

function copyPath(tree: SourceTree, source: string): string {
  return join(tree.copy, relative(tree.src, source)).replace(/\.ts$/, '.js');
}

/** Makes the copy of one source again unless it was made from the source as it is now. */
function refresh(tree: SourceTree, source: string): void {
  const { size, mtimeMs } = statSync(source);
  const target = copyPath(tree, source);
  const seen = checked.get(source);
  if (seen && seen.size === size && seen.mtimeMs === mtimeMs && seen.copyMtimeMs === statSync(target, { throwIfNoEntry: false })?.mtimeMs) return;
  const code = readFileSync(source, 'utf8');
  const header = `// from ${createHash('sha1').update(code).digest('hex')}\n`;
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // no copy yet
  }
  if (!current.startsWith(header)) {
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temporary, header + transformer()(source, code));
    renameSync(temporary, target);
  }
  checked.set(source, { size, mtimeMs, copyMtimeMs: statSync(target).mtimeMs, hash: header });
}

function transformer(): (path: string, source: string) => string {
  if (transform) return transform;
  const require = createRequire(import.meta.url);
  try {
    const { transformSync } = require('rolldown/experimental') as typeof import('rolldown/experimental');
    transform = (path, source) => {
      const out = transformSync(path, source, { sourcemap: false });
      if (out.errors?.length) throw new Error(`${path}: ${out.errors[0]!.message}`);
      return out.code;
    };
  } catch {
    const ts = require('typescript') as typeof import('typescript');
    transform = (path, source) => ts.transpileModule(source, { fileName: path, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  }
  return transform;
}
