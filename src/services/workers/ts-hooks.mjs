/**
 * Module hooks for a worker started from the TypeScript sources (tests and development only; the
 * built code in dist/ never loads this file): `.ts` files are compiled on load with the oxc transform
 * that ships with vitest's vite (rolldown), or with TypeScript's transpileModule (a dev dependency) where
 * that is missing; `./x.js` imports resolve to `./x.ts` as tsc maps them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** (path, source) -> JavaScript */
let transform;

export async function initialize() {
  try {
    const { transformSync } = await import('rolldown/experimental');
    transform = (path, source) => {
      const out = transformSync(path, source, { sourcemap: false });
      if (out.errors?.length) throw new Error(`${path}: ${out.errors[0].message}`);
      return out.code;
    };
  } catch {
    const ts = (await import('typescript')).default;
    transform = (path, source) => ts.transpileModule(source, { fileName: path, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  }
}

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) return next(specifier.slice(0, -3) + '.ts', context);
    throw err;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const path = fileURLToPath(url);
  return { format: 'module', source: transform(path, await readFile(path, 'utf8')), shortCircuit: true };
}
