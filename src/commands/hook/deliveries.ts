/** `ops hook deliveries [ID]`: deliveries (failed first) or one delivery with its attempts. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, OpsError, UsageError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import type { Attempt, Delivery, DeliveryStatus } from '../../clients/notify.js';
import { relativeTime } from '../../core/time-text.js';
import { notifyClient } from './shared.js';

export interface HookDeliveriesOptions {
  /** a delivery id (dlv_...): show it with every attempt */
  id?: string;
  status?: string;
  webhook?: string;
  event?: string;
  type?: string;
  limit?: string;
}

const STATUSES: DeliveryStatus[] = ['pending', 'delivered', 'failed'];

const statusStyle = (t: string, _row: unknown, c: import('chalk').ChalkInstance) => (t === 'failed' ? c.red(t) : t === 'delivered' ? c.green(t) : c.yellow(t));

/** Deliveries in a table: on a terminal the next attempt is relative and the event id gives way first. */
export function deliveryColumns(table: boolean): Column<Delivery>[] {
  return [
    { header: 'id', key: 'id' },
    { header: 'status', key: 'status', style: statusStyle },
    { header: 'type', key: 'eventType', shrink: true },
    { header: 'event', key: 'eventId', optional: true },
    { header: table ? 'tries' : 'attempts', key: 'attemptCount' },
    { header: 'last', get: (d) => d.lastStatusCode ?? d.lastError ?? '', shrink: true },
    { header: 'next', get: (d) => (table ? relativeTime(d.nextAttemptAt) : (d.nextAttemptAt ?? '')) },
    { header: 'url', key: 'url', shrink: true },
  ];
}

export const DELIVERY_COLUMNS: Column<Delivery>[] = deliveryColumns(false);

const ATTEMPT_COLUMNS: Column<Attempt>[] = [
  { header: '#', key: 'n' },
  { header: 'started', key: 'startedAt' },
  { header: 'outcome', key: 'outcome' },
  { header: 'status', get: (a) => a.statusCode ?? '' },
  { header: 'ms', get: (a) => (a.durationMs === null ? '' : Math.round(a.durationMs)) },
  { header: 'error', get: (a) => a.error ?? '', shrink: true },
  { header: 'response', get: (a) => a.responseExcerpt ?? '', shrink: true },
];

export function newCmdHookDeliveries(f: Factory, runF: RunFunction<HookDeliveriesOptions> = runHookDeliveries): Command {
  return new Command('deliveries')
    .arguments('[id]')
    .description('Deliveries, failed first (or one delivery with all its attempts)')
    .option('--status <status>', 'pending, delivered or failed')
    .option('--webhook <id>', 'only deliveries to this webhook')
    .option('--event <id>', 'only deliveries of this event')
    .option('--type <type>', 'only deliveries of events of this type')
    .option('--limit <n>', 'at most this many (1-500, default 50)')
    .addHelpText('after', '\nExamples:\n  ops hook deliveries --status failed\n  ops hook deliveries dlv_0123456789abcdef0123 --json')
    .action((id: string | undefined, flags: Omit<HookDeliveriesOptions, 'id'>) => runWith(f, runF, { ...flags, id }));
}

export async function runHookDeliveries(flags: HookDeliveriesOptions, ctx: Context): Promise<void> {
  const { id } = flags;
  const client = notifyClient(ctx);
  if (id) {
    const d = await client.getDelivery(id);
    if (ctx.json) return ctx.out.writeJson(d);
    await ctx.out.item(
      d,
      DELIVERY_COLUMNS.concat([
        { header: 'created', key: 'createdAt' },
        { header: 'webhook', key: 'webhookId' },
      ]),
    );
    if (d.attempts.length) {
      await ctx.out.write('\n');
      await ctx.out.list(d.attempts, ATTEMPT_COLUMNS);
    }
    return;
  }
  if (flags.status !== undefined && !STATUSES.includes(flags.status as DeliveryStatus)) {
    throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, not "${flags.status}"`);
  }
  let limit = 50;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be a whole number from 1 to 500');
  }
  const page = await client.listDeliveries({
    status: flags.status as DeliveryStatus | undefined,
    webhookId: flags.webhook,
    eventId: flags.event,
    type: flags.type,
    limit,
  });
  await ctx.out.list(page.data, deliveryColumns(ctx.out.format === 'table'));
  if (!ctx.json) {
    const c = page.counts;
    ctx.out.info(`${page.data.length} of ${page.total} shown · failed ${c.failed} · pending ${c.pending} · delivered ${c.delivered}`);
  }
}

export interface HookRedeliverOptions {
  /** delivery ids (dlv_...) */
  ids: string[];
}

export function newCmdHookRedeliver(f: Factory, runF: RunFunction<HookRedeliverOptions> = runHookRedeliver): Command {
  return new Command('redeliver')
    .arguments('<id...>')
    .description('Queue deliveries again (a fresh series of attempts)')
    .addHelpText('after', '\nExample:\n  ops hook redeliver dlv_0123456789abcdef0123')
    .action((ids: string[]) => runWith(f, runF, { ids }));
}

export async function runHookRedeliver(opts: HookRedeliverOptions, ctx: Context): Promise<void> {
  const { ids } = opts;
  const client = notifyClient(ctx);
  const out: Delivery[] = [];
  const refused: string[] = [];
  // Every id is tried: one unknown id (or one of a deleted webhook) does not hold back the others.
  for (const id of ids) {
    try {
      out.push(await client.redeliver(id));
    } catch (err) {
      if (ids.length > 1 && err instanceof ApiError && err.status !== 401 && err.status !== 403) refused.push(`${id}: ${err.message}`);
      else throw err;
    }
  }
  await ctx.out.list(out, deliveryColumns(ctx.out.format === 'table'));
  if (out.length) ctx.out.success(`${out.length} deliver${out.length === 1 ? 'y' : 'ies'} queued again`);
  if (refused.length) throw new OpsError(`${refused.length} of ${ids.length} not queued:\n  ${refused.join('\n  ')}`);
}
