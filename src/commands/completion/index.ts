/**
 * `ops completion bash|zsh|fish`: print a completion script generated from the full command tree, and
 * the hidden `ops completion __values KIND` the scripts call for profile, pipeline and table names.
 * The tree's own command is the verb (it takes the shell), so its flags, options and run function live here.
 */
import { Argument, Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerb, runWith, type Factory, type RunFunction } from '../factory.js';

const SHELL_CHOICES = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELL_CHOICES)[number];

export interface CompletionOptions {
  shell: Shell;
  /** the whole command tree the script completes */
  program: Command;
}

export function register(cmd: Command, f: Factory, runF: RunFunction<CompletionOptions> = runCompletion): void {
  cmd
    .usage('[options] <shell>')
    .addArgument(new Argument('<shell>', 'the shell to print a script for').choices(SHELL_CHOICES))
    .addHelpText(
      'after',
      '\nInstall (see docs/completions.md):\n  bash  ops completion bash > ~/.local/share/bash-completion/completions/ops\n        (or add `source <(ops completion bash)` to ~/.bashrc)\n  zsh   ops completion zsh > ~/.zfunc/_ops   (and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)\n  fish  ops completion fish > ~/.config/fish/completions/ops.fish\n\nExamples:\n  source <(ops completion bash)\n  ops completion fish > ~/.config/fish/completions/ops.fish',
    )
    .action(async (shell: Shell) => runWith(f, runF, { shell, program: await f.fullProgram() }));
  addVerb(cmd, newCmdCompletionValues(f), { hidden: true });
}

export async function runCompletion(opts: CompletionOptions, ctx: Context): Promise<void> {
  const { completionScript } = await import('./scripts.js');
  await ctx.out.write(completionScript(opts.program, opts.shell));
}

export interface CompletionValuesOptions {
  /** profiles, pipelines, or relations (rest: the pipeline) */
  kind: string;
  rest: string[];
}

export function newCmdCompletionValues(f: Factory, runF: RunFunction<CompletionValuesOptions> = runCompletionValues): Command {
  return new Command('__values')
    .description('Names for the completion scripts: profiles, pipelines, relations PIPELINE')
    .argument('<kind>')
    .argument('[rest...]')
    .action((kind: string, rest: string[]) => runWith(f, runF, { kind, rest }));
}

export async function runCompletionValues(opts: CompletionValuesOptions, ctx: Context): Promise<void> {
  const names = opts.kind === 'profiles' ? (await import('./profiles.js')).profileNames(ctx.env) : await (await import('./values.js')).remoteValues(ctx, opts.kind, opts.rest);
  if (names.length) ctx.io.stdout.write(names.join('\n') + '\n');
}
