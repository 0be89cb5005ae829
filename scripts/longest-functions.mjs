// The longest functions of src/ (issue #35's measure of the house), read with the TypeScript compiler API:
// every function, method, accessor, constructor and arrow function, counted in lines from its first line to its
// last, longest first. Usage: `node scripts/longest-functions.mjs [N] [DIR]` (N = 10, DIR = src). Writes nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const most = Number(process.argv[2] ?? 10);
const root = process.argv[3] ?? 'src';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The name a function is known by: its own, its variable's, its property's, or `(anonymous)`. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText();
  return '(anonymous)';
}

const rows = [];
for (const file of files(root)) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      rows.push({ lines: last - first + 1, where: `${relative('.', file)}:${first + 1}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
rows.sort((a, b) => b.lines - a.lines);
for (const r of rows.slice(0, most)) console.log(`${String(r.lines).padStart(4)}  ${r.name}  ${r.where}`);
