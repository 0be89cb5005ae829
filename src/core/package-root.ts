/**
 * The directory of the `ops` package (the one holding its package.json), found from any module of ours wherever
 * it runs from: src/ (tests), tsc's dist/ or the bundle in dist/cli/, whose chunks sit at other depths than
 * their sources. Paths to files shipped in the package (package.json, assets/) are taken from here, never as
 * `../..` from a module.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

export function packageRoot(): string {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  found = dir;
  return dir;
}

/** The absolute path of a file shipped in the package, e.g. packageFile('assets', 'demo', 'shop.sql'). */
export function packageFile(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}
