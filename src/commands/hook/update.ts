/** `ops hook update ID`: change a registration's URL, event types, secret or description. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { UsageError } from '../../core/errors.js';
import type { Webhook, WebhookInput } from '../../clients/notify.js';
import { collect, notifyClient, parseUrlFlag, readSecretFile, splitList } from './shared.js';
import { WEBHOOK_FIELDS } from './list.js';

export interface HookUpdateOptions {
  /** the webhook id (wh_...) */
  id: string;
  url?: string;
  events?: string[];
  secretFile?: string;
  description?: string;
}

export function newCmdHookUpdate(f: Factory, runF: RunFunction<HookUpdateOptions> = runHookUpdate): Command {
  return new Command('update')
    .arguments('<id>')
    .description('Change a registration: URL, event types, secret or description')
    .option('--url <url>', 'the new receiver URL')
    .option('--events <types>', 'the new event types, comma list (repeatable), or "*"', collect)
    .option('--secret-file <file>', 'the new signing secret')
    .option('--description <text>', 'the new note ("" clears it)')
    .addHelpText('after', '\nExamples:\n  ops hook update wh_0123abcd --events "*"\n  ops hook update wh_0123abcd --url http://127.0.0.1:9000/hooks --secret-file new-secret.txt')
    .action((id: string, flags: Omit<HookUpdateOptions, 'id'>) => runWith(f, runF, { ...flags, id }));
}

export async function runHookUpdate(flags: HookUpdateOptions, ctx: Context): Promise<Webhook> {
  const { id } = flags;
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
