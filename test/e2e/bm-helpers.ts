/** Helpers for the `ops bm` end-to-end tests: run in a pseudo-terminal, start `ops serve` for bookmarks. */
import { execa } from 'execa';
import { BIN, startServe, type ServeHandle } from '../helpers/cli.js';
import { opsIn } from '../helpers/ops-in-process.js';

export const SERVE_ARGS = ['--rate-limit', '100000', '--no-metadata', '--no-link-check'];

export function startBookmarks(): Promise<ServeHandle> {
  return startServe(SERVE_ARGS);
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Run `ops ARGS` with a terminal on stdin/stdout/stderr (util-linux `script`), at the given width. */
export async function tty(args: string[], env: Record<string, string | undefined>, columns = 120, keys?: string): Promise<{ exitCode: number; output: string }> {
  const cmd = `stty cols ${columns} rows 50; node ${quote(BIN)} ${args.map(quote).join(' ')}; echo "<exit:$?>"`;
  const r = await execa('script', ['-qec', cmd, '/dev/null'], {
    env: { ...env, TERM: 'xterm-256color' },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    ...(keys !== undefined ? { input: keys } : { stdin: 'ignore' as const }),
  });
  const text = r.stdout.replace(/\r/g, '');
  const m = /<exit:(\d+)>\s*$/.exec(text);
  return { exitCode: m ? Number(m[1]) : -1, output: text.replace(/<exit:\d+>\s*$/, '') };
}

/** Strip ANSI colour codes. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * `ops bm ARGS` piped (stdin from `input` when given), in the environment `env()` plus `extra`: run in this
 * process (test/helpers/ops-in-process.ts), through the same argv -> command path as the binary.
 */
export function bmRunner(env: () => Record<string, string | undefined>) {
  return (args: string[], extra: Record<string, string | undefined> = {}, input?: string): Promise<RunResult> => opsIn(['bm', ...args], { env: { ...env(), ...extra }, input });
}
