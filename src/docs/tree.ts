/**
 * A plain description of a commander command tree: what the completion scripts and the man page are
 * generated from. Pure: it reads the tree it is given and nothing else, so whatever commands are
 * registered (today's or tomorrow's) are described without any list kept by hand.
 *
 * Values of options and arguments are described by a `ValueHint`:
 * - `choices` from commander's `Option.choices()` / `Argument.choices()`;
 * - dynamic names, by naming convention (see docs/completions.md): an argument or option named
 *   `profile` completes profile names, `pipeline` (or a first argument `name` under `ops pipe`) pipeline
 *   names, `table`/`view`/`relation` the tables and views of the pipeline named earlier on the line;
 *   under `ops bm` an option `--tag`/`--add-tag`/`--remove-tag` the tag names; under `ops hook` the
 *   argument `type` and the option `--events` the event types;
 *   `<key>` under `ops config` the setting keys;
 * - files and directories for value names such as `<file>`, `<path>`, `<dir>`.
 */
import type { Argument, Command, Option } from 'commander';
import { SETTINGS } from '../core/settings.js';

export type DynamicKind = 'profiles' | 'pipelines' | 'relations' | 'tags' | 'events';

export type ValueHint =
  | { kind: 'none' }
  | { kind: 'choices'; values: string[] }
  | { kind: 'dynamic'; source: DynamicKind; /** for relations: index of the pipeline argument */ pipelineArg?: number }
  | { kind: 'file' }
  | { kind: 'dir' };

export interface OptionSpec {
  /** e.g. `--format` */
  long?: string;
  /** e.g. `-y` */
  short?: string;
  /** The flags as written: `-f, --format <format>` */
  flags: string;
  description: string;
  /** Takes a value (required or optional). */
  takesValue: boolean;
  valueOptional: boolean;
  /** The value's name as written: `format` in `<format>`. */
  valueName?: string;
  value: ValueHint;
  defaultValue?: string;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  value: ValueHint;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  /** Names from the root's child down to this command (empty for the root). */
  path: string[];
  /** One line: commander's summary(), else the first line of description(). */
  summary: string;
  description: string;
  /** Usage as commander prints it, e.g. `[options] <service>`. */
  usage: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
  commands: CommandSpec[];
  /** Example lines from the command's "Example(s):" help text, indentation removed. */
  examples: string[];
  /** Text after the help, as `ops CMD --help` prints it (without the built-in part). */
  helpAfter: string;
  /** Runs something itself (not only a group of subcommands). */
  runnable: boolean;
}

const FILE_NAMES = new Set(['file', 'files', 'path', 'paths', 'filename']);
const DIR_NAMES = new Set(['dir', 'directory', 'folder']);
const RELATION_NAMES = new Set(['table', 'view', 'relation', 'tables', 'views']);

/** The text added with `addHelpText('after' | 'afterAll')`, collected by emitting the help events. */
export function helpTextAfter(cmd: Command): string {
  let text = '';
  const context = { error: false, command: cmd, write: (s: string) => (text += s) };
  (cmd as unknown as { emit(event: string, ctx: unknown): boolean }).emit('afterHelp', context);
  return text.replace(/^\n+/, '').replace(/\s+$/, '');
}

/** Lines of the "Example:" / "Examples:" section(s) of a help text. */
export function examplesOf(helpText: string): string[] {
  const lines = helpText.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^\s*examples?:\s*$/i.test(line)) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (line.trim() === '' || !/^\s/.test(line)) {
      inside = false;
      continue;
    }
    out.push(line.trim());
  }
  return out;
}

/** Option names under `ops bm` whose value is a tag name. */
const TAG_NAMES = new Set(['tag', 'add-tag', 'remove-tag']);
/** Argument and option names under `ops hook` whose value is an event type. */
const EVENT_TYPE_NAMES = new Set(['type', 'events']);

function valueNameOf(flags: string): string | undefined {
  const m = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(flags);
  return m?.[1];
}

function nameHint(name: string, path: readonly string[]): ValueHint | undefined {
  const n = name.toLowerCase();
  if (n === 'profile' || n === 'profiles') return { kind: 'dynamic', source: 'profiles' };
  if (n === 'pipeline' || n === 'pipelines') return { kind: 'dynamic', source: 'pipelines' };
  if (path[0] === 'config' && (n === 'key' || n === 'setting')) return { kind: 'choices', values: SETTINGS.map((s) => s.key) };
  if (path[0] === 'bm' && TAG_NAMES.has(n)) return { kind: 'dynamic', source: 'tags' };
  if (path[0] === 'hook' && EVENT_TYPE_NAMES.has(n)) return { kind: 'dynamic', source: 'events' };
  if (FILE_NAMES.has(n)) return { kind: 'file' };
  if (DIR_NAMES.has(n)) return { kind: 'dir' };
  return undefined;
}

