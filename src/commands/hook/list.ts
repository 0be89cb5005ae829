/** `ops hook list`: the registered webhooks. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
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

/** No options: every registration of the service. */
export type HookListOptions = Record<string, never>;

export function newCmdHookList(f: Factory, runF: RunFunction<HookListOptions> = runHookList): Command {
  return new Command('list')
    .alias('ls')
    .description('List the registered webhooks')
    .addHelpText('after', '\nExamples:\n  ops hook list\n  ops hook list --json | jq -r ".[].id"')
    .action(() => runWith(f, runF, {}));
}

export async function runHookList(opts: HookListOptions, ctx: Context): Promise<Webhook[]> {
  const hooks = await notifyClient(ctx).listWebhooks();
  await ctx.out.list(hooks, WEBHOOK_FIELDS);
  if (hooks.length === 0 && !ctx.json) ctx.out.info('no webhooks registered (ops hook register URL --events ...)');
  return hooks;
}
