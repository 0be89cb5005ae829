/** `ops hook rm ID...`: delete registrations (asks first; --yes in scripts). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { notifyClient } from './shared.js';

export interface HookRmOptions {
  /** webhook ids (wh_...) */
  ids: string[];
}

export function newCmdHookRm(f: Factory, runF: RunFunction<HookRmOptions> = runHookRm): Command {
  return new Command('rm')
    .arguments('<id...>')
    .description('Delete webhook registrations (asks first; --yes in scripts)')
    .addHelpText('after', '\nExamples:\n  ops hook rm wh_0123abcd\n  ops hook rm wh_0123abcd wh_4567ef01 --yes')
    .action((ids: string[]) => runWith(f, runF, { ids }));
}

export async function runHookRm(opts: HookRmOptions, ctx: Context): Promise<void> {
  const { ids } = opts;
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
