/**
 * The WASM SQL parser (datafusion-sqlparser-rs through @guanmingchiu/sqlparser-ts), owned here so that a
 * failure inside WASM cannot leave parsing broken.
 * - Nesting is bounded by the parser's own recursion limit (RECURSION_LIMIT), chosen below the depth at which
 *   the WASM stack overflows (about 400 levels of `(a OR (b OR ...))` overflow; 300 parse), so deep input gets
 *   a clean "recursion limit exceeded" syntax error.
 * - Anything else that breaks the instance (a WebAssembly.RuntimeError such as "memory access out of bounds"
 *   leaves Rust's stack pointer corrupt and every later call failing) swaps in a fresh instance, created
 *   synchronously from the compiled module and a fresh copy of the glue code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInThisContext } from 'node:vm';

export const RECURSION_LIMIT = 600;

/** The few WebAssembly names used here (the project's TypeScript lib has no DOM/WebAssembly declarations). */
declare const WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule; RuntimeError: new (message?: string) => Error };
type WasmModule = object;

interface Glue {
  initSync(arg: { module: WasmModule }): unknown;
  parse_sql_with_options(dialect: string, sql: string, options: unknown): unknown;
}

const pkgMain = createRequire(import.meta.url).resolve('@guanmingchiu/sqlparser-ts');
const wasmDir = join(dirname(pkgMain), '..', 'wasm');
const compiled = new WebAssembly.Module(readFileSync(join(wasmDir, 'sqlparser_rs_wasm_bg.wasm')));

/**
 * The wasm-bindgen glue keeps its instance in module-level variables, so a fresh instance needs a fresh copy
 * of the glue: its text is evaluated as a function body (exports dropped, the async loader's
 * `import.meta.url` replaced) and the compiled module instantiated synchronously.
 */
const glueFactory = runInThisContext(
  '(function () {\n' +
    readFileSync(join(wasmDir, 'sqlparser_rs_wasm.js'), 'utf8')
      .replace(/^export function /gm, 'function ')
      .replace(/^export \{[^}]*\};?\s*$/m, '')
      .replace(/import\.meta\.url/g, JSON.stringify(pathToFileURL(join(wasmDir, 'sqlparser_rs_wasm.js')).href)) +
    '\nreturn { initSync, parse_sql_with_options };\n})',
  { filename: 'sqlparser_rs_wasm.js' },
) as () => Glue;

function freshInstance(): Glue {
  const glue = glueFactory();
  glue.initSync({ module: compiled });
  return glue;
}

let current: Glue = freshInstance();
/** How many times a broken instance was replaced (for tests). */
export let parserRestarts = 0;

function replaceInstance(): void {
  parserRestarts++;
  current = freshInstance();
}

/** Parse SQL text with the generic dialect; throws the parser's error (a clean syntax error) on bad input. */
export function parseSql(sql: string): unknown {
  try {
    return current.parse_sql_with_options('generic', sql, { recursionLimit: RECURSION_LIMIT });
  } catch (err: unknown) {
    const message =
      err instanceof Error ? err.message : err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string' ? (err as { message: string }).message : String(err);
    if (err instanceof WebAssembly.RuntimeError || /memory access out of bounds|unreachable|call stack/i.test(message)) {
      replaceInstance();
      throw new Error(`sql parser error: the statement is too deeply nested or too long to parse (${message})`, { cause: err });
    }
    throw new Error(message, { cause: err });
  }
}
