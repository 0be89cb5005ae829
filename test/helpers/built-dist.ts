/**
 * Makes sure dist/ (the tsc build, as `npm test` makes it in pretest) is at least as new as the
 * sources under the given src/ folders; builds it once if not. For tests that spawn node processes
 * running the built code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function newestMtime(dir: string): number {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function ensureBuilt(distFile: string, srcDirs: string[]): string {
  const out = join(ROOT, 'dist', distFile);
  const srcNewest = Math.max(...srcDirs.map((d) => newestMtime(join(ROOT, 'src', d))));
  if (!existsSync(out) || statSync(out).mtimeMs < srcNewest) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  return out;
}
