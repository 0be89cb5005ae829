/**
 * `ops serve stop`: stop the server that holds the data dir gracefully and wait until it has let go of it.
 *
 * Contract:
 * - SIGTERM to the lock holder named by server.json (checked to be that very process: pid and start time), then
 *   wait until the lock is free and the process gone. A server already stopping is not signalled again (a second
 *   signal would force its exit), only waited for. The server finishes in-flight requests and closes its
 *   services (pipelines write their checkpoints), which may take a while: the wait is the global --timeout in
 *   seconds, by default STOP_TIMEOUT_MS.
 * - Exit 0 once stopped, and also when no server runs (said on stderr; `"stopped": false` in --json) so that a
 *   cleanup step can always call it; 8 when the server is still stopping at the end of the wait; 1 when the
 *   holder cannot be signalled (it named no process of ours).
 */
import { Command } from 'commander';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { OpsError, TimeoutError } from '../../core/errors.js';
import { formatDuration } from '../../core/units.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { examples } from '../help-text.js';
import { dataDirOption, resolveDataDir, withDataDir, type DataDirOption } from './flags.js';
import { describeOwner, waitForOwner } from './owner.js';

/** How long `ops serve stop` waits for a server to stop when --timeout is not given. */
export const STOP_TIMEOUT_MS = 120_000;

export type ServeStopOptions = DataDirOption;

export interface ServeStopped {
  stopped: boolean;
  dataDir: string;
  pid?: number;
  ms?: number;
}

export function newCmdServeStop(f: Factory, runF: RunFunction<ServeStopOptions> = runServeStop): Command {
  return dataDirOption(
    new Command('stop')
      .description('Stop the server on the data dir gracefully (SIGTERM) and wait until it stopped')
      .addHelpText(
        'after',
        examples('ops serve stop', 'ops --timeout 600 serve stop   # a server with big pipelines to checkpoint') +
          `\n\nWaits up to --timeout seconds (default ${STOP_TIMEOUT_MS / 1000}). Exit codes: 0 stopped, or no server was running;\n8 still stopping when the wait ran out; 1 the holder of the data dir could not be signalled.\n`,
      ),
  ).action((flags: ServeStopOptions, cmd: Command) => runWith(f, runF, withDataDir(flags, cmd)));
}

export async function runServeStop(flags: ServeStopOptions, ctx: Context): Promise<ServeStopped> {
  const dataDir = resolve(resolveDataDir(flags.dataDir, ctx.env));
  const timeoutMs = ctx.options.timeout === undefined ? STOP_TIMEOUT_MS : ctx.timeoutMs();
  const [{ dataDirLocked }, { sameProcess }] = await Promise.all([import('../../services/data-dir-lock.js'), import('../../services/server-file.js')]);
  const owner = await waitForOwner(dataDir);
  if (!owner) {
    ctx.out.info(`no ops serve runs on ${dataDir}`);
    const result = { stopped: false, dataDir };
    if (ctx.json) await ctx.out.writeJson(result);
    return result;
  }
  const file = owner.file;
  if (!file) throw new OpsError(`the data dir ${dataDir} is held by ${describeOwner(file)}; not stopping it`);
  const started = Date.now();
  // a server already stopping is only waited for: a second signal would be taken for an impatient Ctrl-C and
  // cut its shutdown short (checkpoints included)
  if (file.state !== 'stopping') {
    try {
      process.kill(file.pid, 'SIGTERM');
    } catch (err) {
      throw new OpsError(`could not signal ops serve (pid ${file.pid}): ${(err as Error).message}`);
    }
  }
  if (!ctx.json) ctx.out.info(`${file.state === 'stopping' ? 'waiting for' : 'stopping'} ops serve (pid ${file.pid}) on ${dataDir}…`);
  while (dataDirLocked(dataDir) || sameProcess(file.pid, file.pid_start)) {
    if (Date.now() - started > timeoutMs) {
      throw new TimeoutError(
        `ops serve (pid ${file.pid}) is still stopping after ${formatDuration(timeoutMs)}`,
        `Wait longer with --timeout SECONDS; \`kill -9 ${file.pid}\` stops it at once (pipelines then resume from their last checkpoint).`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const result = { stopped: true, dataDir, pid: file.pid, ms: Date.now() - started };
  if (ctx.json) await ctx.out.writeJson(result);
  else ctx.out.success(`stopped ops serve (pid ${file.pid}) in ${formatDuration(result.ms)}`);
  return result;
}
