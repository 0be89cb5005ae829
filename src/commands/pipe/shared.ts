/** What the `ops pipe` commands share: the client, waiting for compilation and deployment states, errors. */
import type { Context } from '../../context.js';
import { ApiError, ExitCode, OpsError, TimeoutError, UsageError } from '../../core/errors.js';
import { startProgress, type Progress } from '../../core/progress.js';
import { sanitize } from '../../core/sanitize.js';
import { PipelinesClient, compileFailed, isMissingEndpoint, isCompiling, isStopped, phaseText, type Pipeline } from '../../clients/pipelines.js';
import { renderSqlMessages } from './render.js';

export function client(ctx: Context): PipelinesClient {
  return new PipelinesClient(ctx.http('pipe'));
}

/** Default time limits of the waits when --timeout is not given (seconds). */
export const DEFAULT_WAIT = { compile: 600, deploy: 300 } as const;

/** How long a wait may last: --timeout seconds when given, else the default. */
export function waitLimitMs(ctx: Context, fallbackSeconds: number): number {
  return ctx.options.timeout !== undefined ? ctx.timeoutMs() : fallbackSeconds * 1000;
}

export const POLL_MS = 250;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

export function parsePositiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, not "${value}"`);
  return n;
}

/** A 404 for the pipeline itself becomes a clear message with a hint. */
export function explain(err: unknown, name: string): never {
  if (err instanceof ApiError && err.code === 'UnknownPipelineName') {
    throw new OpsError(`no pipeline named "${sanitize(name)}"`, ExitCode.failure, 'Run `ops pipe list` to see the pipelines.');
  }
  if (err instanceof ApiError && /CannotUpdateNonShutdown|UpdateRestrictedToStopped|CannotDeleteNonShutdown|DeleteRestrictedToFullyStopped/.test(err.code ?? '')) {
    throw new OpsError(err.message, ExitCode.failure, `Stop it first: ops pipe shutdown ${name}`);
  }
  if (err instanceof ApiError && (err.code === 'UnknownOutputStream' || err.code === 'UnknownInputStream')) {
    // the server's words name its internal endpoint (`Output endpoint 'api-snapshot-quantiles-...'`)
    const details = (err.body as { details?: { stream_name?: unknown } } | undefined)?.details;
    const stream = typeof details?.stream_name === 'string' ? details.stream_name : undefined;
    const what = err.code === 'UnknownOutputStream' ? 'view' : 'table';
    throw new OpsError(`${sanitize(name)} has no ${what}${stream ? ` "${sanitize(stream)}"` : ' of that name'}`, ExitCode.failure, `\`ops pipe status ${name}\` lists its tables and views.`);
  }
  if (err instanceof ApiError && err.code === 'PipelineNotRunningOrPaused') {
    throw new OpsError(err.message, ExitCode.failure, `Start it first: ops pipe start ${name}`);
  }
  if (err instanceof ApiError && err.code === 'PipelineInteractionNotDeployed') {
    throw new OpsError(`${sanitize(name)} is not deployed`, ExitCode.failure, `Start it first: ops pipe start ${name}`);
  }
  if (err instanceof ApiError && err.code === 'NoTransactionInProgress') {
    throw new OpsError(`${sanitize(name)} has no transaction in progress`, ExitCode.failure, `Start one: ops pipe txn start ${name}`);
  }
  if (err instanceof ApiError && err.code === 'TransactionInProgress') {
    throw new OpsError(`${sanitize(name)} already has a transaction in progress`, ExitCode.failure, `Commit it first: ops pipe txn commit ${name}`);
  }
  throw err;
}

/**
 * Today's endpoints (transactions, monitor events, metrics) against a server that lacks them: a clear message
 * rather than the server's bare 404; anything else as `explain` says.
 */
export function explainToday(err: unknown, name: string, what: string): never {
  if (isMissingEndpoint(err)) {
    throw new OpsError(`this pipeline service does not offer ${what}`, ExitCode.failure, "The v0.24-era Feldera API had none; today's Feldera and `ops serve` do.");
  }
  explain(err, name);
}

export async function getPipeline(ctx: Context, pipes: PipelinesClient, name: string): Promise<Pipeline> {
  try {
    return await pipes.get(name);
  } catch (err) {
    explain(err, name);
  }
}

/** One GET of a wait: an HTTP timeout (same --timeout) counts as the wait running out, with the wait's message. */
async function poll(ctx: Context, pipes: PipelinesClient, name: string, message: () => string): Promise<Pipeline> {
  try {
    return await getPipeline(ctx, pipes, name);
  } catch (err) {
    if (err instanceof TimeoutError) throw new TimeoutError(message(), `Wait longer with --timeout SECONDS; see ops pipe status ${name}`);
    throw err;
  }
}

