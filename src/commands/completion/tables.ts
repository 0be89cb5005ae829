/**
 * The tables every completion script is made of, taken from the described command tree: for each
 * command path its subcommands (and aliases), options, and positional arguments, each value coded as
 * a short string the shell drivers understand:
 *
 *   ''            an option without a value
 *   '-'           a free value (nothing to offer)
 *   'c:a b c'     one of these words
 *   'd:profiles'  'd:pipelines'  'd:relations:N'   names asked of `ops completion __values`
 *                 (relations: of the pipeline given as positional argument N)
 *   'f' / 'D'     a file / a directory
 */
import type { CommandSpec, OptionSpec, ValueHint } from '../../docs/tree.js';
import { allCommands, globalOptions } from '../../docs/tree.js';
import { TOPICS } from '../help/topics.js';

export interface SubRow {
  name: string;
  aliases: string[];
  summary: string;
}

export interface OptRow {
  /** `--format` or `-f` */
  word: string;
  description: string;
  value: string;
}

export interface PathTable {
  /** Space-joined path, '' for the root. */
  path: string;
  subs: SubRow[];
  /** Options of this command (not the global ones), both spellings as separate rows. */
  opts: OptRow[];
  /** One code per positional argument. */
  args: string[];
  /** The last argument repeats. */
  variadic: boolean;
}

export interface Tables {
  paths: PathTable[];
  /** Options of the root that apply everywhere. */
  globals: OptRow[];
}

export function valueCode(hint: ValueHint, takesValue = true): string {
  if (!takesValue) return '';
  switch (hint.kind) {
    case 'none':
      return '-';
    case 'choices': {
      // Words with white space, quotes or shell characters are left out of the scripts (the man page has them).
      const safe = hint.values.filter((v) => v !== '' && !/[\s'"\\$`]/.test(v));
      return safe.length ? `c:${safe.join(' ')}` : '-';
    }
    case 'dynamic':
      return hint.source === 'relations' ? `d:relations:${hint.pipelineArg ?? 0}` : `d:${hint.source}`;
    case 'file':
      return 'f';
    case 'dir':
      return 'D';
  }
}

function optRows(opts: readonly OptionSpec[]): OptRow[] {
  const rows: OptRow[] = [];
  for (const o of opts) {
    const value = valueCode(o.value, o.takesValue);
    for (const word of [o.long, o.short]) if (word) rows.push({ word, description: o.description, value });
  }
  return rows;
}

export function buildTables(root: CommandSpec): Tables {
  const globals = globalOptions(root);
  const globalWords = new Set(globals.flatMap((o) => [o.long, o.short]).filter(Boolean));
  const paths = allCommands(root).map((cmd): PathTable => ({
    path: cmd.path.join(' '),
    subs: cmd.commands.map((c) => ({ name: c.name, aliases: c.aliases, summary: c.summary })),
    opts: optRows(cmd.path.length === 0 ? cmd.options.filter((o) => !globals.includes(o)) : cmd.options).filter((r) => !globalWords.has(r.word)),
    args: cmd.args.map((a) => valueCode(a.value)),
    variadic: cmd.args.at(-1)?.variadic ?? false,
  }));
  // `ops help WORD`: a help topic or a top-level command.
  const help = paths.find((p) => p.path === 'help');
  if (help && help.args.length === 1) {
    const words = [...new Set([...Object.keys(TOPICS), ...root.commands.map((c) => c.name).filter((n) => n !== 'help')])];
    help.args = [valueCode({ kind: 'choices', values: words })];
    help.variadic = false;
  }
  return { paths, globals: optRows(globals) };
}

/** The header of every generated script. */
export function banner(shell: string, comment = '#'): string {
  return [
    `${comment} ops completion for ${shell}: generated from the command tree by \`ops completion ${shell}\`.`,
    `${comment} Do not edit: regenerate with \`npm run build && node dist/commands/completion/generate.js\`.`,
  ].join('\n');
}
