/**
 * `ops hook replay`: re-send stored events, signed, to a URL (from the receiver's store or from a
 * file of envelopes), reporting each response; or, with --failed, ask the notification service to
 * redeliver its failed deliveries.
 */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, OpsError, UsageError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import type { Delivery } from '../../clients/notify.js';
import { EventStore } from '../../webhooks/event-store.js';
import type { ReplayFilter, ReplayOutcome } from '../../webhooks/replay.js';

/** The replay helpers (signing and sending, node:crypto with them), loaded when a replay runs. */
const replayModule = () => import('../../webhooks/replay.js');
import { defaultStorePath, notifyClient, parseUrlFlag, readInput, requireSecret } from './shared.js';

export interface HookReplayOptions {
  to?: string;
  id?: string;
  since?: string;
  type?: string;
  secretFile?: string;
  from?: string;
  store?: string;
  failed?: boolean;
  dryRun?: boolean;
}

const OUTCOME_COLUMNS: Column<ReplayOutcome>[] = [
  { header: 'id', key: 'id' },
  { header: 'type', key: 'type' },
  { header: 'status', get: (o) => o.statusCode ?? 'error', style: (t, o, c) => (o.ok ? c.green(t) : c.red(t)) },
  { header: 'ms', get: (o) => Math.round(o.durationMs) },
  { header: 'error', get: (o) => o.error ?? (o.ok ? '' : o.responseExcerpt.slice(0, 80)), shrink: true },
];

const DELIVERY_COLUMNS: Column<Delivery>[] = [
  { header: 'delivery', key: 'id' },
  { header: 'event', key: 'eventId' },
  { header: 'type', key: 'eventType' },
  { header: 'url', key: 'url', shrink: true },
  { header: 'status', key: 'status' },
];

async function filterFrom(ctx: Context, flags: HookReplayOptions): Promise<ReplayFilter> {
  const { parseSince } = await replayModule();
  const f: ReplayFilter = {};
  if (flags.id !== undefined) f.id = flags.id;
  if (flags.type !== undefined) f.type = flags.type;
  if (flags.since !== undefined) {
    const t = parseSince(flags.since);
    if (t === null) throw new UsageError(`--since must be an ISO time (2026-01-31T12:00:00Z) or a duration back from now (30m, 2h, 7d), not "${flags.since}"`);
    f.since = t;
  }
  return f;
}

export function newCmdHookReplay(f: Factory, runF: RunFunction<HookReplayOptions> = runHookReplay): Command {
  return new Command('replay')
    .description("Re-send stored events, signed, to a URL; or --failed: redeliver the service's failed deliveries")
    .option('--to <url>', 'where to send the events')
    .option('--id <id>', 'only this event (with --failed: an event or delivery id)')
    .option('--since <time>', 'only events received since an ISO time or a duration back (30m, 2h, 7d)')
    .option('--type <type>', 'only this event type')
    .option('--from <file>', 'read envelopes from a file (JSON array or NDJSON, e.g. saved `ops hook serve --json` output; - for stdin)')
    .option('--store <file>', 'the receiver store to read (default $XDG_STATE_HOME/ops/hook/events.ndjson)')
    .option('--secret-file <file>', 'file holding the secret to sign with (else OPS_HOOK_SECRET or the profile)')
    .option('--failed', 'ask the notification service to redeliver its failed deliveries')
    .option('--dry-run', 'show what would be sent')
    .addHelpText(
      'after',
      "\nEvents keep their ids, so the receiver's de-duplication is exercised. Exit 1 if any was not accepted.\n\nExamples:\n  ops hook replay --to http://127.0.0.1:3000/webhooks --since 1h\n  ops hook replay --to http://127.0.0.1:8701/ --from events.ndjson --type payment.failed\n  ops hook replay --failed",
    )
    .action((flags: HookReplayOptions) => runWith(f, runF, { ...flags }));
}

