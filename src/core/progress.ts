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
    const { Chalk } = await import('chalk');
    const c = new Chalk({ level: io.colorErr ? 1 : 0 });
    return {
      update: (t) => {
        spinner.text = t;
      },
      // the marks of core/output (✓ as in `ctx.out.success`), not ora's own ✔ and ✖
      succeed: (t) => void spinner.stopAndPersist({ symbol: c.green('✓'), text: t }),
      fail: (t) => void spinner.stopAndPersist({ symbol: c.red('✗'), text: t }),
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

export interface CountdownOptions {
  json: boolean;
  /** How to wait a second (tests pass a quick one). */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Wait `seconds`, saying so on stderr: on a terminal one line that counts down each second and is cleared at
 * the end (the command does not look frozen); elsewhere, and with --json, one plain line with the whole wait.
 */
export async function countdown(io: Io, seconds: number, text: (secondsLeft: number) => string, options: CountdownOptions): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const whole = Math.max(0, Math.ceil(seconds));
  const width = (io.stderr as { columns?: number }).columns;
  const live = io.stderrIsTTY && !options.json && width !== 0;
  if (!live) {
    io.stderr.write(text(whole) + '\n');
    if (seconds > 0) await sleep(seconds * 1000);
    return;
  }
  try {
    for (let left = whole; left > 0; left--) {
      if (options.signal?.aborted) return;
      io.stderr.write(`\r\u001b[2K${text(left)}`);
      await sleep(Math.min(1000, (seconds - (whole - left)) * 1000));
    }
  } finally {
    io.stderr.write('\r\u001b[2K');
  }
}
