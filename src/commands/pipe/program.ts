/**
 * `ops pipe program get|set`, `ops pipe diff` and `ops pipe copy` (fda's `program`, `diff`-like and `copy`):
 * the stored SQL program read, replaced (PATCH, then waiting for compilation), compared with a file as a
 * unified diff (exit 1 when they differ, as diff(1) does), and a pipeline copied under a new name (its
 * program, description, runtime and program config; not its state).
 */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { cannotRead } from '../../core/file-errors.js';
import { sanitize } from '../../core/sanitize.js';
import { compileFailed, isStopped, phaseText, type Pipeline, type PipelinesClient } from '../../clients/pipelines.js';
import { readProgram } from './create.js';
import { renderSqlMessages } from './render.js';
import { DEFAULT_WAIT, assertCompiled, client, explain, getPipeline, progressFor, waitCompiled, waitLimitMs } from './shared.js';

export interface PipeProgramGetOptions {
  name: string;
}

/** `ops pipe program`: the group and its verbs. */
export function newCmdPipeProgram(f: Factory): Command {
  const cmd = new Command('program')
    .description('Read or replace the SQL program of a pipeline')
    .addHelpText('after', '\nExamples:\n  ops pipe program get shop > shop.sql\n  ops pipe program set shop shop.sql');
  return addVerbs(cmd, newCmdPipeProgramGet(f), newCmdPipeProgramSet(f));
}

export function newCmdPipeProgramGet(f: Factory, runF: RunFunction<PipeProgramGetOptions> = runPipeProgramGet): Command {
  return new Command('get')
    .arguments('<name>')
    .description('Print the stored SQL program byte for byte (--json: {name, program_code})')
    .addHelpText('after', '\nExample:\n  ops pipe program get shop > shop.sql')
    .action((name: string) => runWith(f, runF, { name }));
}

export function newCmdPipeProgramSet(f: Factory, runF: RunFunction<PipeProgramSetOptions> = runPipeProgramSet): Command {
  return new Command('set')
    .arguments('<name> [file]')
    .description('Replace the SQL program of a stopped pipeline and wait for it to compile')
    .option('--no-wait', 'return at once, without waiting for compilation')
    .addHelpText('after', '\nOn SQL errors each is printed as FILE:LINE:COL: message; exit 1.\nExamples:\n  ops pipe program set shop shop.sql\n  cat shop.sql | ops pipe program set shop')
    .action((name: string, file: string | undefined, flags: { wait?: boolean }) => runWith(f, runF, { ...flags, name, file }));
}

export async function runPipeProgramGet(opts: PipeProgramGetOptions, ctx: Context): Promise<void> {
  const p = await getPipeline(ctx, client(ctx), opts.name);
  const code = p.program.code ?? '';
  if (ctx.json) return ctx.out.writeJson({ name: p.name, program_code: code });
  // byte for byte (so that `program get NAME > f; diff NAME f` says equal); a newline only to end a terminal's line
  await ctx.out.write(ctx.io.stdoutIsTTY && code !== '' && !code.endsWith('\n') ? `${code}\n` : code);
}

export interface PipeProgramSetOptions {
  name: string;
  file?: string;
  wait?: boolean;
}

/** After a change of the program: wait for the compiler, print warnings, fail (exit 1) with the errors. */
export async function waitForProgram(ctx: Context, pipes: PipelinesClient, p: Pipeline, label: string, source: string): Promise<Pipeline> {
  const name = p.name;
  const progress = await progressFor(ctx, `${name}: ${phaseText(p.program.status)}`);
  try {
    p = await waitCompiled(ctx, pipes, name, progress, Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.compile));
  } catch (err) {
    progress.stop();
    throw err;
  }
  const warnings = p.program.messages.filter((m) => m.warning);
  if (compileFailed(p.program.status)) progress.fail(`${name}: ${phaseText(p.program.status)}`);
  else progress.succeed(`${name}: compiled`);
  if (warnings.length > 0) ctx.io.stderr.write(renderSqlMessages(warnings, label, source) + '\n');
  if (compileFailed(p.program.status) && ctx.json) await ctx.out.writeJson(p.raw);
  assertCompiled(ctx, p, label, source);
  return p;
}

