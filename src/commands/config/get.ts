import type { Context } from '../../context.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { SETTINGS, maskSecret, settingDef } from '../../core/settings.js';

export async function configGet(ctx: Context, key: string, opts: { showSecret?: boolean }): Promise<void> {
  const def = settingDef(key);
  if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  const resolved = ctx.setting(key);
  if (resolved.value === undefined) throw new OpsError(`${key} is not set in profile "${ctx.profile}"`);
  const value = def.secret && !opts.showSecret ? maskSecret(resolved.value) : resolved.value;
  if (ctx.json) await ctx.out.writeJson({ key, value, source: resolved.source, profile: ctx.profile });
  else await ctx.out.write(value + '\n');
}
