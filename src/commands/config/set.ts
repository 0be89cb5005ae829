import type { Context } from '../../context.js';
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

export async function configSet(ctx: Context, key: string, value: string | undefined): Promise<void> {
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
  ctx.store.set(ctx.profile, key, clean);
  ctx.out.success(`${key} set in profile "${ctx.profile}"`);
}

export async function configUnset(ctx: Context, key: string): Promise<void> {
  known(key);
  const removed = ctx.store.unset(ctx.profile, key);
  if (removed) ctx.out.success(`${key} removed from profile "${ctx.profile}"`);
  else ctx.out.info(`${key} was not set in profile "${ctx.profile}"`);
}
