/** An Io over in-memory streams (real node streams), with chosen terminal flags, for unit tests of output. */
import { PassThrough } from 'node:stream';
import type { Io } from '../../src/core/io.js';

export interface MemoryIo extends Io {
  stdoutText(): string;
  stderrText(): string;
}

export function memoryIo(options: { tty?: boolean; color?: boolean; columns?: number; stdin?: string; env?: NodeJS.ProcessEnv } = {}): MemoryIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  if (options.stdin !== undefined) stdin.end(options.stdin);
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d.toString()));
  stderr.on('data', (d) => (err += d.toString()));
  const tty = Boolean(options.tty);
  return {
    stdin,
    stdout,
    stderr,
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    colorOut: Boolean(options.color),
    colorErr: Boolean(options.color),
    columns: options.columns ?? (tty ? 80 : Number.MAX_SAFE_INTEGER),
    env: options.env ?? {},
    stdoutText: () => out,
    stderrText: () => err,
  };
}
