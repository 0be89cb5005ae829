/**
 * Module hooks for a worker started from the TypeScript sources (tests and development only; the
 * built code in dist/ never loads this file): `.ts` files are compiled on load with the oxc transform
 * that ships with the dev tooling (rolldown), and `./x.js` imports resolve to `./x.ts` as tsc maps them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

let transformSync;

export async function initialize() {
  ({ transformSync } = await import('rolldown/experimental'));
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
  const out = transformSync(path, await readFile(path, 'utf8'), { sourcemap: false });
  if (out.errors?.length) throw new Error(`${path}: ${out.errors[0].message}`);
  return { format: 'module', source: out.code, shortCircuit: true };
}
