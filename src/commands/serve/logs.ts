/**
 * `ops serve logs`: the log of the server started with `ops serve --detach` (<data-dir>/serve.log), as it is
 * written (the server's own output: what it prints in the foreground, with --log-requests one line per request).
 *
 * Contract: prints the file (or its last --lines N lines) to stdout; `--follow` then prints what is appended until
 * the server stops (the data dir's lock is free and nothing more came), or Ctrl-C. Exit 3 with a message when
 * there is no log (no server was started with --detach on the data dir); 1 when a server runs there in the
 * foreground (its output is in its terminal). The file is read in chunks; a line is
 * never split in two.
 */
import { Command } from 'commander';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { LOG_FILE } from '../../services/data-dir-layout.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';

export interface ServeLogsOptions extends DataDirOption {
  /** only the last N lines */
  lines?: string;
  /** keep printing what is appended until the server stops */
  follow?: boolean;
}

/** How often --follow looks for new output. */
const FOLLOW_POLL_MS = 200;
const CHUNK = 64 * 1024;

export function newCmdServeLogs(f: Factory, runF: RunFunction<ServeLogsOptions> = runServeLogs): Command {
  return dataDirOption(
    new Command('logs')
      .description('Print the log of the server started with --detach; --follow keeps printing until it stops')
      .option('-n, --lines <n>', 'only the last N lines')
      .option('-f, --follow', 'keep printing what is appended, until the server stops (or Ctrl-C)')
      .addHelpText('after', examples('ops serve logs', 'ops serve logs -n 50', 'ops serve logs --follow')),
  ).action((flags: ServeLogsOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export async function runServeLogs(flags: ServeLogsOptions, ctx: Context, pollMs = FOLLOW_POLL_MS): Promise<void> {
  const lines = flags.lines === undefined ? undefined : Number(flags.lines);
  if (lines !== undefined && (!Number.isInteger(lines) || lines < 0)) throw new UsageError(`--lines must be a whole number, not "${flags.lines}"`);
  const dataDir = resolve(resolveDataDir(flags.dataDir, ctx.env));
  const path = join(dataDir, LOG_FILE);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    const { ownerOf } = await import('../../services/server-file.js');
    const owner = ownerOf(dataDir)?.file;
    if (owner) throw new OpsError(`the ops serve on ${dataDir} (pid ${owner.pid}) was not started with --detach: its output goes to the terminal it runs in, not to a log`);
    throw new OpsError(`no log in ${dataDir}: ops serve writes ${LOG_FILE} when started with --detach`, ExitCode.notRunning, `Start one with: ops serve --detach --data-dir ${dataDir}`);
  }
  let offset = lines === undefined ? 0 : startOfLastLines(path, size, lines);
  offset = await copy(ctx, path, offset, size, !flags.follow);
  if (!flags.follow) return;
  const { dataDirLocked } = await import('../../services/data-dir-lock.js');
  for (;;) {
    // the lock is looked at before the file, so that nothing the server wrote before it stopped is missed
    const serving = dataDirLocked(dataDir);
    let now: number;
    try {
      now = statSync(path).size;
    } catch {
      return; // removed (ops serve reset)
    }
    if (now < offset) offset = 0; // a new detached start began the file again
    if (!serving) {
      await copy(ctx, path, offset, now, true); // what is left, a last line without its newline too
      return;
    }
    if (now > offset) offset = await copy(ctx, path, offset, now);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Copies bytes [from, to) of the file to stdout, up to the last whole line (or all of them); the offset reached. */
async function copy(ctx: Context, path: string, from: number, to: number, all = false): Promise<number> {
  const fd = openSync(path, 'r');
  try {
    let offset = from;
    const buf = Buffer.alloc(CHUNK);
    while (offset < to) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, to - offset), offset);
      if (n === 0) break;
      const end = buf.lastIndexOf(0x0a, n - 1);
      // a partial last line waits for its end, unless a single line is longer than a chunk
      const take = all && offset + n >= to ? n : end >= 0 ? end + 1 : n === CHUNK ? n : 0;
      if (take === 0) break;
      await ctx.out.write(buf.subarray(0, take).toString('utf8'));
      offset += take;
    }
    return offset;
  } finally {
    closeSync(fd);
  }
}

/** Where the last `count` lines of the file begin (reading backwards in chunks). */
function startOfLastLines(path: string, size: number, count: number): number {
  if (count === 0 || size === 0) return size;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    let end = size;
    // a final newline ends the last line; it does not start another
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    let seen = last[0] === 0x0a ? -1 : 0;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const n = readSync(fd, buf, 0, end - start, start);
      for (let i = n - 1; i >= 0; i--) {
        if (buf[i] === 0x0a && ++seen === count) return start + i + 1;
      }
      end = start;
    }
    return 0;
  } finally {
    closeSync(fd);
  }
}
