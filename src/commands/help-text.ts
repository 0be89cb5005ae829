/**
 * Help text shared by the command trees: the Examples section, descriptions for positional arguments
 * declared in `.command('get <id>')` form (commander shows only described arguments), and the value
 * lists of enumerated options (which commander then validates, and completions offer).
 */
import type { Command } from 'commander';

export const examples = (...lines: string[]): string => `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;

/**
 * Describe every undescribed argument below `root` from a glossary. A key is an argument name
 * (`id`), or a command name and an argument name (`notes:id`, the more specific one wins).
 */
export function describeArguments(root: Command, glossary: Record<string, string>): void {
  for (const cmd of walk(root)) {
    for (const arg of cmd.registeredArguments) {
      if (arg.description) continue;
      const name = arg.name();
      const parent = cmd.parent?.name();
      arg.description = glossary[`${cmd.name()}:${name}`] ?? (parent ? glossary[`${parent}:${name}`] : undefined) ?? glossary[name] ?? '';
    }
  }
}

/** Give every option with this long flag below `root` a list of allowed values. */
export function optionChoices(root: Command, flag: string, values: readonly string[]): void {
  for (const cmd of walk(root)) for (const option of cmd.options) if (option.long === flag && !option.argChoices) option.choices(values);
}

function* walk(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* walk(sub);
}
