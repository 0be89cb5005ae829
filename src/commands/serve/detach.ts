/**
 * `ops serve --detach`: the same `ops serve` started again in the background, in its own session, with its output
 * in `<data-dir>/serve.log` (the previous start's kept as serve.log.1); returns once every service answers.
 *
 * Contract:
 * - Refused at once, before anything is started, when a server holds the data dir (its pid and URL said).
 * - Ready means: the server wrote its --ready-file (every service started, the profile written, the demo seeded)
 *   and `GET /health` answers with every service's state and none down. Then it prints the URLs and profile
 *   (text, or one JSON object with --json) and exits 0, leaving the server running.
 * - The wait is bounded by the global --timeout (seconds; default 60). A server that exits first: exit 1 with its
 *   exit code and the end of its log. Out of time: the server is stopped (SIGTERM) and the command exits 8.
 * - How `ops` is started again is the `self` argument (the running node and script by default).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { ExitCode, OpsError, QuietExit, TimeoutError } from '../../core/errors.js';
import { HttpClient } from '../../core/http.js';
import { serveHealth, type ServeHealth } from '../../clients/serve-health.js';
import { privateDir } from '../../services/data-dir.js';
import { LOG_FILE, OLD_LOG_FILE } from '../../services/data-dir-layout.js';
import { ownerOf } from '../../services/server-file.js';
import { dataDirInUse } from './owner.js';
import { readReadyFile, type ReadyInfo } from './ready-file.js';

/** How long --detach waits for a server to be ready when --timeout is not given. */
export const DETACH_TIMEOUT_MS = 60_000;

/** The command that runs `ops` again: the program and its leading arguments (node and the script). */
export type SelfCommand = readonly string[];

export function currentSelf(): SelfCommand {
  return [process.execPath, ...process.execArgv, process.argv[1]!];
}

export interface Detached extends ReadyInfo {
  log: string;
  health: ServeHealth;
}

/**
 * The arguments of the background server: the same command line without --detach/-d and without --json (that is
 * this command's output; the log is for people), plus its ready file.
 */
export function backgroundArgs(argv: readonly string[], readyFile: string): string[] {
  return [...argv.filter((a) => a !== '--detach' && a !== '-d' && a !== '--json'), '--ready-file', readyFile];
}

export async function startDetached(ctx: Context, dataDir: string, argv: readonly string[], self: SelfCommand = currentSelf()): Promise<Detached> {
  privateDir(dataDir);
  if (ownerOf(dataDir)) throw await dataDirInUse(dataDir, 'start ops serve');
  const timeoutMs = ctx.options.timeout === undefined ? DETACH_TIMEOUT_MS : ctx.timeoutMs();

  // Ctrl-C while starting gives up the start: the half-started server is stopped too. Caught from before the
  // log exists (what a script or a test sees of the start), so no Ctrl-C ends this process without that.
  let interrupted = false;
  const onInterrupt = () => (interrupted = true);
  process.once('SIGINT', onInterrupt);
  let readyDir: string | undefined;
  try {
    return await waitDetached();
  } finally {
    process.off('SIGINT', onInterrupt);
    if (readyDir) rmSync(readyDir, { recursive: true, force: true });
  }

  async function waitDetached(): Promise<Detached> {
    const log = join(dataDir, LOG_FILE);
    if (existsSync(log)) renameSync(log, join(dataDir, OLD_LOG_FILE));
    const fd = openSync(log, 'a', 0o600);
    writeSync(fd, `# ops serve --detach, started ${new Date().toISOString()}\n`);
    readyDir = mkdtempSync(join(tmpdir(), 'ops-serve-ready-'));
    const readyFile = join(readyDir, 'ready.json');
    const [program, ...lead] = self;
    const child = spawn(program!, [...lead, ...backgroundArgs(argv, readyFile)], { detached: true, stdio: ['ignore', fd, fd], env: ctx.env });
    closeSync(fd);
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: Error | undefined;
    child.on('exit', (code, signal) => (exited = { code, signal }));
    child.on('error', (err) => (spawnError = err));
    try {
      const end = Date.now() + timeoutMs;
      let ready: ReadyInfo | undefined;
      let health: ServeHealth | undefined;
      let lastProblem = 'it has not written its ready file';
      while (!health) {
        if (spawnError) throw new OpsError(`could not start ops serve in the background: ${spawnError.message}`);
        if (exited) throw notStarted(exited, log);
        if (interrupted) {
          child.kill('SIGTERM');
          throw new QuietExit(ExitCode.interrupted);
        }
        if (Date.now() > end) {
          child.kill('SIGTERM');
          throw new TimeoutError(`ops serve was not ready after ${timeoutMs / 1000} s (${lastProblem}); it was stopped`, `Its log: ${log}. Wait longer with --timeout SECONDS.`);
        }
        ready ??= readReadyFile(readyFile);
        if (ready) {
          try {
            const h = await serveHealth(new HttpClient({ baseUrl: ready.url, serviceName: 'ops serve', env: {} }), 2_000);
            if (Object.keys(h.services).length > 0 && h.status !== 'down') health = h;
            else lastProblem = `GET /health answers ${h.status}`;
          } catch (err) {
            lastProblem = `GET /health: ${(err as Error).message}`;
          }
        }
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      child.unref();
      return { ...ready!, log, health };
    } finally {
      child.removeAllListeners();
    }
  }
}

/** The error of a background server that exited before it was ready, with the end of its log. */
function notStarted(exited: { code: number | null; signal: NodeJS.Signals | null }, log: string): OpsError {
  let tail = '';
  try {
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('# ops serve --detach'));
    tail = lines.slice(-10).join('\n');
  } catch {
    /* no log to show */
  }
  const how = exited.signal ? `was killed by ${exited.signal}` : `exited with code ${exited.code}`;
  return new OpsError(`ops serve ${how} before it was ready${tail ? `:\n${tail}` : ''}`, exited.code === ExitCode.usage ? ExitCode.usage : ExitCode.failure, `Its log: ${log}`);
}
