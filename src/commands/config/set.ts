/** `ops config set|unset KEY`: change a setting of the active profile (secret values only from stdin or a prompt). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { UsageError } from '../../core/errors.js';
import { readStdin } from '../../core/prompts.js';
import { SETTINGS, settingDef } from '../../core/settings.js';

function known(key: string) {
  const def = settingDef(key);
  if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  return def;
}

export function validateSettingValue(key: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new UsageError(`${key} cannot be empty`);
  if (key.endsWith('.url')) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new UsageError(`${key} must be a URL such as http://127.0.0.1:8700, not "${trimmed}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${key} must be an http or https URL`);
    return trimmed.replace(/\/+$/, '');
  }
  if (key === 'pipe.api-key' && !trimmed.startsWith('apikey:')) {
    throw new UsageError('pipe.api-key must start with "apikey:"');
  }
  return trimmed;
}

export interface ConfigSetOptions {
  /** the setting, e.g. bm.url */
  key: string;
  /** the value; "-" reads stdin; undefined: a prompt */
  value?: string;
}

export function newCmdConfigSet(f: Factory, runF: RunFunction<ConfigSetOptions> = runConfigSet): Command {
  return new Command('set')
    .description('Set a setting in the active profile (secrets: value from stdin with "-", or a prompt)')
    .argument('<key>', 'the setting, e.g. bm.url')
    .argument('[value]', 'the value; "-" reads it from stdin; omitted: a prompt (secrets: only stdin or a prompt)')
    .addHelpText('after', '\nExamples:\n  ops config set bm.url https://links.example.com\n  printf %s "$TOKEN" | ops config set bm.token -')
    .action((key: string, value: string | undefined) => runWith(f, runF, { key, value }));
}

export async function runConfigSet(opts: ConfigSetOptions, ctx: Context): Promise<void> {
  const { key, value } = opts;
  const def = known(key);
  let raw = value;
  if (def.secret) {
    if (raw !== undefined && raw !== '-') {
      throw new UsageError(`${key} is a secret and is not taken on the command line (it would stay in your shell history)`, `Pipe it in: printf %s "$VALUE" | ops config set ${key} -`);
    }
    raw = raw === '-' || !ctx.prompter.interactive ? await readStdin(ctx.io) : await ctx.prompter.password(`${def.description}:`);
  } else if (raw === undefined || raw === '-') {
    raw = raw === '-' || !ctx.prompter.interactive ? await readStdin(ctx.io) : await ctx.prompter.input(`${def.description}:`, { default: ctx.setting(key).value });
  }
  const clean = validateSettingValue(key, raw);
  await ctx.store.set(ctx.profile, key, clean);
  ctx.out.success(`${key} set in profile "${ctx.profile}"`);
}

export interface ConfigUnsetOptions {
  /** the setting, e.g. pipe.api-key */
  key: string;
}

export function newCmdConfigUnset(f: Factory, runF: RunFunction<ConfigUnsetOptions> = runConfigUnset): Command {
  return new Command('unset')
    .description('Remove a setting from the active profile')
    .argument('<key>', 'the setting, e.g. pipe.api-key')
    .addHelpText('after', '\nExample:\n  ops config unset pipe.api-key')
    .action((key: string) => runWith(f, runF, { key }));
}

export async function runConfigUnset(opts: ConfigUnsetOptions, ctx: Context): Promise<void> {
  const { key } = opts;
  known(key);
  const removed = await ctx.store.unset(ctx.profile, key);
  if (removed) ctx.out.success(`${key} removed from profile "${ctx.profile}"`);
  else ctx.out.info(`${key} was not set in profile "${ctx.profile}"`);
}
