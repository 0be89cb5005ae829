/** `ops hook dashboard`: print (or open) the delivery dashboard link of the notification service. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { AuthError } from '../../core/errors.js';

/** No options: the dashboard of the active profile's service. */
export type HookDashboardOptions = Record<string, never>;

export function newCmdHookDashboard(f: Factory, runF: RunFunction<HookDashboardOptions> = runHookDashboard): Command {
  return new Command('dashboard')
    .description('Print the link to the delivery dashboard of the notification service (it carries the API key)')
    .addHelpText('after', '\nExample:\n  xdg-open "$(ops hook dashboard)"')
    .action(() => runWith(f, runF, {}));
}

export async function runHookDashboard(opts: HookDashboardOptions, ctx: Context): Promise<string> {
  const base = ctx.setting('notify.url').value!.replace(/\/+$/, '');
  const key = ctx.setting('notify.api-key').value;
  if (!key) throw new AuthError('no notification API key in this profile', 'Run `ops serve` (it writes the "local" profile) or `ops auth login notify`.');
  const url = `${base}/dashboard?key=${encodeURIComponent(key)}`;
  if (ctx.json) await ctx.out.writeJson({ url });
  else await ctx.out.write(url + '\n');
  if (!ctx.json) ctx.out.info('The link carries the API key: open it in your browser, do not share it.');
  return url;
}
