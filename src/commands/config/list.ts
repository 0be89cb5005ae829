/** `ops config list`: every setting of the active profile and where it comes from (secrets masked). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { SETTINGS, maskSecret } from '../../core/settings.js';

export interface SettingRow {
  key: string;
  value: string | null;
  source: string;
  secret: boolean;
}

export function settingRows(ctx: Context): SettingRow[] {
  return SETTINGS.map((def) => {
    const resolved = ctx.setting(def.key);
    const value = resolved.value === undefined ? null : def.secret ? maskSecret(resolved.value) : resolved.value;
    return { key: def.key, value, source: resolved.source, secret: def.secret };
  });
}

/** No options: the settings of the active profile. */
export type ConfigListOptions = Record<string, never>;

export function newCmdConfigList(f: Factory, runF: RunFunction<ConfigListOptions> = runConfigList): Command {
  return new Command('list')
    .alias('ls')
    .description('Show every setting of the active profile, where it comes from (secrets masked)')
    .addHelpText('after', '\nExamples:\n  ops config list\n  ops config list --profile work --json')
    .action(() => runWith(f, runF, {}));
}

export async function runConfigList(opts: ConfigListOptions, ctx: Context): Promise<void> {
  const rows = settingRows(ctx);
  if (!ctx.json && ctx.io.stdoutIsTTY) ctx.out.info(`profile: ${ctx.profile}`);
  await ctx.out.list(
    rows,
    [
      { header: 'key', key: 'key' },
      { header: 'value', get: (r) => r.value ?? '', style: (t, r, c) => (r.value === null ? c.dim('(unset)') : t) },
      { header: 'source', key: 'source', style: (t, _r, c) => c.dim(t) },
    ],
    { profile: ctx.profile, settings: rows },
  );
}
