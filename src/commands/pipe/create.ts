/** `ops pipe create NAME [FILE|-]`: PUT the program, wait for compilation, render SQL errors with carets. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { readStdin } from '../../core/prompts.js';
import { sanitize } from '../../core/sanitize.js';
import { compileFailed, phaseText } from '../../clients/pipelines.js';
import { renderSqlMessages } from './render.js';
import { DEFAULT_WAIT, assertCompiled, client, explain, parsePositiveInt, progressFor, waitCompiled, waitLimitMs } from './shared.js';
import { startAndWait } from './lifecycle.js';
import { cannotRead } from '../../core/file-errors.js';

export interface PipeCreateOptions {
  name: string;
  /** the SQL program; "-" or undefined reads stdin */
  file?: string;
  description?: string;
  workers?: string;
  replace?: boolean;
  start?: boolean;
  wait?: boolean;
}

export async function readProgram(ctx: Context, file: string | undefined): Promise<{ source: string; label: string }> {
  if (file && file !== '-') {
    try {
      return { source: await readFile(file, 'utf8'), label: file };
    } catch (err) {
      throw new OpsError(cannotRead(file, err));
    }
  }
  if (ctx.io.stdinIsTTY) throw new UsageError('no SQL program given', 'Give a FILE.sql, or pipe the SQL on stdin: cat demo.sql | ops pipe create NAME');
  return { source: await readStdin(ctx.io), label: '<stdin>' };
}

export function newCmdPipeCreate(f: Factory, runF: RunFunction<PipeCreateOptions> = runPipeCreate): Command {
  return new Command('create')
    .arguments('<name> [file]')
    .description('Create or replace a pipeline from a SQL file (or stdin) and wait for it to compile')
    .option('--description <text>', 'description of the pipeline')
    .option('--workers <n>', 'number of worker threads')
    .option('--replace', 'replace the program of an existing pipeline')
    .option('--start', 'start the pipeline once it compiled')
    .option('--no-wait', 'return at once, without waiting for compilation')
    .addHelpText(
      'after',
      '\nOn SQL errors each is printed as FILE:LINE:COL: message, with the line and a caret; exit 1.\nExamples:\n  ops pipe create mine my.sql\n  cat my.sql | ops pipe create mine --replace --start\n  ops --timeout 120 pipe create mine my.sql --workers 4',
    )
    .action((name: string, file: string | undefined, flags: Omit<PipeCreateOptions, 'name' | 'file'>) => runWith(f, runF, { ...flags, name, file }));
}

export async function runPipeCreate(opts: PipeCreateOptions, ctx: Context): Promise<void> {
  const { name, file } = opts;
  const workers = opts.workers !== undefined ? parsePositiveInt(opts.workers, '--workers') : undefined;
  const { source, label } = await readProgram(ctx, file);
  if (source.trim() === '') throw new UsageError(`the SQL program in ${label} is empty`);
  const pipes = client(ctx);
  const existing = await pipes.find(name);
  if (existing && !opts.replace) {
    throw new OpsError(`pipeline "${sanitize(name)}" already exists`, ExitCode.failure, `Replace its program with: ops pipe create ${name} ${file ?? '-'} --replace`);
  }
  let put;
  try {
    put = await pipes.put({ name, description: opts.description, programCode: source, workers }, existing);
  } catch (err) {
    explain(err, name);
  }
  const version = put.pipeline.program.version;
  ctx.out.info(`${put.created ? 'created' : 'updated'} pipeline ${sanitize(name)}${version !== undefined ? ` (program version ${version})` : ''}`);
  if (opts.wait === false) {
    if (ctx.json) await ctx.out.writeJson(put.pipeline.raw);
    return;
  }
  const deadline = Date.now() + waitLimitMs(ctx, DEFAULT_WAIT.compile);
  const progress = await progressFor(ctx, `${name}: ${phaseText(put.pipeline.program.status)}`);
  let p;
  try {
    p = await waitCompiled(ctx, pipes, name, progress, deadline);
  } catch (err) {
    progress.stop();
    throw err;
  }
  const warnings = p.program.messages.filter((m) => m.warning);
  if (compileFailed(p.program.status)) {
    progress.fail(`${name}: ${phaseText(p.program.status)}`);
    if (ctx.json) await ctx.out.writeJson(p.raw);
    if (warnings.length > 0) ctx.io.stderr.write(renderSqlMessages(warnings, label, source) + '\n');
    assertCompiled(ctx, p, label, source);
  }
  progress.succeed(`${name}: compiled`);
  if (warnings.length > 0) ctx.io.stderr.write(renderSqlMessages(warnings, label, source) + '\n');
  if (opts.start) p = await startAndWait(ctx, pipes, name, { wait: true });
  if (ctx.json) await ctx.out.writeJson(p.raw);
}
