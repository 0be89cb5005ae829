/**
 * Run a generated completion script in a real shell and collect what it offers:
 * bash (COMP_WORDS/COMP_CWORD and the function called, COMPREPLY printed), fish (`complete -C`), and zsh
 * (the completion system's builtins `_describe`, `compadd`, `_files`, `compset` replaced by printers,
 * since they only work inside an interactive completion widget).
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/cli.js';

const run = promisify(execFile);

export function hasShell(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

function scriptFile(script: string, name: string): string {
  const file = join(tempDir('ops-completion-'), name);
  writeFileSync(file, script);
  return file;
}

/** Words typed so far; the last one is the word being completed ('' for a fresh word). */
export async function bashComplete(script: string, words: string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const file = scriptFile(script, 'ops.bash');
  const program = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _ops; printf "%s\\n" "${COMPREPLY[@]}"';
  const { stdout: out } = await run('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...words], { env, encoding: 'utf8', timeout: 20_000 });
  return out.split('\n').filter(Boolean);
}

/** `complete -C LINE` in fish: candidates without their descriptions. */
export async function fishComplete(script: string, line: string, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const file = scriptFile(script, 'ops.fish');
  const { stdout: out } = await run('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', file, line], { env, encoding: 'utf8', timeout: 20_000 });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]!);
}

const ZSH_STUBS = `
compdef() { :; }
_describe() { [[ $1 == -t ]] && shift 2; shift; print -rl -- "\${(@P)1}"; }
compadd() { [[ $1 == -M ]] && shift 2; if [[ $1 == -a ]]; then print -rl -- "\${(@P)2}"; else print -rl -- "$@"; fi; }
_files() { print -r -- "<files $*>"; }
compset() { return 0; }
`;

/** The zsh function run with `words`/`CURRENT` set: candidates (descriptions cut off), unfiltered by prefix. */
export async function zshComplete(script: string, words: string[], env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const file = scriptFile(script, '_ops');
  const program = `${ZSH_STUBS}\nsource "$1"; shift; words=("$@"); CURRENT=$#; _ops`;
  const { stdout: out } = await run('zsh', ['-f', '-c', program, 'zsh', file, ...words], { env, encoding: 'utf8', timeout: 20_000 });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/(?<!\\):.*$/, '').replace(/\\:/g, ':'));
}

/**
 * Type into a real interactive shell in a pseudo-terminal: run `setup`, then each [keys, expected text]
 * step; each expected text is looked for in the output after the previous one. Resolves with the
 * transcript (escape sequences removed) and whether every expected text appeared.
 */
export async function interactive(argv: string[], setup: string, steps: [keys: string, expect: string][], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; transcript: string }> {
  const script: [string, string][] = [['READY> ', `${setup}; echo SETUP-DONE\n`]];
  let expect = 'SETUP-DONE\r\n';
  for (const [keys, text] of steps) {
    script.push([expect, keys]);
    expect = text;
  }
  script.push([expect, '']);
  const spec = { argv, env: { ...env, TERM: 'dumb', PS1: 'READY> ' }, script, timeout: 20 };
  const r = await run('python3', [join(import.meta.dirname, 'pty_shell.py'), JSON.stringify(spec)], { encoding: 'utf8', timeout: 40_000 }).then(
    (res) => ({ ok: true, out: res.stdout }),
    (err: { stdout?: string }) => ({ ok: false, out: String(err.stdout ?? '') }),
  );
  return { ok: r.ok, transcript: r.out };
}