export async function runPipeProgramSet(opts: PipeProgramSetOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const { source, label } = await readProgram(ctx, opts.file);
  if (source.trim() === '') throw new UsageError(`the SQL program in ${label} is empty`);
  const pipes = client(ctx);
  let p: Pipeline;
  try {
    p = await pipes.patch(name, { program_code: source });
  } catch (err) {
    explain(err, name);
  }
  ctx.out.info(`updated the program of ${sanitize(name)}${p.program.version !== undefined ? ` (program version ${p.program.version})` : ''}`);
  if (opts.wait !== false) p = await waitForProgram(ctx, pipes, p, label, source);
  if (!isStopped(p.deployment.status)) ctx.out.warn(`${sanitize(name)} is ${p.deployment.status}: it runs its previous program until restarted (ops pipe restart ${name})`);
  if (ctx.json) await ctx.out.writeJson(p.raw);
}

export interface PipeDiffOptions {
  name: string;
  file: string;
}

export function newCmdPipeDiff(f: Factory, runF: RunFunction<PipeDiffOptions> = runPipeDiff): Command {
  return new Command('diff')
    .arguments('<name> <file>')
    .description('Compare the stored SQL program with a file: a unified diff; exit 1 when they differ, 0 when equal')
    .addHelpText('after', '\nExamples:\n  ops pipe diff shop shop.sql\n  ops pipe diff shop shop.sql >/dev/null || ops pipe program set shop shop.sql')
    .action((name: string, file: string) => runWith(f, runF, { name, file }));
}

export async function runPipeDiff(opts: PipeDiffOptions, ctx: Context): Promise<void> {
  const { name, file } = opts;
  let local: string;
  if (file === '-') local = (await readProgram(ctx, '-')).source;
  else {
    try {
      local = await readFile(file, 'utf8');
    } catch (err) {
      throw new OpsError(cannotRead(file, err));
    }
  }
  const stored = (await getPipeline(ctx, client(ctx), name)).program.code ?? '';
  const same = stored === local;
  if (ctx.json) await ctx.out.writeJson({ name, file, same });
  else if (!same) {
    const { createTwoFilesPatch } = await import('diff'); // loaded only when there is a diff to print
    await ctx.out.write(createTwoFilesPatch(`${name} (stored)`, file, stored, local));
  }
  if (!same) throw new OpsError('', ExitCode.failure);
}

export interface PipeCopyOptions {
  name: string;
  newName: string;
  description?: string;
  wait?: boolean;
}

export function newCmdPipeCopy(f: Factory, runF: RunFunction<PipeCopyOptions> = runPipeCopy): Command {
  return new Command('copy')
    .arguments('<name> <new-name>')
    .description("Copy a pipeline's definition (program, description, runtime and program config; not its state) to a new pipeline")
    .option('--description <text>', 'description of the copy (default: the original one)')
    .option('--no-wait', 'return at once, without waiting for compilation')
    .addHelpText('after', '\nExample:\n  ops pipe copy shop shop-test && ops pipe start shop-test')
    .action((name: string, newName: string, flags: Omit<PipeCopyOptions, 'name' | 'newName'>) => runWith(f, runF, { ...flags, name, newName }));
}

export async function runPipeCopy(opts: PipeCopyOptions, ctx: Context): Promise<void> {
  const { name, newName } = opts;
  const pipes = client(ctx);
  const from = await getPipeline(ctx, pipes, name);
  if (await pipes.find(newName)) throw new OpsError(`pipeline "${sanitize(newName)}" already exists`, ExitCode.failure, `Pick another name, or delete it first: ops pipe delete ${newName}`);
  const source = from.program.code ?? '';
  let copy: Pipeline;
  try {
    // `existing` lends the copy its runtime and program config (put keeps them)
    copy = (await pipes.put({ name: newName, description: opts.description ?? from.description, programCode: source }, from)).pipeline;
  } catch (err) {
    explain(err, newName);
  }
  ctx.out.info(`copied ${sanitize(name)} to ${sanitize(newName)}`);
  if (opts.wait !== false) copy = await waitForProgram(ctx, pipes, copy, `<${newName}>`, source);
  if (ctx.json) await ctx.out.writeJson(copy.raw);
}
