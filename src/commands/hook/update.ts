/** `ops hook update ID`: change a registration's URL, event types, secret or description. */
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import type { Webhook, WebhookInput } from '../../clients/notify.js';
import { notifyClient, parseUrlFlag, readSecretFile, splitList } from './shared.js';
import { WEBHOOK_FIELDS } from './list.js';

export interface UpdateFlags {
  url?: string;
  events?: string[];
  secretFile?: string;
  description?: string;
}

export async function hookUpdate(ctx: Context, id: string, flags: UpdateFlags): Promise<Webhook> {
  const patch: Partial<WebhookInput> = {};
  if (flags.url !== undefined) patch.url = parseUrlFlag(flags.url, '--url');
  if (flags.events !== undefined) {
    const events = splitList(flags.events);
    if (events.length === 0) throw new UsageError('--events needs at least one event type (or "*")');
    patch.events = events;
  }
  if (flags.secretFile !== undefined) patch.secret = readSecretFile(flags.secretFile);
  if (flags.description !== undefined) patch.description = flags.description === '' ? null : flags.description;
  if (Object.keys(patch).length === 0) throw new UsageError('nothing to change: give --url, --events, --secret-file or --description');
  const w = await notifyClient(ctx).updateWebhook(id, patch);
  await ctx.out.item(w, WEBHOOK_FIELDS);
  ctx.out.success(`updated ${w.id}`);
  return w;
}