/** The compile errors of a pipeline as text (FILE:LINE:COL + caret), or the compiler's text. */
export function compileErrorText(p: Pipeline, file: string, source: string): string {
  if (p.program.status === 'SqlError') {
    const text = renderSqlMessages(
      p.program.messages.filter((m) => !m.warning),
      file,
      source,
    );
    return text || 'the SQL program has errors (the server gave no details)';
  }
  return sanitize(p.program.errorText ?? `compilation failed (${p.program.status})`, { keepNewlines: true });
}

/**
 * Wait until the program is compiled (Success) or failed. Throws a TimeoutError (exit 8) when the
 * limit passes. Returns the pipeline in its final program state.
 */
export async function waitCompiled(ctx: Context, pipes: PipelinesClient, name: string, progress: Progress, deadline: number): Promise<Pipeline> {
  let last = 'waiting for the compiler';
  for (;;) {
    const p = await poll(ctx, pipes, name, () => `${name} is still ${last} after the time limit`);
    last = phaseText(p.program.status);
    if (!isCompiling(p.program.status)) return p;
    progress.update(`${name}: ${phaseText(p.program.status)}`);
    if (Date.now() >= deadline) {
      throw new TimeoutError(`${name} is still ${phaseText(p.program.status)} after the time limit`, `Wait longer with --timeout SECONDS, or check later with: ops pipe status ${name}`);
    }
    await sleep(POLL_MS);
  }
}

/** Fail with exit 1 and the compiler output when compilation failed. */
export function assertCompiled(ctx: Context, p: Pipeline, file: string, source: string): void {
  if (!compileFailed(p.program.status)) return;
  ctx.io.stderr.write(compileErrorText(p, file, source) + '\n');
  const fileArg = file.startsWith('<') || file === p.name ? 'FILE.sql' : file;
  const errors = p.program.messages.filter((m) => !m.warning).length;
  const what = errors > 0 ? `${errors} error${errors === 1 ? '' : 's'} in the program of ${p.name}` : `the program of ${p.name} did not compile (${p.program.status})`;
  throw new OpsError(what, ExitCode.failure, `Fix the program and run: ops pipe create ${p.name} ${fileArg} --replace`);
}

export type Target = 'Running' | 'Paused' | 'Stopped';

function reached(p: Pipeline, target: Target): boolean {
  if (target === 'Stopped') return isStopped(p.deployment.status);
  return p.deployment.status === target;
}

function deploymentErrorText(p: Pipeline): string {
  const e = p.deployment.error;
  if (!e) return '';
  return sanitize(`${e.message}${e.error_code ? ` (${e.error_code})` : ''}`, { keepNewlines: true });
}

/**
 * Wait until the deployment reaches `target`. Fails (exit 1) with the deployment error when the
 * pipeline fails or falls back to stopped while it should be going up; exit 8 when the time is up.
 */
export async function waitDeployment(ctx: Context, pipes: PipelinesClient, name: string, target: Target, progress: Progress, deadline: number): Promise<Pipeline> {
  let sawProgress = false;
  let last = '';
  for (;;) {
    const p = await poll(ctx, pipes, name, () => `${name} did not reach ${target} in time${last ? ` (it is ${last})` : ''}`);
    last = p.deployment.status;
    if (reached(p, target)) return p;
    const status = p.deployment.status;
    if (target !== 'Stopped') {
      const wantsStop = p.deployment.desired === 'Shutdown' || p.deployment.desired === 'Stopped';
      if (status === 'Failed' || (p.deployment.error && wantsStop)) {
        progress.fail(`${name}: failed to start`);
        throw new OpsError(`${name} failed: ${deploymentErrorText(p) || status}`, ExitCode.failure, `See the logs: ops pipe logs ${name}`);
      }
      if (isStopped(status) && wantsStop && sawProgress) {
        progress.fail(`${name}: stopped`);
        throw new OpsError(`${name} went back to ${status} before reaching ${target}`, ExitCode.failure, `See the logs: ops pipe logs ${name}`);
      }
    } else if (status === 'Failed') {
      // v0.24: a Failed pipeline needs /shutdown to acknowledge the error; keep waiting for Shutdown.
    }
    if (!isStopped(status)) sawProgress = true;
    progress.update(`${name}: ${status}${p.deployment.desired ? ` (going to ${p.deployment.desired})` : ''}`);
    if (Date.now() >= deadline) {
      progress.stop();
      throw new TimeoutError(`${name} did not reach ${target} in time (it is ${status})`, `Wait longer with --timeout SECONDS; see ops pipe status ${name}`);
    }
    await sleep(POLL_MS);
  }
}

export async function progressFor(ctx: Context, text: string): Promise<Progress> {
  // A terminal that reports 0 columns (a pty without a window size) sends ora into an endless redraw: plain lines there.
  const columns = ctx.io.stderr.columns;
  if (ctx.io.stderrIsTTY && !(typeof columns === 'number' && columns > 0)) {
    return startProgress({ ...ctx.io, stderrIsTTY: false }, text, { json: ctx.json });
  }
  return startProgress(ctx.io, text, { json: ctx.json });
}
