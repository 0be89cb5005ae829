/**
 * `ops ARGS` run in this process: the same argv -> program -> command path as the binary (src/main.ts run),
 * with in-memory streams (stdout and stderr not terminals, stdin at its end unless `input` is given) and the
 * given environment. Answers like test/helpers/cli.ts `ops()`, without spawning node for each command.
 */
import { readFileSync } from 'node:fs';
import { run } from '../../src/main.js';
import { memoryIo } from './memory-io.js';
import type { OpsResult } from './cli.js';

export async function opsIn(args: string[], options: { env?: Record<string, string | undefined>; input?: string; inputFile?: string } = {}): Promise<OpsResult> {
  const env = (options.env ?? {}) as NodeJS.ProcessEnv;
  const input = options.inputFile !== undefined ? readFileSync(options.inputFile, 'utf8') : (options.input ?? '');
  const io = memoryIo({ env, stdin: input });
  const exitCode = await run(['node', 'ops', ...args], { io, env });
  // let the last writes reach the collectors
  await new Promise((resolve) => setImmediate(resolve));
  // as execa gives them (tests written against the binary): one final newline stripped
  const strip = (text: string) => text.replace(/\r?\n$/, '');
  return { exitCode, stdout: strip(io.stdoutText()), stderr: strip(io.stderrText()) };
}
