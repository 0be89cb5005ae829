/**
 * `ops completion bash|zsh|fish`: print a completion script generated from the full command tree, and
 * the hidden `ops completion __values KIND` the scripts call for profile, pipeline and table names.
 */
import type { Command } from 'commander';
import { Argument } from 'commander';
import type { Factory } from '../factory.js';

const SHELL_CHOICES = ['bash', 'zsh', 'fish'];

export function register(cmd: Command, tools: Factory): void {
  cmd
    .usage('[options] <shell>')
    .addArgument(new Argument('<shell>', 'the shell to print a script for').choices(SHELL_CHOICES))
    .addHelpText(
      'after',
      '\nInstall (see docs/completions.md):\n  bash  ops completion bash > ~/.local/share/bash-completion/completions/ops\n        (or add `source <(ops completion bash)` to ~/.bashrc)\n  zsh   ops completion zsh > ~/.zfunc/_ops   (and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)\n  fish  ops completion fish > ~/.config/fish/completions/ops.fish\n\nExamples:\n  source <(ops completion bash)\n  ops completion fish > ~/.config/fish/completions/ops.fish',
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish', _opts, command: Command) => {
      const [program, { completionScript }] = await Promise.all([tools.fullProgram(), import('./scripts.js')]);
      const { contextFor } = await import('../../context.js');
      await contextFor(command).out.write(completionScript(program, shell));
    });
  cmd
    .command('__values', { hidden: true })
    .description('Names for the completion scripts: profiles, pipelines, relations PIPELINE')
    .argument('<kind>')
    .argument('[rest...]')
    .action(async (kind: string, rest: string[], _opts, command: Command) => {
      const { contextFor } = await import('../../context.js');
      const ctx = contextFor(command);
      let names: string[] = [];
      if (kind === 'profiles') names = (await import('./profiles.js')).profileNames(ctx.env);
      else names = await (await import('./values.js')).remoteValues(ctx, kind, rest);
      if (names.length) ctx.io.stdout.write(names.join('\n') + '\n');
    });
}
