/**
 * The JavaScript copy of the sources that workers run from while the tests run from TypeScript
 * (workers/js-sources.ts): a tree of .ts modules copied to runnable .js with their relative imports, a copy
 * made again when its source changes and only then, the copies bundled into one file made again when any
 * source changes, and a worker started from a .ts module of ours.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledCopy, javascriptCopy, type SourceTree } from '../../../src/services/workers/js-sources.js';
import { spawnWorker } from '../../../src/services/workers/spawn.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-js-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): SourceTree {
  const src = join(dir, name, 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(src, path, '..'), { recursive: true });
    writeFileSync(join(src, path), text);
  }
  return { src, copy: join(dir, name, '.src-js') };
}

const entry = (t: SourceTree, path: string) => pathToFileURL(join(t.src, path));

describe('the JavaScript copy of the sources', () => {
  it('runs: types are gone, relative ./x.js imports find the copied modules, subdirectories kept', async () => {
    const t = tree('runs', {
      'main.ts': "import { twice } from './lib/twice.js';\nexport interface Shape { n: number }\nexport const value: Shape = { n: twice(21 as number) };\n",
      'lib/twice.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
    });
    const url = javascriptCopy(entry(t, 'main.ts'), t);
    expect(url.pathname).toBe(pathToFileURL(join(t.copy, 'main.js')).pathname);
    expect(readFileSync(join(t.copy, 'lib/twice.js'), 'utf8')).not.toContain(': number');
    expect((await import(url.href)).value).toEqual({ n: 42 });
  });

  it('is made again when a source changes, and only then', () => {
    const t = tree('changes', { 'a.ts': 'export const a: number = 1;\n', 'b.ts': 'export const b: string = "one";\n' });
    javascriptCopy(entry(t, 'a.ts'), t);
    const aCopy = join(t.copy, 'a.js');
    const bCopy = join(t.copy, 'b.js');
    const aMade = statSync(aCopy).mtimeMs;
    expect(readFileSync(bCopy, 'utf8')).toContain('"one"');

    writeFileSync(join(t.src, 'b.ts'), 'export const b: string = "two, changed";\n');
    javascriptCopy(entry(t, 'a.ts'), t);
    expect(readFileSync(bCopy, 'utf8')).toContain('"two, changed"');
    expect(statSync(aCopy).mtimeMs).toBe(aMade);

    // a source touched but not changed keeps its copy; a copy changed or removed is made again
    const later = new Date(Date.now() + 5000);
    utimesSync(join(t.src, 'a.ts'), later, later);
    writeFileSync(bCopy, 'export const b = "not from the source";\n');
    javascriptCopy(entry(t, 'a.ts'), t);
    expect(statSync(aCopy).mtimeMs).toBe(aMade);
    expect(readFileSync(bCopy, 'utf8')).toContain('"two, changed"');
    rmSync(bCopy);
    javascriptCopy(entry(t, 'a.ts'), t);
    expect(readFileSync(bCopy, 'utf8')).toContain('"two, changed"');
  });

  it('refuses a module outside the tree or not TypeScript, and names a source that does not transform', () => {
    const t = tree('refuses', { 'ok.ts': 'export const ok = 1;\n', 'x.mjs': 'export const x = 1;\n' });
    expect(() => javascriptCopy(pathToFileURL(join(dir, 'elsewhere.ts')), t)).toThrow(/not a TypeScript module under/);
    expect(() => javascriptCopy(entry(t, 'x.mjs'), t)).toThrow(/not a TypeScript module under/);
    writeFileSync(join(t.src, 'broken.ts'), 'export const = ;\n');
    expect(() => javascriptCopy(entry(t, 'ok.ts'), t)).toThrow(/broken\.ts/);
  });

  it('bundles the copies into one file that runs, made again when a source changes', async () => {
    const t = tree('bundle', {
      'main.ts': "import { twice } from './lib/twice.js';\nimport { sep } from 'node:path';\nexport const value: number = twice(21);\nexport const separator = sep;\n",
      'lib/twice.ts': 'export const twice = (n: number): number => n * 2;\n',
    });
    const url = bundledCopy(entry(t, 'main.ts'), t);
    expect(url.pathname).toBe(pathToFileURL(join(t.copy, 'main.bundle.js')).pathname);
    const first = readFileSync(url, 'utf8');
    expect(first).toMatch(/^\/\/ bundle of [0-9a-f]{40}\n/);
    expect(first).not.toMatch(/from ['"]\.\/lib/); // the module imported is in the bundle
    expect(first).toMatch(/from ['"]node:path['"]/); // node's modules stay imports
    expect(await import(url.href)).toMatchObject({ value: 42, separator: '/' });

    expect(bundledCopy(entry(t, 'main.ts'), t).href).toBe(url.href);
    expect(readFileSync(url, 'utf8')).toBe(first); // nothing changed: the same bundle
    writeFileSync(join(t.src, 'lib/twice.ts'), 'export const twice = (n: number): number => n * 3;\n');
    const again = bundledCopy(entry(t, 'main.ts'), t);
    const second = readFileSync(again, 'utf8');
    expect(second.split('\n')[0]).not.toBe(first.split('\n')[0]);
    expect(second).toContain('n * 3');
  });

  it('is what spawnWorker runs for a .ts module of ours', async () => {
    const copy = new URL('../../../.src-js/services/pipelines/shared/clock-errors.js', import.meta.url);
    rmSync(copy, { force: true });
    const w = spawnWorker(new URL('../../../src/services/pipelines/shared/clock-errors.ts', import.meta.url));
    const code = await new Promise<number>((resolve, reject) => {
      w.once('error', reject);
      w.once('exit', resolve);
    });
    expect(code).toBe(0);
    expect(readFileSync(copy, 'utf8')).toMatch(/^\/\/ from [0-9a-f]{40}\n/);
  });
});
