/** `ops hook register`: register a receiver URL for some event types with the notification service. */
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import type { Webhook } from '../../clients/notify.js';
import { findSecret, notifyClient, parseUrlFlag, splitList } from './shared.js';
import { WEBHOOK_FIELDS } from './list.js';

export interface RegisterFlags {
  url?: string;
  events?: string[];
  secretFile?: string;
  description?: string;
}

export async function hookRegister(ctx: Context, urlArg: string | undefined, flags: RegisterFlags): Promise<Webhook> {
  const raw = flags.url ?? urlArg;
  if (!raw) throw new UsageError('the receiver URL is required', 'Example: ops hook register http://127.0.0.1:8701/ --events user.created,payment.failed');
  if (flags.url && urlArg && flags.url !== urlArg) throw new UsageError('give the URL once (argument or --url)');
  const url = parseUrlFlag(raw, 'the URL');
  const events = splitList(flags.events);
  if (events.length === 0) throw new UsageError('--events is required: a comma list of event types, or "*" for all', 'See `ops hook trigger --list` for the types.');
  const secret = findSecret(ctx, flags.secretFile);
  const w = await notifyClient(ctx).createWebhook({
    url,
    events,
    ...(secret ? { secret: secret.value } : {}),
    ...(flags.description !== undefined ? { description: flags.description } : {}),
  });
  const generated = !secret;
  const fields = generated ? [...WEBHOOK_FIELDS, { header: 'secret', key: 'secret' }] : WEBHOOK_FIELDS;
  await ctx.out.item(w, fields, generated ? w : { ...w, secret: undefined });
  if (generated) ctx.out.info('The service generated the signing secret shown above; give it to the receiver (e.g. OPS_HOOK_SECRET).');
  else ctx.out.success(`registered ${w.id}, signed with the secret from ${secret.origin}`);
  return w;
}
