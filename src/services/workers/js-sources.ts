/**
 * A plain JavaScript copy of src/ for the worker threads and processes we start while running from the
 * TypeScript sources (vitest, development): each src/X.ts is transformed to .src-js/X.js with the oxc
 * transform that ships with vitest's vite (rolldown), or with TypeScript's transpileModule (a dev
 * dependency) where that is missing. The copy sits beside src/ as dist/ does, so paths taken relative to a
 * module (../../package.json) hold, and its relative imports (`./x.js`, as tsc maps them) find the copied
 * modules. A worker loads it as it loads built code: registering module hooks in each worker instead (a
 * hooks thread that transformed the graph again for each worker) cost 0.75 s of CPU to load a pipeline
 * worker's modules against 0.3 s.
 *
 * Rules: a module is run only from a copy made from its source as it is now: the source's hash heads its
 * copy, and a source whose size or mtime changed, or whose copy changed, is looked at again at the next
 * start. A stale or missing copy is made again, written under a temporary name and renamed, so that
 * processes making it at once never read half a file. Built code (dist/) never calls this; the transforms
 * are loaded only when a copy is made.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
const checked = new Map<string, { size: number; mtimeMs: number; copyMtimeMs: number }>();
let transform: ((path: string, source: string) => string) | undefined;

/** `entry` itself when it is JavaScript (built code), else the URL of its fresh JavaScript copy. */
export function runnableModule(entry: URL): URL {
  return entry.pathname.endsWith('.ts') ? javascriptCopy(entry) : entry;
}

/** The URL of a fresh JavaScript copy of `entry`, a module under src/ (its whole tree made fresh first). */
export function javascriptCopy(entry: URL, tree: SourceTree = SOURCES): URL {
  const path = fileURLToPath(entry);
  const rel = relative(tree.src, path);
  if (rel.startsWith('..') || !rel.endsWith('.ts')) throw new Error(`not a TypeScript module under ${tree.src}: ${path}`);
  for (const source of tsFiles(tree.src)) refresh(tree, source);
  return pathToFileURL(copyPath(tree, path));
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
  checked.set(source, { size, mtimeMs, copyMtimeMs: statSync(target).mtimeMs });
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
