/**
 * Every command of the full tree has a one-line summary, described arguments and at least one example
 * (an "Example:" or "Examples:" section added with addHelpText), so that `ops ... --help` always shows
 * how to use it. A tree still in its placeholder file (not built yet) is skipped until it is merged.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCommands, describeTree, type CommandSpec } from '../../../src/docs/tree.js';
import { TREES } from '../../../src/commands/registry.js';
import { buildProgram } from '../../../src/program.js';
import { ROOT, isolatedEnv } from '../../helpers/cli.js';
import { opsIn as ops } from '../../helpers/ops-in-process.js';

const program = await buildProgram([], { loadAll: true });
const spec = describeTree(program);

function isPlaceholder(tree: string): boolean {
  try {
    return /^\/\*\* Placeholder:/.test(readFileSync(join(ROOT, 'src', 'commands', tree, 'index.ts'), 'utf8'));
  } catch {
    return false;
  }
}

/** Missing summaries and examples, as readable lines. */
function helpProblems(commands: readonly CommandSpec[]): string[] {
  const problems: string[] = [];
  for (const cmd of commands) {
    const name = ['ops', ...cmd.path].join(' ');
    if (!cmd.summary) problems.push(`${name}: no summary (.description())`);
    else if (cmd.summary.includes('\n')) problems.push(`${name}: summary is more than one line`);
    if (cmd.examples.length === 0) problems.push(`${name}: no example (add addHelpText('after', '\\nExamples:\\n  ops ...'))`);
  }
  return problems;
}

/** Arguments and options without a description (commander lists arguments under "Arguments:" only when described). */
function undescribed(commands: readonly CommandSpec[]): string[] {
  const problems: string[] = [];
  for (const cmd of commands) {
    const name = ['ops', ...cmd.path].join(' ');
    for (const a of cmd.args) if (!a.description.trim()) problems.push(`${name}: argument <${a.name}> has no description`);
    for (const o of cmd.options) if (!o.description.trim()) problems.push(`${name}: option ${o.flags} has no description`);
  }
  return problems;
}

describe('help of every command', () => {
  it('the root and its own commands (help) have a summary and examples', () => {
    const own = [spec, ...spec.commands.filter((c) => !TREES.some((t) => t.name === c.name))];
    expect(helpProblems(own)).toEqual([]);
    expect(undescribed(own)).toEqual([]);
  });

  for (const tree of TREES) {
    it.skipIf(isPlaceholder(tree.name))(`every command under \`ops ${tree.name}\` has a one-line summary, described arguments and an example`, () => {
      const top = spec.commands.find((c) => c.name === tree.name)!;
      const problems = helpProblems(allCommands(top));
      expect(problems, `Commands whose --help lacks a summary or an example:\n${problems.join('\n')}`).toEqual([]);
    });
    it.skipIf(isPlaceholder(tree.name))(`every argument and option under \`ops ${tree.name}\` has a description (shown under "Arguments:")`, () => {
      const top = spec.commands.find((c) => c.name === tree.name)!;
      const problems = undescribed(allCommands(top));
      expect(problems, `Arguments and options without a description:\n${problems.join('\n')}`).toEqual([]);
    });
  }

  it('finds what is missing', () => {
    const bare: CommandSpec = { ...spec, path: ['x'], summary: '', args: [{ name: 'id', description: '', required: true, variadic: false, value: { kind: 'none' } }], examples: [], commands: [] };
    expect(helpProblems([bare])).toEqual(['ops x: no summary (.description())', "ops x: no example (add addHelpText('after', '\\nExamples:\\n  ops ...'))"]);
    expect(undescribed([bare])).toEqual(['ops x: argument <id> has no description']);
  });

  it('--help prints the summary, the arguments and the examples', async () => {
    const r = await ops(['config', 'profiles', 'use', '--help'], { env: isolatedEnv() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Make a profile the active one');
    expect(r.stdout).toMatch(/Arguments:\n\s+profile\s+the profile name/);
    expect(r.stdout).toContain('Examples:\n  ops config profiles use work');
  });
});
