/** Every generated file, from one command tree: the three completion scripts and the man page. */
import type { Command } from 'commander';
import { manPage, type ManInputs } from '../../docs/man.js';
import { describeTree } from '../../docs/tree.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(program: Command, shell: Shell): string {
  const spec = describeTree(program);
  if (shell === 'bash') return bashScript(spec);
  if (shell === 'zsh') return zshScript(spec);
  return fishScript(spec);
}

/** Paths relative to the package root -> contents. */
export function generatedFiles(program: Command, man: ManInputs): Record<string, string> {
  const spec = describeTree(program);
  return {
    'completions/ops.bash': bashScript(spec),
    'completions/_ops': zshScript(spec),
    'completions/ops.fish': fishScript(spec),
    'man/ops.1': manPage(spec, man),
  };
}

/** The date on the title line of a man page, if any. */
export function manDate(page: string): string | undefined {
  return /^\.TH \S+ \S+ (\d{4}-\d{2}-\d{2})/m.exec(page)?.[1];
}
