/**
 * The root command of `ops`: global flags, and the command trees, each loaded only when it is used (or all of
 * them, for help, completions and the man page). Knows nothing of running: main.ts runs it.
 */
import type { Command } from 'commander';
import type { Factory } from './commands/factory.js';
import { findTree, TREES } from './commands/registry.js';
import type { Runtime } from './context.js';
import { version } from './core/version.js';

/** Options of the root command that take a value (to find the first command word). */
const VALUE_OPTIONS = new Set(['--profile', '--bm-url', '--pipe-url', '--notify-url', '--timeout']);

export function firstCommandWord(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    return arg;
  }
  return undefined;
}

/**
 * The root command for `args` (only the trees they name are loaded, unless `loadAll`). `runtime` gives the
 * streams and environment the commands use (default: the process's own); commander's own help and usage
 * errors go to the same streams.
 */
export async function buildProgram(args: readonly string[], options: { loadAll?: boolean } & Runtime = {}): Promise<Command> {
  const { Command: CommandClass, Option } = await import('commander');
  const program = new CommandClass('ops');
  program
    .description('One CLI for bookmarks, SQL pipelines and webhooks; `ops serve` runs all three services locally.')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .option('--profile <name>', 'use this profile (env OPS_PROFILE)')
    .option('--json', 'print JSON (one array or object; NDJSON for streams)')
    .option('--no-color', 'no colour (also NO_COLOR, TERM=dumb)')
    .option('--no-input', 'never prompt (also OPS_NO_INPUT)')
    .option('-y, --yes', 'answer yes to confirmations')
    .addOption(new Option('--bm-url <url>', 'bookmark service URL (env OPS_BM_URL)'))
    .addOption(new Option('--pipe-url <url>', 'pipeline service URL (env OPS_PIPE_URL)'))
    .addOption(new Option('--notify-url <url>', 'notification service URL (env OPS_NOTIFY_URL)'))
    .option('--timeout <seconds>', 'HTTP timeout in seconds (default 30)')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => write(text.replace(/^error: /, 'ops: error: ')),
      ...(options.io ? { writeOut: (s: string) => void options.io!.stdout.write(s), writeErr: (s: string) => void options.io!.stderr.write(s) } : {}),
    })
    .addHelpText(
      'after',
      '\nMore: ops help environment | exit-codes | formatting | config\nExamples:\n  ops serve                      # run the local services\n  ops bm links list --tag docs   # bookmarks tagged "docs"\n  ops pipe watch shop revenue_by_product | jq .',
    );

  const wanted = firstCommandWord(args);
  const helpTarget = wanted === 'help' ? firstCommandWord(args.slice(args.indexOf('help') + 1)) : undefined;
  // the factory (and with it the context, output, config reading) only when a tree is loaded: `ops --help` runs no command
  let factory: Factory | undefined;
  for (const tree of TREES) {
    const cmd = program.command(tree.name).description(tree.summary);
    if (tree.aliases) cmd.aliases(tree.aliases);
    if (options.loadAll || findTree(wanted) === tree || findTree(helpTarget) === tree) {
      if (!factory) {
        const { createFactory } = await import('./commands/factory.js');
        factory = createFactory(program, { io: options.io, env: options.env }, () => buildProgram([], { loadAll: true }));
      }
      (await tree.load()).register(cmd, factory);
    }
  }
  program
    .command('help')
    .description('Help on a command, or a topic: environment, exit-codes, formatting, config')
    .argument('[topic...]', 'a topic, or a command such as `bm links`')
    .addHelpText('after', '\nExamples:\n  ops help exit-codes\n  ops help bm links')
    .action(async (topic: string[]) => {
      const { showHelp } = await import('./commands/help/index.js');
      await showHelp(program, topic);
    });
  addUsageHints(program);
  refuseHelpOfUnknownCommand(program, args);
  return program;
}

/**
 * `ops pipe bogus --help`: commander would print `ops pipe`'s help and exit 0, as if the command existed. An
 * unknown command word before a help flag is the usage error it is without the flag (exit 2). Only group
 * commands (subcommands and no arguments of their own) are checked, and only up to the first option that is not
 * the root's (it may take a value, which is no command word).
 */
function refuseHelpOfUnknownCommand(program: Command, args: readonly string[]): void {
  if (!args.some((a) => a === '--help' || a === '-h')) return;
  let current = program;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') continue;
    if (arg.startsWith('-')) {
      if (current !== program) return;
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    if (current.commands.length === 0 || current.registeredArguments.length > 0 || arg === 'help') return;
    const sub = current.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) current.error(`error: unknown command '${arg}'`, { code: 'commander.unknownCommand', exitCode: 2 });
    current = sub!;
  }
}

/** After a usage error, print the command's usage line and where to read more (not the whole help). */
function addUsageHints(cmd: Command, path: string[] = []): void {
  const full = [...path, cmd.name()].join(' ');
  cmd.showHelpAfterError(`Usage: ${full} ${cmd.usage()}\nRun '${full} --help' for more.`);
  for (const sub of cmd.commands) addUsageHints(sub, [...path, cmd.name()]);
}
