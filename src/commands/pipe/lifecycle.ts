/** `ops pipe start|pause|shutdown|restart|delete|clear`. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, ExitCode, OpsError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { isCompiling, isStopped, type Pipeline, type PipelinesClient } from '../../clients/pipelines.js';
import { DEFAULT_WAIT, assertCompiled, client, explain, explainToday, getPipeline, progressFor, waitCompiled, waitDeployment, waitLimitMs, type Target } from './shared.js';

export interface WaitOptions {
  wait?: boolean;
}

async function finish(ctx: Context, p: Pipeline | undefined): Promise<void> {
  if (ctx.json && p) await ctx.out.writeJson(p.raw);
}

/** Start (waiting for compilation first), then wait for Running unless told not to. */
export async function startAndWait(ctx: Context, pipes: PipelinesClient, name: string, opts: WaitOptions): Promise<Pipeline> {
  let p = await getPipeline(ctx, pipes, name);
  if (p.deployment.status === 'Running') {
    ctx.out.info(`${sanitize(name)} is already running`);
    return p;
  }
  const deadline = Date.now() + waitLimitMs(ctx, isCompiling(p.program.status) ? DEFAULT_WAIT.compile : DEFAULT_WAIT.deploy);
  const progress = await progressFor(ctx, `${name}: starting`);
  try {
    if (isCompiling(p.program.status) && opts.wait !== false) p = await waitCompiled(ctx, pipes, name, progress, deadline);
    if (p.program.status === 'SqlError' || p.program.status === 'RustError' || p.program.status === 'SystemError') {
      progress.fail(`${name}: the program did not compile`);
      assertCompiled(ctx, p, name, p.program.code ?? '');
    }
    try {
      try {
        await pipes.action(name, 'start');
      } catch (err) {
        // Today's API keeps the error of a failed run until it is dismissed; starting again means moving on.
        if (!(err instanceof ApiError && err.code === 'CannotStartWithUndismissedError')) throw err;
        ctx.out.info(`dismissing the previous error of ${sanitize(name)}: ${sanitize(p.deployment.error?.message ?? err.message)}`);
        await pipes.dismissError(name);
        await pipes.action(name, 'start');
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === 'IllegalPipelineStateTransition' && p.deployment.status === 'Failed') {
        throw new OpsError(err.message, ExitCode.failure, `It failed earlier; acknowledge with: ops pipe shutdown ${name}`);
      }
      explain(err, name);
    }
    if (opts.wait === false) {
      progress.succeed(`${name}: start requested`);
      return await getPipeline(ctx, pipes, name);
    }
    p = await waitDeployment(ctx, pipes, name, 'Running', progress, deadline);
    progress.succeed(`${name}: running`);
    return p;
  } catch (err) {
    progress.stop();
    throw err;
  }
}

export interface PipeStartOptions extends WaitOptions {
  name: string;
}

export function newCmdPipeStart(f: Factory, runF: RunFunction<PipeStartOptions> = runPipeStart): Command {
  return new Command('start')
    .arguments('<name>')
    .description('Start a pipeline and wait until it is Running (--timeout SECONDS; exit 8 when it runs out)')
    .option('--no-wait', 'return once the start was accepted')
    .addHelpText(
      'after',
      '\nWaits for compilation first if the program is still compiling. Exit 1 with the deployment error when it fails.\nExamples:\n  ops pipe start shop\n  ops --timeout 60 pipe start shop || echo "not running"',
    )
    .action((name: string, flags: WaitOptions) => runWith(f, runF, { ...flags, name }));
}

export async function runPipeStart(opts: PipeStartOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  await finish(ctx, await startAndWait(ctx, client(ctx), name, opts));
}

async function actionAndWait(ctx: Context, name: string, action: 'pause' | 'stop', target: Target, opts: WaitOptions & { force?: boolean }, how: { quiet?: boolean } = {}): Promise<void> {
  const done = (p: Pipeline | undefined): Promise<void> => (how.quiet ? Promise.resolve() : finish(ctx, p));
  const pipes = client(ctx);
  let p = await getPipeline(ctx, pipes, name);
  const already = target === 'Stopped' ? isStopped(p.deployment.status) && !p.deployment.error : p.deployment.status === target;
  if (already) {
    ctx.out.info(`${sanitize(name)} is already ${p.deployment.status}`);
    return done(p);
  }
  const verb = action === 'pause' ? 'pausing' : 'stopping';
  const progress = await progressFor(ctx, `${name}: ${verb}`);
  try {
    try {
      await pipes.action(name, action, { force: opts.force });
    } catch (err) {
      explain(err, name);
    }
    if (opts.wait === false) {
      progress.succeed(`${name}: ${action === 'pause' ? 'pause' : 'shutdown'} requested`);
      return done(await getPipeline(ctx, pipes, name));
    }
    p = await waitDeployment(ctx, pipes, name, target, progress, Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.deploy));
    progress.succeed(`${name}: ${p.deployment.status}`);
  } catch (err) {
    progress.stop();
    throw err;
  }
  await done(p);
}

