/** Run `ops` in a real pseudo-terminal (python3's pty module) and answer its prompts. */
import { execa } from 'execa';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';

export interface PtyResult {
  exitCode: number;
  /** Everything written to the terminal (stdout and stderr together, with escape sequences). */
  output: string;
}

export async function runInPty(args: string[], env: Record<string, string | undefined>, script: [expect: string, send: string][] = [], timeout = 20): Promise<PtyResult> {
  const spec = { argv: ['node', BIN, ...args], env: Object.fromEntries(Object.entries({ TERM: 'xterm-256color', COLUMNS: '100', ...env }).filter(([, v]) => v !== undefined)), script, timeout };
  const res = await execa('python3', [join(ROOT, 'test', 'helpers', 'run_pty.py'), JSON.stringify(spec)], { reject: false, timeout: (timeout + 10) * 1000 });
  return { exitCode: res.exitCode ?? -1, output: String(res.stdout) };
}

// eslint-disable-next-line no-control-regex
export const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g, '');
