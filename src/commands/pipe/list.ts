/** `ops pipe list`, `ops pipe status NAME`, `ops pipe programs`. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import type { Column } from '../../core/output.js';
import { sanitize } from '../../core/sanitize.js';
import { compileFailed, isStopped, type Pipeline, type ProgramSummary } from '../../clients/pipelines.js';
import { ago, renderSqlMessages } from './render.js';
import { client, getPipeline } from './shared.js';

function deploymentStyle(text: string, p: Pipeline, c: import('chalk').ChalkInstance): string {
  if (p.deployment.error || p.deployment.status === 'Failed') return c.red(text);
  if (p.deployment.status === 'Running') return c.green(text);
  if (isStopped(p.deployment.status)) return c.dim(text);
  return c.yellow(text);
}

function programStyle(text: string, status: string, c: import('chalk').ChalkInstance): string {
  if (status === 'Success') return c.green(text);
  if (status === 'SqlError' || status === 'RustError' || status === 'SystemError') return c.red(text);
  return c.yellow(text);
}

/** No options: every pipeline of the server. */
export type PipeListOptions = Record<string, never>;

export function newCmdPipeList(f: Factory, runF: RunFunction<PipeListOptions> = runPipeList): Command {
  return new Command('list')
    .alias('ls')
    .description('List the pipelines with their program and deployment state')
    .addHelpText('after', "\nExamples:\n  ops pipe list\n  ops pipe list --json | jq -r '.[].name'")
    .action(() => runWith(f, runF, {}));
}

export async function runPipeList(opts: PipeListOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  const list = await pipes.list();
  const tty = ctx.out.format === 'table';
  const columns: Column<Pipeline>[] = [
    { header: 'name', get: (p) => p.name },
    { header: 'program', get: (p) => p.program.status, style: (t, p, c) => programStyle(t, p.program.status, c) },
    { header: 'deployment', get: (p) => p.deployment.status, style: (t, p, c) => deploymentStyle(t, p, c) },
    { header: 'since', get: (p) => (tty ? ago(p.deployment.since) : p.deployment.since) },
    { header: 'description', get: (p) => p.description, shrink: true },
  ];
  if (list.length === 0 && tty) ctx.out.info('no pipelines (create one with: ops pipe create NAME FILE.sql)');
  await ctx.out.list(
    list,
    columns,
    list.map((p) => p.raw),
  );
}

export interface PipeStatusOptions {
  name: string;
}

export function newCmdPipeStatus(f: Factory, runF: RunFunction<PipeStatusOptions> = runPipeStatus): Command {
  return new Command('status')
    .arguments('<name>')
    .description('Program and deployment state of a pipeline, its errors, and since when')
    .addHelpText('after', '\nExamples:\n  ops pipe status shop\n  ops pipe status shop --json | jq .deployment_status')
    .action((name: string) => runWith(f, runF, { name }));
}

export async function runPipeStatus(opts: PipeStatusOptions, ctx: Context): Promise<void> {
  const { name } = opts;
  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  if (ctx.json) return ctx.out.writeJson(p.raw);
  const tty = ctx.out.format === 'table';
  const when = (iso: string | undefined) => (iso ? (tty ? `since ${iso} (${ago(iso)})` : iso) : '');
  const e = p.deployment.error;
  const fields: Column<Pipeline>[] = [
    { header: 'name', get: () => p.name },
    { header: 'description', get: () => p.description },
    { header: 'program', get: () => p.program.status, style: (t, _p, c) => programStyle(t, p.program.status, c) },
    { header: 'program version', get: () => p.program.version ?? '' },
    { header: 'program since', get: () => when(p.program.since) },
    {
      header: 'deployment',
      get: () => `${p.deployment.status}${p.deployment.desired && p.deployment.desired !== p.deployment.status ? ` (going to ${p.deployment.desired})` : ''}`,
      style: (t, _p, c) => deploymentStyle(t, p, c),
    },
    { header: 'deployment since', get: () => when(p.deployment.since) },
    { header: 'error', get: () => (e ? `${e.message}${e.error_code ? ` (${e.error_code})` : ''}` : ''), style: (t, _p, c) => c.red(t) },
    { header: 'tables', get: () => p.inputs.map((r) => r.name).join(', ') },
    { header: 'views', get: () => p.outputs.map((r) => r.name).join(', ') },
    { header: 'api', get: () => (p.generation === 'current' ? 'current Feldera' : 'v0.24-era') },
  ];
  await ctx.out.item(p, fields);
  if (compileFailed(p.program.status)) {
    const text = p.program.status === 'SqlError' ? renderSqlMessages(p.program.messages, p.name, p.program.code ?? '') : sanitize(p.program.errorText ?? '', { keepNewlines: true });
    if (text) ctx.io.stderr.write(text + '\n');
  }
}

/** No options: every program of the server. */
export type PipeProgramsOptions = Record<string, never>;

export function newCmdPipePrograms(f: Factory, runF: RunFunction<PipeProgramsOptions> = runPipePrograms): Command {
  return new Command('programs')
    .description('List the programs (GET /v0/programs, or derived from the pipelines on servers without it)')
    .addHelpText('after', '\nExample:\n  ops pipe programs')
    .action(() => runWith(f, runF, {}));
}

export async function runPipePrograms(opts: PipeProgramsOptions, ctx: Context): Promise<void> {
  const pipes = client(ctx);
  const { programs, raw } = await pipes.programs();
  const columns: Column<ProgramSummary>[] = [
    { header: 'name', key: 'name' },
    { header: 'version', get: (p) => p.version ?? '' },
    { header: 'status', get: (p) => p.status, style: (t, p, c) => programStyle(t, p.status, c) },
    { header: 'description', get: (p) => p.description ?? '', shrink: true },
  ];
  await ctx.out.list(programs, columns, raw);
}
