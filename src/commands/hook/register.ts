/** `ops hook register`: register a receiver URL for some event types with the notification service. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { UsageError } from '../../core/errors.js';
import type { Webhook } from '../../clients/notify.js';
import { collect, findSecret, notifyClient, parseUrlFlag, splitList } from './shared.js';
import { WEBHOOK_FIELDS } from './list.js';

export interface HookRegisterOptions {
  /** the receiver URL as the argument (or --url) */
  urlArg?: string;
  url?: string;
  events?: string[];
  secretFile?: string;
  description?: string;
}

export function newCmdHookRegister(f: Factory, runF: RunFunction<HookRegisterOptions> = runHookRegister): Command {
  return new Command('register')
    .arguments('[url]')
    .description('Register a receiver URL for event types with the notification service')
    .option('--url <url>', 'the receiver URL (or as the argument)')
    .option('--events <types>', 'event types, comma list (repeatable), or "*" for all', collect)
    .option('--secret-file <file>', 'signing secret (else OPS_HOOK_SECRET / the profile; else the service generates one)')
    .option('--description <text>', 'a note for yourself')
    .addHelpText(
      'after',
      '\nExamples:\n  ops hook register http://127.0.0.1:8701/ --events user.created,user.deleted\n  ops hook register --url https://example.com/hooks --events "*" --secret-file secret.txt',
    )
    .action((urlArg: string | undefined, flags: Omit<HookRegisterOptions, 'urlArg'>) => runWith(f, runF, { ...flags, urlArg }));
}

export async function runHookRegister(flags: HookRegisterOptions, ctx: Context): Promise<Webhook> {
  const { urlArg } = flags;
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
