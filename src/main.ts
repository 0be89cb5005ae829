/**
 * The entry of `ops`: builds the root command (program.ts) for the arguments, runs it, and turns errors
 * into exit codes. Kept light: `ops --version` (and `--version --json`) answers before commander is even loaded;
 * the command trees are loaded by program.ts only when they run.
 */
import type { CommanderError } from 'commander';
import type { Runtime } from './context.js';
import { ExitCode, OpsError } from './core/errors.js';
import { version } from './core/version.js';

/** Run `ops` for `argv` (node, script, args...) with the process's streams, or the given ones; the exit code. */
export async function run(argv: readonly string[] = process.argv, runtime: Runtime = {}): Promise<number> {
  const args = argv.slice(2);
  const versionOnly = versionRequest(args);
  if (versionOnly) {
    (runtime.io?.stdout ?? process.stdout).write(versionOnly === 'json' ? JSON.stringify({ version: version() }) + '\n' : version() + '\n');
    return ExitCode.ok;
  }
  try {
    const { buildProgram } = await import('./program.js');
    const program = await buildProgram(args, runtime);
    await program.parseAsync(argv as string[]);
    return ExitCode.ok;
  } catch (err) {
    return reportError(err, runtime.io?.stderr, runtime.env);
  }
}

/**
 * Tunes the process for bin/ops, which runs one command and ends (not for tests running commands in process).
 * V8 compiles undici's HTTP parser (llhttp, WebAssembly) with Liftoff and then again with its optimizing tier on
 * background threads, which a short command pays for on a busy machine (and waits for at exit): Liftoff only
 * measured `ops pipe list` at 478 ms against 706 ms, `ops hook deliveries` 472 against 768 (medians of 9, load
 * ~15 on 2 cores). Not for `ops serve`: it lives long, and its SQL parser (WebAssembly too) runs in worker
 * threads that share the flag.
 */
export async function tuneForOneCommand(argv: readonly string[]): Promise<void> {
  if (versionRequest(argv.slice(2))) return; // answered without a request (nor commander)
  const { firstCommandWord } = await import('./program.js');
  if (firstCommandWord(argv.slice(2)) === 'serve') return;
  // getBuiltinModule, not import(): an ESM import of node:v8 builds its facade, reading all of its exports
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
}

/** `--version` (or -V) alone, or with `--json`: answered without building the command tree. */
function versionRequest(args: readonly string[]): 'text' | 'json' | undefined {
  const asksVersion = args.some((a) => a === '--version' || a === '-V');
  if (!asksVersion || !args.every((a) => a === '--version' || a === '-V' || a === '--json')) return undefined;
  return args.includes('--json') ? 'json' : 'text';
}

export function reportError(err: unknown, stderr: NodeJS.WritableStream = process.stderr, env: NodeJS.ProcessEnv = process.env): number {
  const e = err as CommanderError & { exitCode?: number };
  if (e && typeof e.code === 'string' && e.code.startsWith('commander.')) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return ExitCode.ok;
    return ExitCode.usage;
  }
  if (err instanceof OpsError) {
    if (err.message === '') return err.exitCode; // QuietExit: e.g. a server stopped with Ctrl-C
    stderr.write(`ops: error: ${err.message}\n`);
    if (err.hint) stderr.write(`${err.hint}\n`);
    return err.exitCode;
  }
  if (e && (e.name === 'ExitPromptError' || e.name === 'AbortPromptError')) return ExitCode.interrupted;
  const message = err instanceof Error ? err.message : String(err);
  stderr.write(`ops: error: ${message}\n`);
  if (env.OPS_DEBUG && err instanceof Error && err.stack) stderr.write(err.stack + '\n');
  return ExitCode.failure;
}
