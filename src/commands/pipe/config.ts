/**
 * `ops pipe config get NAME [KEY]` and `ops pipe config set NAME KEY VALUE`: a pipeline's runtime_config (fda's
 * `set-config`). KEY is a dotted path (`workers`, `resources.memory_mb_max`); VALUE is read as JSON when it is
 * JSON (`4`, `true`, `null`, `{"a":1}`), else as a string. Setting PATCHes the whole runtime_config with the one
 * key changed; the server checks it (and refuses while the pipeline runs).
 */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { addVerbs, runWith, type Factory, type RunFunction } from '../factory.js';
import { ExitCode, OpsError, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { isStopped } from '../../clients/pipelines.js';
import { client, explain, getPipeline } from './shared.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function pathOf(key: string): string[] {
  const parts = key.split('.');
  if (parts.some((p) => p === '')) throw new UsageError(`"${key}" is not a KEY: use names separated by dots, e.g. resources.memory_mb_max`);
  return parts;
}

/** The value at a dotted path, or undefined. */
export function valueAt(config: Json, key: string): unknown {
  let at: unknown = config;
  for (const part of pathOf(key)) {
    if (!isObject(at)) return undefined;
    at = at[part];
  }
  return at;
}

/** A copy of `config` with the value at the dotted path replaced (objects made on the way). */
export function withValue(config: Json, key: string, value: unknown): Json {
  const [head, ...rest] = pathOf(key);
  const inner = config[head!];
  return { ...config, [head!]: rest.length === 0 ? value : withValue(isObject(inner) ? inner : {}, rest.join('.'), value) };
}

/** VALUE as JSON when it is JSON, else the string itself. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface PipeConfigGetOptions {
  name: string;
  key?: string;
}

export interface PipeConfigSetOptions {
  name: string;
  key: string;
  value: string;
}

/** `ops pipe config`: the group and its verbs. */
export function newCmdPipeConfig(f: Factory): Command {
  const cmd = new Command('config')
    .description("Read or change a pipeline's runtime_config (workers, resources, storage, ...)")
    .addHelpText('after', '\nExamples:\n  ops pipe config get shop\n  ops pipe config set shop workers 4');
  return addVerbs(cmd, newCmdPipeConfigGet(f), newCmdPipeConfigSet(f));
}

export function newCmdPipeConfigGet(f: Factory, runF: RunFunction<PipeConfigGetOptions> = runPipeConfigGet): Command {
  return new Command('get')
    .arguments('<name> [key]')
    .description('Print the runtime_config as JSON, or the value of one KEY (a dotted path)')
    .addHelpText('after', '\nExamples:\n  ops pipe config get shop\n  ops pipe config get shop resources.memory_mb_max')
    .action((name: string, key: string | undefined) => runWith(f, runF, { name, key }));
}

export function newCmdPipeConfigSet(f: Factory, runF: RunFunction<PipeConfigSetOptions> = runPipeConfigSet): Command {
  return new Command('set')
    .arguments('<name> <key> <value>')
    .description('Set one KEY of the runtime_config of a stopped pipeline (VALUE: JSON, else a string)')
    .addHelpText('after', '\nExamples:\n  ops pipe config set shop workers 4\n  ops pipe config set shop resources.memory_mb_max 2048')
    .action((name: string, key: string, value: string) => runWith(f, runF, { name, key, value }));
}

export async function runPipeConfigGet(opts: PipeConfigGetOptions, ctx: Context): Promise<void> {
  const p = await getPipeline(ctx, client(ctx), opts.name);
  const config = (isObject(p.raw.runtime_config) ? p.raw.runtime_config : {}) as Json;
  if (opts.key === undefined) return ctx.out.writeJson(config);
  const value = valueAt(config, opts.key);
  if (value === undefined) throw new OpsError(`the runtime_config of ${sanitize(opts.name)} has no "${sanitize(opts.key)}"`, ExitCode.failure, `See its keys: ops pipe config get ${opts.name}`);
  await ctx.out.writeJson(value);
}

export async function runPipeConfigSet(opts: PipeConfigSetOptions, ctx: Context): Promise<void> {
  const { name, key } = opts;
  const pipes = client(ctx);
  const p = await getPipeline(ctx, pipes, name);
  const config = (isObject(p.raw.runtime_config) ? p.raw.runtime_config : {}) as Json;
  const updated = withValue(config, key, parseValue(opts.value));
  let after;
  try {
    after = await pipes.patch(name, { runtime_config: updated });
  } catch (err) {
    explain(err, name);
  }
  ctx.out.success(`${sanitize(name)}: ${sanitize(key)} = ${sanitize(JSON.stringify(valueAt(updated, key)))}`);
  if (!isStopped(after.deployment.status)) ctx.out.warn(`${sanitize(name)} is ${after.deployment.status}: the new runtime_config applies from its next start (ops pipe restart ${name})`);
  if (ctx.json) await ctx.out.writeJson(after.raw.runtime_config ?? updated);
}
