/**
 * Spinners and progress for long waits: an ora spinner only on a terminal stderr and never with --json;
 * otherwise one plain line per phase on stderr (so CI logs still show what happened).
 */
import type { Io } from './io.js';

export interface Progress {
  /** Change the text (a new phase). */
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

export interface ProgressOptions {
  json: boolean;
  /** Print phase lines when not on a terminal (default true). */
  plainLines?: boolean;
}

export async function startProgress(io: Io, text: string, options: ProgressOptions): Promise<Progress> {
  // A terminal that reports no width (some pseudo-terminals) would make the spinner redraw forever.
  const width = (io.stderr as { columns?: number }).columns;
  if (io.stderrIsTTY && !options.json && width !== 0) {
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: io.stderr, color: 'cyan', isEnabled: true, discardStdin: false }).start();
    if (!io.colorErr) spinner.color = 'white';
    return {
      update: (t) => {
        spinner.text = t;
      },
      succeed: (t) => void spinner.succeed(t),
      fail: (t) => void spinner.fail(t),
      stop: () => void spinner.stop(),
    };
  }
  const plain = options.plainLines !== false;
  let last = '';
  const line = (t: string) => {
    if (plain && t !== last) {
      io.stderr.write(t + '\n');
      last = t;
    }
  };
  line(text);
  return {
    update: line,
    succeed: (t) => t && line(t),
    fail: (t) => t && line(t),
    stop: () => {},
  };
}