function optionValueHint(longName: string | undefined, valueName: string | undefined, path: readonly string[]): ValueHint {
  const byName = (longName ? nameHint(longName, path) : undefined) ?? (valueName ? nameHint(valueName, path) : undefined);
  if (byName) return byName;
  if (longName && /(^|-)(file|path)$/.test(longName)) return { kind: 'file' };
  if (longName && /(^|-)dir$/.test(longName)) return { kind: 'dir' };
  return { kind: 'none' };
}

function optionSpec(opt: Option, path: readonly string[]): OptionSpec {
  const takesValue = opt.required || opt.optional;
  const valueName = takesValue ? valueNameOf(opt.flags) : undefined;
  let value: ValueHint = { kind: 'none' };
  if (takesValue) {
    const longName = opt.long?.replace(/^--/, '');
    if (opt.argChoices?.length) value = { kind: 'choices', values: [...opt.argChoices] };
    else value = optionValueHint(longName, valueName, path);
  }
  const spec: OptionSpec = {
    flags: opt.flags,
    description: opt.description ?? '',
    takesValue,
    valueOptional: opt.optional,
    value,
  };
  if (opt.long) spec.long = opt.long;
  if (opt.short) spec.short = opt.short;
  if (valueName) spec.valueName = valueName;
  if (opt.defaultValue !== undefined && typeof opt.defaultValue !== 'boolean' && !opt.negate) spec.defaultValue = String(opt.defaultValue);
  return spec;
}

/** Commands that make something new: their name argument is not an existing name. */
const CREATING = new Set(['create', 'add', 'new', 'init']);

function argumentSpecs(args: readonly Argument[], path: readonly string[]): ArgumentSpec[] {
  const specs = args.map((arg, index): ArgumentSpec => {
    const name = arg.name();
    let value: ValueHint;
    if (arg.argChoices?.length) value = { kind: 'choices', values: [...arg.argChoices] };
    // Under `ops pipe`, a first argument called <name> is the pipeline's name.
    else if (path[0] === 'pipe' && name === 'name' && index === 0 && !CREATING.has(path.at(-1) ?? '')) value = { kind: 'dynamic', source: 'pipelines' };
    else value = nameHint(name, path) ?? { kind: 'none' };
    return { name, description: arg.description ?? '', required: arg.required, variadic: arg.variadic, value };
  });
  // Tables and views complete from the pipeline named by an earlier argument.
  const pipelineArg = specs.findIndex((a) => a.value.kind === 'dynamic' && a.value.source === 'pipelines');
  specs.forEach((spec, i) => {
    if (pipelineArg >= 0 && i > pipelineArg && spec.value.kind === 'none' && RELATION_NAMES.has(spec.name.toLowerCase())) {
      spec.value = { kind: 'dynamic', source: 'relations', pipelineArg };
    }
  });
  return specs;
}

/** Describe `cmd` and every visible command below it. Hidden commands and options are left out. */
export function describeTree(cmd: Command, path: string[] = []): CommandSpec {
  const help = cmd.createHelp();
  const helpAfter = helpTextAfter(cmd);
  const description = cmd.description() ?? '';
  const children = help.visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
  const options = help.visibleOptions(cmd).map((o) => optionSpec(o, path));
  const hasAction = Boolean((cmd as unknown as { _actionHandler?: unknown })._actionHandler);
  return {
    name: cmd.name(),
    aliases: [...cmd.aliases()],
    path,
    summary: (cmd.summary() || description.split('\n')[0] || '').trim(),
    description,
    usage: cmd.usage(),
    options,
    args: argumentSpecs(cmd.registeredArguments, path),
    commands: children.map((c) => describeTree(c, [...path, c.name()])),
    examples: examplesOf(helpAfter),
    helpAfter,
    runnable: hasAction || children.length === 0,
  };
}

/** Every command of the tree, depth first, the root first. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  const out: CommandSpec[] = [];
  const walk = (c: CommandSpec) => {
    out.push(c);
    c.commands.forEach(walk);
  };
  walk(root);
  return out;
}

/**
 * Options of the root that apply to every command (commander recognises them anywhere on the line),
 * without the help and version options, which are the root's own.
 */
export function globalOptions(root: CommandSpec): OptionSpec[] {
  return root.options.filter((o) => o.long !== '--help' && o.long !== '--version');
}
