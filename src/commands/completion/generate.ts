/**
 * Writes the generated files of the package from the full command tree:
 * completions/ops.bash, completions/_ops, completions/ops.fish and man/ops.1.
 *
 *   npm run build && node dist/commands/completion/generate.js           # write them
 *   npm run build && node dist/commands/completion/generate.js --check   # exit 1 if any is stale
 *
 * The man page keeps the date of its title line unless its content changes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../core/package-root.js';
import { version } from '../../core/version.js';
import { buildProgram } from '../../program.js';
import { generatedFiles, manDate } from './scripts.js';

/** The package root. */
export const PACKAGE_ROOT = packageRoot();

function read(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** What the generated files should contain, given the committed ones (for the man page's date). */
export async function expectedFiles(root = PACKAGE_ROOT, today = new Date().toISOString().slice(0, 10)): Promise<Record<string, string>> {
  const program = await buildProgram([], { loadAll: true });
  const committedMan = read(join(root, 'man/ops.1'));
  const keptDate = committedMan ? manDate(committedMan) : undefined;
  if (keptDate) {
    const files = generatedFiles(program, { version: version(), date: keptDate });
    if (files['man/ops.1'] === committedMan) return files;
  }
  return generatedFiles(program, { version: version(), date: today });
}

/** Files whose committed content differs from what the tree generates. */
export async function staleFiles(root = PACKAGE_ROOT): Promise<string[]> {
  const files = await expectedFiles(root);
  return Object.entries(files)
    .filter(([path, content]) => read(join(root, path)) !== content)
    .map(([path]) => path);
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--check')) {
    const stale = await staleFiles();
    for (const path of stale) process.stderr.write(`stale: ${path}\n`);
    if (stale.length) process.stderr.write('Regenerate with: npm run build && node dist/commands/completion/generate.js\n');
    return stale.length ? 1 : 0;
  }
  const files = await expectedFiles();
  for (const [path, content] of Object.entries(files)) {
    const file = join(PACKAGE_ROOT, path);
    mkdirSync(dirname(file), { recursive: true });
    if (read(file) === content) continue;
    writeFileSync(file, content);
    process.stdout.write(`wrote ${path}\n`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`generate: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
