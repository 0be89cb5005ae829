/** `ops hook rm ID...`: delete registrations (asks first; --yes in scripts). */
import type { Context } from '../../context.js';
import { notifyClient } from './shared.js';

export async function hookRm(ctx: Context, ids: string[]): Promise<void> {
  const client = notifyClient(ctx);
  const what = ids.length === 1 ? `webhook ${ids[0]}` : `${ids.length} webhooks (${ids.join(', ')})`;
  const ok = await ctx.prompter.confirm(`Delete ${what}? Its pending deliveries end as failed.`, { action: `delete ${what}` });
  if (!ok) {
    ctx.out.info('nothing deleted');
    return;
  }
  for (const id of ids) {
    await client.deleteWebhook(id);
    ctx.out.success(`deleted ${id}`);
  }
  if (ctx.json) await ctx.out.writeJson({ deleted: ids });
}
