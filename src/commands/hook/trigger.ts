/** `ops hook trigger TYPE`: emit an event (sample payload, or --data / --data-file). */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { runWith, type Factory, type RunFunction } from '../factory.js';
import { ApiError, UsageError } from '../../core/errors.js';
import { notifyClient, readInput } from './shared.js';

export interface HookTriggerOptions {
  /** the event type, e.g. payment.completed */
  type?: string;
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

export function newCmdHookTrigger(f: Factory, runF: RunFunction<HookTriggerOptions> = runHookTrigger): Command {
  return new Command('trigger')
    .arguments('[type]')
    .description('Emit an event through the notification service (sample payload unless --data)')
    .option('--data <json>', 'the payload, a JSON object')
    .option('--data-file <file>', 'the payload from a file (- for stdin)')
    .option('--list', 'list the event types')
    .addHelpText(
      'after',
      '\nExamples:\n  ops hook trigger payment.completed\n  ops hook trigger payment.failed --data \'{"amount":100,"orderId":"o1","customerId":"c1","error":"card_declined"}\'\n  ops hook trigger --list',
    )
    .action((type: string | undefined, flags: Omit<HookTriggerOptions, 'type'>) => runWith(f, runF, { ...flags, type }));
}

export async function runHookTrigger(flags: HookTriggerOptions, ctx: Context): Promise<void> {
  const { type } = flags;
  const client = notifyClient(ctx);
  if (flags.list) {
    const types = await client.eventTypes();
    await ctx.out.list(types, [
      { header: 'type', key: 'type' },
      { header: 'description', key: 'description', shrink: true },
    ]);
    return;
  }
  if (!type) throw new UsageError('the event type is required', 'Example: ops hook trigger payment.completed   (ops hook trigger --list shows the types)');
  if (flags.data !== undefined && flags.dataFile !== undefined) throw new UsageError('give --data or --data-file, not both');
  let data: Record<string, unknown> | undefined;
  if (flags.data !== undefined) data = parseData(flags.data, '--data');
  if (flags.dataFile !== undefined) data = parseData((await readInput(ctx, flags.dataFile)).toString('utf8'), flags.dataFile === '-' ? 'stdin' : flags.dataFile);
  const r = await client.trigger(type, data).catch((err: unknown) => {
    // an event type the service does not know is a usage error (exit 2), as a bad argument is
    if (err instanceof ApiError && (err.status === 400 || err.status === 422) && err.fieldErrors.type)
      throw new UsageError(`unknown event type "${type}": ${err.fieldErrors.type.join(' ')}`, 'ops hook trigger --list shows the types.');
    throw err;
  });
  await ctx.out.item(
    { id: r.event.id, type: r.event.type, timestamp: r.event.timestamp, deliveries: r.deliveries.length },
    [
      { header: 'id', key: 'id' },
      { header: 'type', key: 'type' },
      { header: 'timestamp', key: 'timestamp' },
      { header: 'deliveries', key: 'deliveries' },
    ],
    r,
  );
}
