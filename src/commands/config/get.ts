/** `ops config get KEY`: one setting of the active profile (secrets masked unless --show-secret). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { OpsError, UsageError } from '../../core/errors.js';
import { SETTINGS, maskSecret, settingDef } from '../../core/settings.js';

export interface ConfigGetOptions {
  /** the setting, e.g. bm.url */
  key: string;
  /** print a secret in full */
  showSecret?: boolean;
}

export function newCmdConfigGet(f: Factory, runF: RunFunction<ConfigGetOptions> = runConfigGet): Command {
  return new Command('get')
    .description('Print one setting (secrets masked unless --show-secret)')
    .argument('<key>', 'the setting, e.g. bm.url (see `ops help config`)')
    .option('--show-secret', 'print a secret in full')
    .addHelpText('after', '\nExamples:\n  ops config get bm.url\n  curl -H "Authorization: Bearer $(ops config get bm.token --show-secret)" ...')
    .action((key: string, flags: Omit<ConfigGetOptions, 'key'>) => runWith(f, runF, { ...flags, key }));
}

export async function runConfigGet(opts: ConfigGetOptions, ctx: Context): Promise<void> {
  const { key } = opts;
  const def = settingDef(key);
  if (!def) throw new UsageError(`unknown setting "${key}"`, `Known settings: ${SETTINGS.map((s) => s.key).join(', ')}`);
  const resolved = ctx.setting(key);
  if (resolved.value === undefined) throw new OpsError(`${key} is not set in profile "${ctx.profile}"`);
  const value = def.secret && !opts.showSecret ? maskSecret(resolved.value) : resolved.value;
  if (ctx.json) await ctx.out.writeJson({ key, value, source: resolved.source, profile: ctx.profile });
  else await ctx.out.write(value + '\n');
}
