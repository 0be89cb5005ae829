/** `ops pipe create NAME [FILE|-]`: PUT the program, wait for compilation, render SQL errors with carets. */
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { readStdin } from '../../core/prompts.js';
import { sanitize } from '../../core/sanitize.js';
import { compileFailed, phaseText } from '../../clients/pipelines.js';
import { renderSqlMessages } from './render.js';
import { DEFAULT_WAIT, assertCompiled, client, explain, parsePositiveInt, progressFor, waitCompiled, waitLimitMs } from './shared.js';
import { startAndWait } from './lifecycle.js';

export interface CreateOptions {
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
      throw new OpsError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  if (ctx.io.stdinIsTTY) throw new UsageError('no SQL program given', 'Give a FILE.sql, or pipe the SQL on stdin: cat demo.sql | ops pipe create NAME');
  return { source: await readStdin(ctx.io), label: '<stdin>' };
}

export async function pipeCreate(ctx: Context, name: string, file: string | undefined, opts: CreateOptions): Promise<void> {
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
