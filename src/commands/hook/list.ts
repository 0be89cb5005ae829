/** `ops hook list`: the registered webhooks. */
import type { Context } from '../../context.js';
import type { Column } from '../../core/output.js';
import type { Webhook } from '../../clients/notify.js';
import { notifyClient } from './shared.js';

export const WEBHOOK_FIELDS: Column<Webhook>[] = [
  { header: 'id', key: 'id' },
  { header: 'url', key: 'url', shrink: true },
  { header: 'events', key: 'events' },
  {
    header: 'status',
    // older services (and other implementations) may not send it
    get: (w) => w.status ?? '',
    style: (t, _w, c) => (t === 'failed' ? c.red(t) : t),
  },
  { header: 'description', key: 'description', shrink: true },
  { header: 'created', key: 'createdAt' },
];

export async function hookList(ctx: Context): Promise<Webhook[]> {
  const hooks = await notifyClient(ctx).listWebhooks();
  await ctx.out.list(hooks, WEBHOOK_FIELDS);
  if (hooks.length === 0 && !ctx.json) ctx.out.info('no webhooks registered (ops hook register URL --events ...)');
  return hooks;
}
