/**
 * The import graph of src/: every module's imports of our own modules (static, dynamic and re-exports; a
 * type-only import is marked so), read from the source text. Used by the layering and cycle tests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '..', '..', 'src');

export interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  dynamic: boolean;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** src-relative module path of a `.js` specifier written in `file`, or undefined for packages and node:. */
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
}

export function importGraph(): { modules: string[]; edges: Edge[] } {
  const all = files(SRC);
  const edges: Edge[] = [];
  for (const file of all) {
    const text = readFileSync(file, 'utf8');
    const from = relative(SRC, file);
    for (const m of text.matchAll(STATIC)) {
      const to = target(file, m[3]!);
      if (!to) continue;
      // `import { type A, type B } from` is type-only too
      const names = /\{([^}]*)\}/.exec(m[0]!)?.[1];
      const allTypes =
        names !== undefined && !/^\s*(import|export)\s+\w/.test(m[0]!.replace(/^\s*(import|export)\s+type\b/, '')) && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '));
      edges.push({ from, to, typeOnly: Boolean(m[2]) || allTypes, dynamic: false });
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const to = target(file, m[1]!);
      if (to) edges.push({ from, to, typeOnly: false, dynamic: true });
    }
  }
  return { modules: all.map((f) => relative(SRC, f)), edges };
}
