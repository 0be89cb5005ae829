/**
 * The streams a command talks through, whether each is a terminal, and the colour policy.
 * Data goes to stdout; prompts, spinners, progress and messages go to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

export interface Io {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr. */
  colorOut: boolean;
  colorErr: boolean;
  /** Width for tables on stdout (a large number when not a terminal). */
  columns: number;
  env: NodeJS.ProcessEnv;
}

export interface ColourInputs {
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** --no-color given */
  noColorFlag?: boolean;
  /** --color given (force) */
  colorFlag?: boolean;
}

/** NO_COLOR, TERM=dumb, CLICOLOR=0 and --no-color turn colour off; FORCE_COLOR (non-zero) or --color force it on. */
export function colourEnabled({ isTTY, env, noColorFlag, colorFlag }: ColourInputs): boolean {
  if (noColorFlag) return false;
  if (colorFlag) return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.TERM === 'dumb') return false;
  if (env.CLICOLOR === '0') return false;
  return isTTY;
}

export interface IoOptions {
  noColor?: boolean;
  color?: boolean;
}

/**
 * The process's streams. stdin and stderr are taken only when a command reads or writes them: node creates each
 * stream (and loads its modules) on first access, which a command that only prints pays for nothing
 * (`isatty` asks the same question as the stream's `isTTY` without creating it).
 */
export function processIo(options: IoOptions = {}, env: NodeJS.ProcessEnv = process.env): Io {
  const stdinIsTTY = isatty(0);
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = isatty(2);
  return {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    get stderr() {
      return process.stderr;
    },
    stdinIsTTY,
    stdoutIsTTY,
    stderrIsTTY,
    colorOut: colourEnabled({ isTTY: stdoutIsTTY, env, noColorFlag: options.noColor, colorFlag: options.color }),
    colorErr: colourEnabled({ isTTY: stderrIsTTY, env, noColorFlag: options.noColor, colorFlag: options.color }),
    columns: stdoutIsTTY ? process.stdout.columns || 80 : Number.MAX_SAFE_INTEGER,
    env,
  };
}

/** Write to a stream and wait until it drained, so large outputs are not cut off at exit. */
export function writeAll(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else stream.once('drain', () => resolve());
  });
}