export async function runHookReplay(flags: HookReplayOptions, ctx: Context): Promise<void> {
  if (flags.failed) return redeliverFailed(ctx, flags);
  if (!flags.to) throw new UsageError('--to URL is required (where to send the events)', "Or --failed to redeliver the notification service's failed deliveries.");
  const to = parseUrlFlag(flags.to, '--to');
  if (flags.from !== undefined && flags.store !== undefined) throw new UsageError('give either --from FILE or --store FILE, not both');
  const filter = await filterFrom(ctx, flags);
  const { filterItems, itemsFromStore, itemsFromText, replay } = await replayModule();

  let items;
  if (flags.from !== undefined) {
    const text = (await readInput(ctx, flags.from)).toString('utf8');
    try {
      items = filterItems(itemsFromText(text), filter);
    } catch (err) {
      throw new UsageError(`cannot read envelopes from ${flags.from === '-' ? 'stdin' : flags.from}: ${(err as Error).message}`);
    }
  } else {
    const path = flags.store ?? defaultStorePath(ctx);
    if (!existsSync(path)) throw new OpsError(`no event store at ${path}`, undefined, 'Run `ops hook serve` first, or give --store FILE or --from FILE.');
    const store = new EventStore(path);
    try {
      items = itemsFromStore(store, filter);
    } finally {
      store.close();
    }
  }
  if (items.length === 0) {
    ctx.out.warn('no stored events match');
    if (ctx.json) await ctx.out.writeJson([]);
    return;
  }
  if (flags.dryRun) {
    await ctx.out.list(
      items.map((i) => ({ id: i.id, type: i.type, timestamp: i.timestamp, bytes: i.body.length, to })),
      [
        { header: 'id', key: 'id' },
        { header: 'type', key: 'type' },
        { header: 'timestamp', key: 'timestamp' },
        { header: 'bytes', key: 'bytes' },
      ],
    );
    ctx.out.info(`dry run: ${items.length} event(s) would be sent to ${to}`);
    return;
  }
  const secret = requireSecret(ctx, flags.secretFile, 'ops hook replay');
  const stream = ctx.out.listStream(OUTCOME_COLUMNS);
  const outcomes = await replay(items, {
    to,
    secret: secret.value,
    onResult: (o) => {
      void stream.push([o], [{ ...o }]);
    },
  });
  await stream.end();
  const failed = outcomes.filter((o) => !o.ok).length;
  if (failed > 0) throw new OpsError(`${failed} of ${outcomes.length} replayed event(s) were not accepted (no 2xx)`);
  ctx.out.success(`${outcomes.length} event(s) replayed to ${to}`);
}

async function redeliverFailed(ctx: Context, flags: HookReplayOptions): Promise<void> {
  if (flags.to !== undefined || flags.from !== undefined || flags.store !== undefined) {
    throw new UsageError('--failed redelivers through the notification service to each registered URL: --to, --from and --store do not apply');
  }
  const filter = await filterFrom(ctx, flags);
  const client = notifyClient(ctx);
  const matching = (await client.allDeliveries({ status: 'failed' })).filter(
    (d) =>
      (filter.id === undefined || d.id === filter.id || d.eventId === filter.id) &&
      (filter.type === undefined || d.eventType === filter.type) &&
      (filter.since === undefined || Date.parse(d.createdAt) >= filter.since),
  );
  // Deliveries of deleted webhooks cannot be sent again (the service answers 409): skip them
  // rather than stop at the first one.
  const registered = new Set((await client.listWebhooks()).map((w) => w.id));
  const failed = matching.filter((d) => registered.has(d.webhookId));
  const orphaned = matching.length - failed.length;
  const skippedNote = (n: number) => `${n} failed ${plural(n, 'delivery', 'deliveries')} of deleted webhooks skipped`;
  if (failed.length === 0) {
    ctx.out.info(orphaned ? `no failed deliveries to redeliver (${skippedNote(orphaned)})` : 'no failed deliveries match');
    if (ctx.json) await ctx.out.writeJson([]);
    return;
  }
  if (flags.dryRun) {
    await ctx.out.list(failed, DELIVERY_COLUMNS);
    ctx.out.info(`dry run: ${failed.length} failed ${plural(failed.length, 'delivery', 'deliveries')} would be redelivered`);
    if (orphaned) ctx.out.info(skippedNote(orphaned));
    return;
  }
  const queued: Delivery[] = [];
  const errors: string[] = [];
  let skipped = orphaned;
  for (const d of failed) {
    try {
      queued.push(await client.redeliver(d.id));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409)
        skipped++; // deleted meanwhile
      else if (err instanceof ApiError && err.status !== 401 && err.status !== 403) errors.push(`${d.id}: ${err.message}`);
      else throw err;
    }
  }
  await ctx.out.list(queued, DELIVERY_COLUMNS);
  if (skipped) ctx.out.info(skippedNote(skipped));
  if (errors.length) throw new OpsError(`${errors.length} of ${failed.length} redeliveries were refused:\n  ${errors.join('\n  ')}`);
  ctx.out.success(`${queued.length} failed ${plural(queued.length, 'delivery', 'deliveries')} queued again (see \`ops hook deliveries\`)`);
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
