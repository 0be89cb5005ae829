/** The man page: every command, option and environment variable, and no warnings from groff or mandoc. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureProgram } from '../commands/completion/fixture.js';
import { manPage, roff, wrap } from '../../src/docs/man.js';
import { allCommands, describeTree } from '../../src/docs/tree.js';
import { OTHER_ENVIRONMENT, SETTINGS } from '../../src/core/settings.js';
import { EXIT_CODE_MEANINGS } from '../../src/core/errors.js';
import { buildProgram } from '../../src/program.js';
import { ROOT, tempDir } from '../helpers/cli.js';

const hasMandoc = spawnSync('sh', ['-c', 'command -v mandoc']).status === 0;
const hasGroff = spawnSync('sh', ['-c', 'command -v groff']).status === 0;

function lint(page: string): { groff: string; mandoc: string } {
  const file = join(tempDir('ops-man-'), 'ops.1');
  writeFileSync(file, page);
  const groff = hasGroff ? spawnSync('groff', ['-ww', '-man', '-z', file], { encoding: 'utf8' }) : undefined;
  const mandoc = hasMandoc ? spawnSync('mandoc', ['-T', 'lint', '-W', 'style', file], { encoding: 'utf8' }) : undefined;
  return { groff: groff ? groff.stderr + groff.stdout : '', mandoc: mandoc ? (mandoc.stdout + mandoc.stderr).replaceAll(file, 'ops.1') : '' };
}

/** Roff text back to plain text, enough to look for words. */
function plain(page: string): string {
  return page
    .replace(/\\f[BIRP]/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\&/g, '')
    .replace(/\\e/g, '\\');
}

describe('man page', () => {
  const page = readFileSync(join(ROOT, 'man', 'ops.1'), 'utf8');

  it.skipIf(!hasGroff)('passes groff -ww -man -z without a warning', () => {
    expect(lint(page).groff).toBe('');
  });

  it.skipIf(!hasMandoc)('passes mandoc -T lint without a message, style included', () => {
    expect(lint(page).mandoc).toBe('');
  });

  it('has the sections of a man page', () => {
    const sections = [...page.matchAll(/^\.SH (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'GLOBAL OPTIONS', 'ENVIRONMENT', 'EXIT STATUS', 'FILES', 'EXAMPLES', 'SEE ALSO']);
  });

  it('documents every command, argument and option of the tree, every environment variable and exit code', async () => {
    const spec = describeTree(await buildProgram([], { loadAll: true }));
    const text = plain(page);
    for (const cmd of allCommands(spec).slice(1)) {
      const name = ['ops', ...cmd.path].join(' ');
      expect(text, name).toContain(`.SS "${name}"`);
      const section = text.slice(text.indexOf(`.SS "${name}"`)).split(/\n\.S[SH] /)[0]!;
      for (const o of cmd.options) if (o.long !== '--help') expect(section, `${name} ${o.long}`).toContain(o.long ?? o.short);
      for (const a of cmd.args) expect(section, `${name} <${a.name}>`).toContain(a.name);
    }
    for (const o of spec.options) expect(text).toContain(o.long!);
    for (const s of SETTINGS) expect(text).toContain(s.env);
    for (const e of OTHER_ENVIRONMENT) for (const name of e.env.split(/,\s*/)) expect(text).toContain(name);
    for (const e of EXIT_CODE_MEANINGS) expect(text).toMatch(new RegExp(`^\\.TP\\n${e.code}\\n`, 'm'));
    for (const file of ['config.json', 'credentials.json', 'XDG_DATA_HOME/ops']) expect(text).toContain(file);
    for (const example of spec.examples) expect(text).toContain(example);
  });

  it('renders a fixture tree (choices, aliases, examples, variadic arguments) without warnings', () => {
    const fixture = manPage(describeTree(fixtureProgram()), { version: '1.2.3', date: '2026-01-02' });
    expect(fixture).toContain('.TH OPS 1 2026-01-02 "ops 1.2.3"');
    expect(fixture).toContain('One of: \\fBpublic\\fR, \\fBinternal\\fR, \\fBprivate\\fR.');
    expect(fixture).toContain('Alias: \\fBls\\fR.');
    expect(fixture).toContain('ops bm links list \\-\\-visibility public   # public only');
    expect(fixture).toContain('[\\fIfiles\\fR\\ .\\|.\\|.]');
    expect(fixture).not.toContain('ops secret');
    expect(lint(fixture)).toEqual({ groff: '', mandoc: '' });
  });

  it('escapes roff: backslashes, leading dots and quotes, non-ASCII', () => {
    expect(roff('a\\b')).toBe('a\\eb');
    expect(roff(".hidden\n'quote")).toBe("\\&.hidden\n\\&'quote");
    expect(roff('abcd…wxyz')).toBe('abcd\\[u2026]wxyz');
    expect(
      wrap(`${'word '.repeat(20)}.dot`, 40)
        .split('\n')
        .every((l) => l.length <= 40 && !l.startsWith('.')),
    ).toBe(true);
  });
});
