/** `ops hook dashboard`: print (or open) the delivery dashboard link of the notification service. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, AuthError } from '../../core/errors.js';
import { notifyClient } from './shared.js';

/** No options: the dashboard of the active profile's service. */
export type HookDashboardOptions = Record<string, never>;

export function newCmdHookDashboard(f: Factory, runF: RunFunction<HookDashboardOptions> = runHookDashboard): Command {
  return new Command('dashboard')
    .description('Print a one-time link to the delivery dashboard of the notification service (good for one use within a minute)')
    .addHelpText('after', '\nExample:\n  xdg-open "$(ops hook dashboard)"')
    .action(() => runWith(f, runF, {}));
}

export async function runHookDashboard(opts: HookDashboardOptions, ctx: Context): Promise<string> {
  const base = ctx.setting('notify.url').value!.replace(/\/+$/, '');
  const key = ctx.setting('notify.api-key').value;
  if (!key) throw new AuthError('no notification API key in this profile', 'Run `ops serve` (it writes the "local" profile) or `ops auth login notify`.');
  let url: string;
  let oneTime = true;
  try {
    // a short-lived code exchanged for the session cookie: the long-lived key never goes into a URL
    const link = await notifyClient(ctx).dashboardLink();
    url = `${base}/dashboard?code=${encodeURIComponent(link.code)}`;
  } catch (err) {
    // a service without one-time links (an older ops serve): the link must carry the key itself
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 405)) throw err;
    url = `${base}/dashboard?key=${encodeURIComponent(key)}`;
    oneTime = false;
  }
  if (ctx.json) await ctx.out.writeJson({ url, one_time: oneTime });
  else await ctx.out.write(url + '\n');
  if (!ctx.json)
    ctx.out.info(
      oneTime ? 'The link works once, within a minute: open it in your browser now.' : 'This service has no one-time links: the link carries the API key; open it in your browser, do not share it.',
    );
  return url;
}
