/**
 * The man page, ops(1), from the described command tree, the settings table and the exit codes.
 * Pure: same inputs, same page. Written for `groff -man` and mandoc, without warnings from either.
 */
import { EXIT_CODE_MEANINGS } from '../core/errors.js';
import { OTHER_ENVIRONMENT, SETTINGS } from '../core/settings.js';
import type { ArgumentSpec, CommandSpec, OptionSpec } from './tree.js';
import { allCommands } from './tree.js';

export interface ManInputs {
  version: string;
  /** YYYY-MM-DD, for the title line. */
  date: string;
}

/** Text for roff: backslashes escaped, non-ASCII as \[uXXXX], a leading dot or quote protected. */
export function roff(text: string): string {
  let out = '';
  for (const ch of text.replace(/\\/g, '\\e')) {
    const code = ch.codePointAt(0)!;
    if (code > 126) out += `\\[u${code.toString(16).toUpperCase().padStart(4, '0')}]`;
    else if (code < 32 && ch !== '\n') out += ' ';
    else out += ch;
  }
  return out
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** Literal text such as a flag or a command line: dashes are minus signs, so they copy and paste. */
function lit(text: string): string {
  return roff(text).replace(/-/g, '\\-');
}

/** Break a roff text line at spaces so that input lines stay under 80 bytes. */
export function wrap(text: string, width = 78): string {
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines.map((l) => (/^[.']/.test(l) ? `\\&${l}` : l)).join('\n');
}

/** Inline code spans written `like this` in help texts become bold. */
function prose(text: string): string {
  return wrap(roff(text.replace(/\s+/g, ' ').trim()).replace(/`([^`]+)`/g, (_m, code: string) => `\\fB${code.replace(/-/g, '\\-')}\\fR`));
}

/** A description as a sentence: capital first letter, final full stop. */
function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t) return t;
  const capital = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(capital) && !/\)$/.test(capital) ? capital : `${capital}.`;
}

/** A description (prose) followed by text already in roff, wrapped together. */
function proseAnd(description: string, formatted: string[]): string {
  const head = description ? roff(description.replace(/\s+/g, ' ').trim()).replace(/`([^`]+)`/g, (_m, code: string) => `\\fB${code.replace(/-/g, '\\-')}\\fR`) : '';
  return wrap([head, ...formatted].filter(Boolean).join(' '));
}

function bold(values: readonly string[]): string {
  return values.map((v) => `\\fB${lit(v)}\\fR`).join(', ');
}

function optionHead(o: OptionSpec): string {
  const names = [o.short, o.long].filter(Boolean).map((n) => `\\fB${lit(n!)}\\fR`);
  const value = o.valueName ? (o.valueOptional ? ` [\\fI${lit(o.valueName)}\\fR]` : ` \\fI${lit(o.valueName)}\\fR`) : '';
  return names.join(', ') + value;
}

function optionBody(o: OptionSpec): string {
  const extra: string[] = [];
  if (o.value.kind === 'choices') extra.push(`One of: ${bold(o.value.values)}.`);
  if (o.defaultValue !== undefined && o.defaultValue !== '') extra.push(`Default: ${bold([o.defaultValue])}.`);
  return proseAnd(sentence(o.description), extra);
}

function argHead(a: ArgumentSpec): string {
  const name = `\\fI${lit(a.name)}\\fR${a.variadic ? '\\ .\\|.\\|.' : ''}`;
  return a.required ? name : `[${name}]`;
}

function argBody(a: ArgumentSpec): string {
  const extra = a.value.kind === 'choices' ? [`One of: ${bold(a.value.values)}.`] : [];
  const text = a.description ? sentence(a.description) : extra.length ? '' : a.required ? 'Required.' : 'Optional.';
  return proseAnd(text, extra);
}

function commandLine(cmd: CommandSpec): string {
  return ['ops', ...cmd.path].join(' ');
}

function synopsisOf(cmd: CommandSpec): string {
  const parts = [`\\fB${lit(commandLine(cmd))}\\fR`];
  if (cmd.options.some((o) => o.long !== '--help')) parts.push('[\\fIoptions\\fR]');
  if (cmd.commands.length) parts.push(cmd.runnable && cmd.args.length === 0 ? '[\\fIcommand\\fR]' : '\\fIcommand\\fR');
  for (const a of cmd.args) parts.push(argHead(a));
  return parts.join(' ');
}

function tagged(head: string, body: string): string[] {
  return ['.TP', head, body];
}

function commandSection(cmd: CommandSpec): string[] {
  const out = ['.SS "' + lit(commandLine(cmd)).replace(/"/g, '') + '"', synopsisOf(cmd)];
  if (cmd.aliases.length) out.push('.br', `Alias: ${cmd.aliases.map((a) => `\\fB${lit(a)}\\fR`).join(', ')}.`);
  out.push('.PP', prose(sentence(cmd.description || cmd.summary)));
  if (cmd.commands.length) {
    out.push('.PP', `Commands: ${cmd.commands.map((c) => `\\fB${lit(c.name)}\\fR`).join(', ')}.`);
  }
  if (cmd.args.length) {
    out.push('.PP', 'Arguments:', '.RS');
    for (const a of cmd.args) out.push(...tagged(argHead(a), argBody(a)));
    out.push('.RE');
  }
  const own = cmd.options.filter((o) => o.long !== '--help');
  if (own.length) {
    out.push('.PP', 'Options:', '.RS');
    for (const o of own) out.push(...tagged(optionHead(o), optionBody(o)));
    out.push('.RE');
  }
  return out;
}

function exampleBlock(lines: readonly string[]): string[] {
  return ['.RS 4', '.nf', ...lines.map((l) => lit(l)), '.fi', '.RE'];
}

export function manPage(root: CommandSpec, inputs: ManInputs): string {
  const commands = allCommands(root).slice(1);
  const out: string[] = [
    `.\\" ops(1): generated from the command tree by \`node dist/commands/completion/generate.js\`. Do not edit.`,
    `.TH OPS 1 ${inputs.date} "ops ${lit(inputs.version)}" "User Commands"`,
    '.ad l',
    '.nh',
    '.SH NAME',
    `ops \\- ${prose(root.summary.replace(/[.;].*$/, '')).replace(/^One /, 'one ')}`,
    '.SH SYNOPSIS',
    `\\fBops\\fR [\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR ...] [\\fIoptions\\fR] [\\fIarguments\\fR]`,
    '.br',
    '\\fBops help\\fR [\\fItopic\\fR | \\fIcommand\\fR ...]',
    '.br',
    '\\fBops \\-\\-version\\fR',
    '.SH DESCRIPTION',
    prose(root.description),
    '.PP',
    'Data goes to standard output: a table on a terminal, tab-separated values when piped, JSON with',
    '\\fB\\-\\-json\\fR, NDJSON for streams. Messages, prompts, spinners and progress go to standard error.',
    'Settings are taken from a flag, else its \\fBOPS_*\\fR environment variable, else the active profile, else the default.',
    '.PP',
    'Commands:',
    '.RS',
  ];
  for (const c of root.commands) out.push(...tagged(`\\fB${lit(c.name)}\\fR`, prose(c.summary)));
  out.push('.RE', '.SH COMMANDS');
  for (const c of commands) out.push(...commandSection(c));

  out.push('.SH GLOBAL OPTIONS', 'These options are accepted before or after any command.');
  for (const o of root.options) out.push(...tagged(optionHead(o), optionBody(o)));

  out.push('.SH ENVIRONMENT');
  for (const s of SETTINGS) {
    const extra = [`setting \\fB${lit(s.key)}\\fR`, s.secret ? 'secret' : '', s.default ? `default \\fB${lit(s.default)}\\fR` : ''].filter(Boolean).join(', ');
    out.push(...tagged(`\\fB${lit(s.env)}\\fR`, `${prose(s.description)} (${extra}).`));
  }
  for (const e of OTHER_ENVIRONMENT) {
    const names = e.env
      .split(/,\s*/)
      .map((n) => `\\fB${lit(n)}\\fR`)
      .join(', ');
    out.push(...tagged(names, `${prose(e.description)}.`));
  }

  out.push('.SH EXIT STATUS');
  for (const e of EXIT_CODE_MEANINGS) out.push(...tagged(`\\fB${e.code}\\fR`, prose(e.meaning.replace(/^./, (c) => c.toUpperCase())) + '.'));

  out.push(
    '.SH FILES',
    ...tagged('\\fI$XDG_CONFIG_HOME/ops/config.json\\fR', 'Profiles and their settings, and the active profile (default directory \\fI~/.config/ops\\fR; \\fBOPS_CONFIG_DIR\\fR moves it).'),
    ...tagged('\\fI$XDG_CONFIG_HOME/ops/credentials.json\\fR', 'The secrets of each profile (tokens, API keys), readable only by you (mode 0600).'),
    ...tagged(
      '\\fI$XDG_DATA_HOME/ops/\\fR',
      'Data directory of \\fBops serve\\fR: one SQLite database per service (default \\fI~/.local/share/ops\\fR; \\fBOPS_DATA_DIR\\fR or \\fB\\-\\-data\\-dir\\fR moves it).',
    ),
  );

  out.push('.SH EXAMPLES');
  if (root.examples.length) out.push(...exampleBlock(root.examples));
  for (const c of commands) {
    if (c.examples.length === 0) continue;
    out.push('.PP', `\\fB${lit(commandLine(c))}\\fR:`, '.br', ...exampleBlock(c.examples));
  }

  out.push(
    '.SH SEE ALSO',
    '\\fBops help environment\\fR, \\fBops help exit-codes\\fR, \\fBops help formatting\\fR, \\fBops help config\\fR;',
    'the shell completions printed by \\fBops completion bash\\fR|\\fBzsh\\fR|\\fBfish\\fR;',
    '\\fBjq\\fR(1), \\fBcurl\\fR(1).',
  );
  // Text lines (not macros, not example blocks) under 80 bytes, as mandoc's style check likes.
  let fill = true;
  const lines = out
    .flatMap((block) => block.split('\n'))
    .map((line) => {
      if (line === '.nf') fill = false;
      if (line === '.fi') fill = true;
      return fill && !line.startsWith('.') && line.length > 78 ? wrap(line) : line;
    });
  return lines.join('\n') + '\n';
}
