/** The zsh and fish completion scripts, run in real zsh and fish (skipped where the shell is not installed). */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fishScript } from '../../../src/commands/completion/fish.js';
import { zshScript } from '../../../src/commands/completion/zsh.js';
import { describeTree } from '../../../src/docs/tree.js';
import { BIN, ROOT, isolatedEnv, tempDir } from '../../helpers/cli.js';
import { fixtureProgram } from './fixture.js';
import { fishComplete, hasShell, interactive, zshComplete } from './shells.js';

function profilesEnv(): Record<string, string | undefined> {
  const env = isolatedEnv();
  mkdirSync(env.OPS_CONFIG_DIR!, { recursive: true });
  writeFileSync(join(env.OPS_CONFIG_DIR!, 'config.json'), JSON.stringify({ profiles: { work: {}, home: {} } }));
  return env;
}

describe.skipIf(!hasShell('fish'))('fish completion', () => {
  const script = fishScript(describeTree(fixtureProgram()));
  const complete = (line: string) => fishComplete(script, line);

  it('offers subcommands at every level, by prefix, without hidden commands', async () => {
    expect(await complete('ops ')).toEqual(['auth', 'bm', 'pipe']);
    expect(await complete('ops bm li')).toEqual(['links', 'lists']);
    expect(await complete('ops bm link l')).toEqual(['list']);
  });

  it('offers options, their enumerated values and enumerated arguments', async () => {
    const opts = await complete('ops pipe watch --');
    for (const flag of ['--format', '--since', '--no-snapshot', '--help', '--profile', '--json']) expect(opts).toContain(flag);
    expect(await complete('ops bm links list --visibility p')).toEqual(['private', 'public']);
    expect(await complete('ops bm links list --format=t')).toEqual(['--format=table', '--format=tsv']);
    expect(await complete('ops auth login ')).toEqual(['bm', 'notify', 'pipe']);
    expect(await complete('ops --profile x pipe ')).toEqual(['create', 'ingest', 'stats', 'watch']);
  });

  it('offers files, and profile names from the config files', async () => {
    const dir = tempDir('ops-files-');
    writeFileSync(join(dir, 'bookmarks.html'), '');
    expect(await complete(`ops bm import ${dir}/bo`)).toEqual([`${dir}/bookmarks.html`]);
    expect(await fishComplete(script, `${BIN} --profile `, profilesEnv())).toEqual(['home', 'work']);
  });

  it('the committed script offers the real top-level commands', async () => {
    const committed = readFileSync(join(ROOT, 'completions', 'ops.fish'), 'utf8');
    const top = await fishComplete(committed, 'ops ');
    for (const name of ['auth', 'bm', 'completion', 'config', 'help', 'hook', 'pipe', 'serve']) expect(top).toContain(name);
    expect(await fishComplete(committed, 'ops completion ')).toEqual(['bash', 'fish', 'zsh']);
  });
});

describe.skipIf(!hasShell('zsh'))('zsh completion', () => {
  const script = zshScript(describeTree(fixtureProgram()));
  const complete = (...words: string[]) => zshComplete(script, ['ops', ...words]);

  it('offers subcommands (with an alias on the way), without hidden commands', async () => {
    expect(await complete('')).toEqual(['bm', 'pipe', 'auth']);
    expect(await complete('bm', 'li')).toEqual(['links', 'lists', 'tags', 'import']); // zsh filters by prefix itself
    expect(await complete('bm', 'link', '')).toEqual(['list', 'add']);
  });

  it('offers options, their enumerated values and enumerated arguments', async () => {
    const opts = await complete('pipe', 'watch', '--');
    for (const flag of ['--format', '--since', '--no-snapshot', '--help', '--profile', '--json']) expect(opts).toContain(flag);
    expect(await complete('bm', 'links', 'list', '--visibility', '')).toEqual(['public', 'internal', 'private']);
    expect(await complete('bm', 'links', 'list', '--format=t')).toEqual(['table', 'tsv', 'json']);
    expect(await complete('auth', 'login', '')).toEqual(['bm', 'pipe', 'notify']);
    expect(await complete('--profile', 'x', 'pipe', '')).toEqual(['watch', 'stats', 'create', 'ingest']);
  });

  it('offers files and directories, and profile names from the config files', async () => {
    expect(await complete('bm', 'import', '')).toEqual(['<files >']);
    expect(await complete('pipe', 'watch', '--data-dir', '')).toEqual(['<files -/>']);
    expect(await zshComplete(script, [BIN, '--profile', ''], profilesEnv())).toEqual(['home', 'work']);
  });

  it('the committed script offers the real top-level commands', async () => {
    const committed = readFileSync(join(ROOT, 'completions', '_ops'), 'utf8');
    const top = await zshComplete(committed, ['ops', '']);
    for (const name of ['auth', 'bm', 'completion', 'config', 'help', 'hook', 'pipe', 'serve']) expect(top).toContain(name);
    expect(await zshComplete(committed, ['ops', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });
});

describe('completion in real interactive shells (a pseudo-terminal, TAB pressed)', () => {
  const env = { ...profilesEnv(), PATH: `${join(ROOT, 'bin')}:${process.env.PATH}`, HOME: tempDir('ops-home-') } as NodeJS.ProcessEnv;

  it('bash: the committed script completes commands, values and flags', async () => {
    const r = await interactive(
      ['bash', '--norc', '--noprofile', '-i'],
      `source ${join(ROOT, 'completions', 'ops.bash')}`,
      [
        ['ops compl\t', 'ops completion '],
        ['f\t', 'ish '],
        ['\u0003', 'READY> '],
        ['ops auth login --with\t', '--with-token '],
        ['\u0003', 'READY> '],
        ['ops --profile h\t', '--profile home '],
      ],
      env,
    );
    expect(r.ok, r.transcript).toBe(true);
  });

  it.skipIf(!hasShell('zsh'))('zsh: the committed script completes commands, values and flags after compinit', async () => {
    const r = await interactive(
      ['zsh', '-f', '-i'],
      `autoload -Uz compinit; compinit -u -D; source ${join(ROOT, 'completions', '_ops')}`,
      [
        ['ops compl\t', 'ops completion '],
        ['\t', 'bash  fish  zsh'],
        ['\u0003', 'READY> '],
        ['ops auth login --with\t', '--with-token '],
        ['\u0003', 'READY> '],
        ['ops --profile h\t', '--profile home '],
      ],
      env,
    );
    expect(r.ok, r.transcript).toBe(true);
  });
});
