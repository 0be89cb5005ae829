/** `ops hook trigger TYPE`: emit an event (sample payload, or --data / --data-file). */
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { notifyClient, readInput } from './shared.js';

export interface TriggerFlags {
  data?: string;
  dataFile?: string;
  list?: boolean;
}

function parseData(text: string, where: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new UsageError(`${where} is not valid JSON`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${where} must be a JSON object`);
  return v as Record<string, unknown>;
}

export async function hookTrigger(ctx: Context, type: string | undefined, flags: TriggerFlags): Promise<void> {
  const client = notifyClient(ctx);
  if (flags.list) {
    const types = await client.eventTypes();
    await ctx.out.list(types, [{ header: 'type', key: 'type' }, { header: 'description', key: 'description', shrink: true }]);
    return;
  }
  if (!type) throw new UsageError('the event type is required', 'Example: ops hook trigger payment.completed   (ops hook trigger --list shows the types)');
  if (flags.data !== undefined && flags.dataFile !== undefined) throw new UsageError('give --data or --data-file, not both');
  let data: Record<string, unknown> | undefined;
  if (flags.data !== undefined) data = parseData(flags.data, '--data');
  if (flags.dataFile !== undefined) data = parseData((await readInput(ctx, flags.dataFile)).toString('utf8'), flags.dataFile === '-' ? 'stdin' : flags.dataFile);
  const r = await client.trigger(type, data);
  await ctx.out.item(
    { id: r.event.id, type: r.event.type, timestamp: r.event.timestamp, deliveries: r.deliveries.length },
    [{ header: 'id', key: 'id' }, { header: 'type', key: 'type' }, { header: 'timestamp', key: 'timestamp' }, { header: 'deliveries', key: 'deliveries' }],
    r,
  );
}