export function newCmdPipePause(f: Factory, runF: RunFunction<PipeStartOptions> = runPipePause): Command {
  return new Command('pause')
    .arguments('<name>')
    .description('Pause a pipeline (deploys it paused when it is shut down) and wait until Paused')
    .option('--no-wait', 'return once the request was accepted')
    .addHelpText('after', '\nExample:\n  ops pipe pause shop')
    .action((name: string, flags: WaitOptions) => runWith(f, runF, { ...flags, name }));
}

export function runPipePause(opts: PipeStartOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  return actionAndWait(ctx, name, 'pause', 'Paused', opts);
}

export interface PipeShutdownOptions extends PipeStartOptions {
  /** today's Feldera: stop without a checkpoint */
  force?: boolean;
}

export function newCmdPipeShutdown(f: Factory, runF: RunFunction<PipeShutdownOptions> = runPipeShutdown): Command {
  return new Command('shutdown')
    .arguments('<name>')
    .alias('stop')
    .description("Shut a pipeline down (today's Feldera: stop) and wait until it is stopped; its state is lost")
    .option('--no-wait', 'return once the request was accepted')
    .option('--force', "today's Feldera: stop without a checkpoint")
    .addHelpText('after', '\nExamples:\n  ops pipe shutdown shop\n  ops pipe stop shop --no-wait')
    .action((name: string, flags: Omit<PipeShutdownOptions, 'name'>) => runWith(f, runF, { ...flags, name }));
}

export function runPipeShutdown(opts: PipeShutdownOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  return actionAndWait(ctx, name, 'stop', 'Stopped', opts);
}

export interface PipeDeleteOptions {
  name: string;
}

export function newCmdPipeDelete(f: Factory, runF: RunFunction<PipeDeleteOptions> = runPipeDelete): Command {
  return new Command('delete')
    .arguments('<name>')
    .alias('rm')
    .description('Delete a stopped pipeline (asks for confirmation; --yes in scripts)')
    .addHelpText('after', '\nExamples:\n  ops pipe delete mine\n  ops --yes pipe delete mine')
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runPipeDelete(opts: PipeDeleteOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  const ok = await ctx.prompter.confirm(`Delete pipeline ${sanitize(name)}${p.description ? ` (${sanitize(p.description)})` : ''}?`, { action: `delete pipeline ${name}` });
  if (!ok) throw new OpsError('not deleted', ExitCode.failure);
  try {
    await pipes.delete(name);
  } catch (err) {
    explain(err, name);
  }
  ctx.out.success(`deleted pipeline ${sanitize(name)}`);
  if (ctx.json) await ctx.out.writeJson({ name, deleted: true });
}

export interface PipeRestartOptions extends PipeStartOptions {
  force?: boolean;
}

export function newCmdPipeRestart(f: Factory, runF: RunFunction<PipeRestartOptions> = runPipeRestart): Command {
  return new Command('restart')
    .arguments('<name>')
    .description('Stop a pipeline, waiting until it is stopped, then start it and wait until it is Running')
    .option('--no-wait', 'return once the start was accepted')
    .option('--force', "today's Feldera: stop without a checkpoint")
    .addHelpText('after', '\nExamples:\n  ops pipe restart shop\n  ops --timeout 120 pipe restart shop --force')
    .action((name: string, flags: Omit<PipeRestartOptions, 'name'>) => runWith(f, runF, { ...flags, name }));
}

export async function runPipeRestart(opts: PipeRestartOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  await actionAndWait(ctx, name, 'stop', 'Stopped', { force: opts.force, wait: true }, { quiet: true });
  await finish(ctx, await startAndWait(ctx, client(ctx), name, opts));
}

export interface PipeClearOptions {
  name: string;
}

export function newCmdPipeClear(f: Factory, runF: RunFunction<PipeClearOptions> = runPipeClear): Command {
  return new Command('clear')
    .arguments('<name>')
    .description("Delete a stopped pipeline's stored state (today's /clear; asks for confirmation, --yes in scripts)")
    .addHelpText('after', '\nThe next start begins from empty tables and views.\nExamples:\n  ops pipe clear shop\n  ops --yes pipe clear shop')
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runPipeClear(opts: PipeClearOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  await getPipeline(ctx, pipes, name);
  const ok = await ctx.prompter.confirm(`Delete the stored state of pipeline ${sanitize(name)}?`, { action: `clear the state of pipeline ${name}` });
  if (!ok) throw new OpsError('not cleared', ExitCode.failure);
  try {
    await pipes.clear(name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'IllegalPipelineStateTransition') throw new OpsError(err.message, ExitCode.failure, `Stop it first: ops pipe shutdown ${name}`);
    explainToday(err, name, 'clearing the stored state');
  }
  ctx.out.success(`cleared the stored state of ${sanitize(name)}`);
  if (ctx.json) await ctx.out.writeJson({ name, cleared: true });
}
