/** `ops hook dashboard`: print (or open) the delivery dashboard link of the notification service. */
import type { Context } from '../../context.js';
import { AuthError } from '../../core/errors.js';

export async function hookDashboard(ctx: Context): Promise<string> {
  const base = ctx.setting('notify.url').value!.replace(/\/+$/, '');
  const key = ctx.setting('notify.api-key').value;
  if (!key) throw new AuthError('no notification API key in this profile', 'Run `ops serve` (it writes the "local" profile) or `ops auth login notify`.');
  const url = `${base}/dashboard?key=${encodeURIComponent(key)}`;
  if (ctx.json) await ctx.out.writeJson({ url });
  else await ctx.out.write(url + '\n');
  if (!ctx.json) ctx.out.info('The link carries the API key: open it in your browser, do not share it.');
  return url;
}
