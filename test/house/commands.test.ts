/**
 * The one command shape (src/commands/factory.ts) kept by a test: in every command module, options are typed
 * (no `as never`, no `any`), the context is the one the Factory passes in (no `contextFor`, no `new Context`, no
 * runtime import of context.ts), every action runs its verb through `runWith`/`runBm` with the constructor's
 * `runF`, and every exported `run<Verb>` takes `(options, ctx: Context)`. The checks read the source text with
 * comments and string literals blanked, and are themselves tested on bad samples.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SRC } from './imports.js';

const COMMANDS = join(SRC, 'commands');

/** The module that builds the context: the one place allowed to. */
const FACTORY = 'factory.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The source with comments and the contents of string and template literals replaced by spaces (offsets kept). */
export function codeOnly(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && next === '*') {
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        out += text[i] === '\n' ? '\n' : ' ';
        i++;
      }
      out += '  ';
      i += 2;
    } else if (c === "'" || c === '"' || c === '`') {
      out += c;
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') {
          out += ' ';
          i++;
        }
        out += text[i] === '\n' ? '\n' : ' ';
        i++;
      }
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The text of the call starting at the `(` at `open`, to its matching `)`. */
function callText(code: string, open: number): string {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')' && --depth === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

/** What breaks the command shape in one module's source (`name` is its path under src/commands). */
export function shapeProblems(name: string, text: string): string[] {
  const code = codeOnly(text);
  const problems: string[] = [];
  const line = (index: number) => code.slice(0, index).split('\n').length;
  for (const m of code.matchAll(/\bas\s+never\b/g)) problems.push(`${name}:${line(m.index)}: \`as never\``);
  for (const m of code.matchAll(/(?::|\bas|<|\||&|,)\s*any\b(?!\s*[:(])|\bany\s*\[\]/g)) problems.push(`${name}:${line(m.index)}: \`any\``);
  for (const m of code.matchAll(/\bcontextFor\b/g)) problems.push(`${name}:${line(m.index)}: contextFor (the context comes from the Factory)`);
  if (name !== FACTORY) {
    for (const m of code.matchAll(/\bnew\s+Context\s*\(/g)) problems.push(`${name}:${line(m.index)}: builds a Context (only the Factory does)`);
    for (const m of text.matchAll(/^import\s+(?!type\b)[^;]*from\s+'[./]+\/context\.js'/gm)) problems.push(`${name}:${line(m.index)}: runtime import of context.ts (types only)`);
  }
  // a commander action: `.action(` given a function (a client's `.action(name, 'start')` is not one)
  for (const m of code.matchAll(/\.action\((?=\s*(?:async\s*)?(?:\(|\w+\s*=>|function\b))/g)) {
    const call = callText(code, m.index + '.action'.length);
    if (!/\brun(?:With|Bm)\(\s*f\s*,\s*runF\s*,/.test(call)) problems.push(`${name}:${line(m.index)}: an action that does not run its verb with runWith(f, runF, options)`);
  }
  for (const m of code.matchAll(/export\s+(?:async\s+)?function\s+(run[A-Z]\w*)\s*\(([^)]*)\)/g)) {
    const [, fn, params] = m;
    if (fn === 'runWith' || fn === 'runBm') continue;
    if (!/^\s*\w+\s*:\s*[A-Z][\w<>, ]*\s*,\s*ctx\s*:\s*Context\b/.test(params!)) problems.push(`${name}:${line(m.index)}: ${fn} does not take (options: <Verb>Options, ctx: Context)`);
  }
  return problems;
}

describe('the command shape', () => {
  const modules = files(COMMANDS).map((path) => ({ name: relative(COMMANDS, path), text: readFileSync(path, 'utf8') }));

  test('every command module keeps it', () => {
    expect(modules.length).toBeGreaterThan(40);
    expect(modules.flatMap((m) => shapeProblems(m.name, m.text))).toEqual([]);
  });

  test("a tree's index.ts only wires (completion's own command is its verb, so it declares that one)", () => {
    for (const m of modules.filter((x) => /^\w+\/index\.ts$/.test(x.name) && x.name !== 'completion/index.ts')) {
      expect(codeOnly(m.text), m.name).not.toMatch(/\.(option|requiredOption|addOption|action|argument|arguments)\(|new Command\(/);
    }
  });

  test('every tree is wired through the Factory and declares run functions for its verbs', () => {
    for (const tree of ['bm', 'pipe', 'hook', 'serve', 'auth', 'config', 'completion']) {
      const own = modules.filter((m) => m.name.startsWith(`${tree}/`));
      expect(
        own.some((m) => /export function register\(\w+: Command, f: Factory/.test(m.text)),
        tree,
      ).toBe(true);
      expect(
        own.some((m) => /export (async )?function run[A-Z]/.test(m.text)),
        tree,
      ).toBe(true);
    }
  });

  test('the checks catch what they are for', () => {
    const bad = [
      "import { contextFor, type Context } from '../../context.js';",
      "import { Context } from '../../context.js';",
      'const ctx = new Context({}, process.env);',
      'cmd.action(async (opts, command) => (await import("./x.js")).list(contextFor(command), opts as never));',
      'function merged(cmd: Command): any { return cmd.optsWithGlobals(); }',
      'export async function runList(ctx: Context, opts: ListOptions): Promise<void> {}',
      'const rows: any[] = [];',
    ].join('\n');
    const found = shapeProblems('bad.ts', bad).join('\n');
    for (const what of ['`as never`', '`any`', 'contextFor', 'builds a Context', 'runtime import of context.ts', 'does not run its verb', 'runList does not take']) expect(found).toContain(what);
    const good = [
      "import type { Context } from '../../context.js';",
      '// no `any` here, and no contextFor: \'as never\' in a comment or "any" in a string is fine',
      "cmd.option('--fetch-policy <policy>', 'public or any').action((id: string) => runWith(f, runF, { id }));",
      'export async function runGet(opts: GetOptions, ctx: Context): Promise<void> {}',
    ].join('\n');
    expect(shapeProblems('good.ts', good)).toEqual([]);
  });
});
