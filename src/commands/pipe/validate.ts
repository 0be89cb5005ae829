/**
 * `ops pipe validate [FILE|-]` (fda's `validate-program`): compile a SQL program on the server without creating
 * a pipeline (today's `POST /v0/validate_program`). Valid: a message on stderr, exit 0; SQL errors:
 * FILE:LINE:COL with the line and a caret, exit 1; warnings are printed either way. --json: the server's answer.
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { isMissingEndpoint, type ValidationResult } from '../../clients/pipelines.js';
import { readProgram } from './create.js';
import { renderSqlMessages } from './render.js';
import { client } from './shared.js';

export interface PipeValidateOptions {
  /** the SQL program; "-" or undefined reads stdin */
  file?: string;
}

export function newCmdPipeValidate(f: Factory, runF: RunFunction<PipeValidateOptions> = runPipeValidate): Command {
  return new Command('validate')
    .arguments('[file]')
    .description('Compile a SQL program on the server without creating a pipeline; exit 1 with its errors')
    .addHelpText('after', '\nExamples:\n  ops pipe validate my.sql\n  cat my.sql | ops pipe validate --json | jq .SqlError')
    .action((file: string | undefined) => runWith(f, runF, { file }));
}

export async function runPipeValidate(opts: PipeValidateOptions, ctx: Context): Promise<void> {
  const { source, label } = await readProgram(ctx, opts.file);
  if (source.trim() === '') throw new UsageError(`the SQL program in ${label} is empty`);
  let result: ValidationResult;
  try {
    result = await client(ctx).validateProgram(source);
  } catch (err) {
    if (isMissingEndpoint(err))
      throw new OpsError('this pipeline service does not offer program validation', ExitCode.failure, "The v0.24-era Feldera API had none; today's Feldera and `ops serve` do.");
    throw err;
  }
  if (ctx.json) await ctx.out.writeJson(result.raw);
  if (result.outcome === 'system-error') throw new OpsError(`the program could not be validated: ${sanitize(result.error, { keepNewlines: true })}`);
  const messages = result.outcome === 'sql-error' ? result.messages : [];
  const errors = messages.filter((m) => !m.warning);
  const warnings = messages.filter((m) => m.warning);
  if (warnings.length > 0) ctx.io.stderr.write(renderSqlMessages(warnings, label, source) + '\n');
  if (result.outcome === 'valid') return ctx.out.success(`${sanitize(label)}: valid`);
  ctx.io.stderr.write((renderSqlMessages(errors, label, source) || 'the SQL program has errors (the server gave no details)') + '\n');
  throw new OpsError(`${errors.length} error${errors.length === 1 ? '' : 's'} in ${sanitize(label)}`, ExitCode.failure);
}
