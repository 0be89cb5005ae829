/**
 * The `nexmark` connectors of a program as one streaming source (generated-input.ts): the three tables fed
 * from one stream of event ids, as Feldera's three nexmark connectors share one generator. Events are
 * generated in rounds of `threads × batch_size_per_thread` ids and applied in steps of at most
 * `threads × max_step_size_per_thread` records (all three tables in one step), until `events` ids are out.
 * Position: `{"events": n}`, the events applied so far (Feldera's resume metadata is the applied id range);
 * a source made from it continues with event n.
 */
import type { JsonValue } from '../../../../engine/index.js';
import type { SourceTarget, StepBuilder, StreamingSource } from './generated-input.js';
import { NEXMARK_TABLES, NexmarkEvents, type NexmarkTable } from './nexmark-events.js';
import type { NexmarkOptions } from './nexmark-config.js';

/** A resume position of a nexmark source, checked; throws an Error saying what is wrong. */
export function nexmarkStart(position: JsonValue | undefined, options: NexmarkOptions): number {
  if (position === undefined || position === null) return 0;
  const events = typeof position === 'object' && !Array.isArray(position) ? (position as Record<string, JsonValue>).events : undefined;
  if (typeof events !== 'number' || !Number.isSafeInteger(events) || events < 0) throw new Error(`not a nexmark position (expected {"events": n}): ${JSON.stringify(position)}`);
  return Math.min(events, options.events);
}

export class NexmarkSource implements StreamingSource {
  readonly targets: SourceTarget[];
  readonly stepRecords: number;
  private readonly round: number;
  private readonly slot: Record<NexmarkTable, number>;
  private readonly gen = new NexmarkEvents();
  /** The next event id to generate, and the first not yet applied. */
  private next: number;
  private applied: number;

  /** `position`: one of position()'s values, to go on from there (throws an Error when it is not one). */
  constructor(
    targets: Record<NexmarkTable, SourceTarget>,
    private readonly options: NexmarkOptions,
    position?: JsonValue,
  ) {
    const start = nexmarkStart(position, options);
    this.targets = NEXMARK_TABLES.map((t) => targets[t]);
    this.slot = { person: 0, auction: 1, bid: 2 };
    this.round = options.threads * options.batch_size_per_thread;
    this.stepRecords = options.threads * options.max_step_size_per_thread;
    this.next = this.applied = start;
  }

  get finished(): boolean {
    return this.next >= this.options.events;
  }

  generate(step: StepBuilder, max: number): number {
    const end = Math.min(this.next + Math.min(this.round, max), this.options.events);
    const from = this.next;
    for (let id = from; id < end; id++) {
      const e = this.gen.event(id);
      step.row(this.slot[e.table], e.values);
    }
    this.next = end;
    return end - from;
  }

  waitMs(): number {
    return 0;
  }

  position(): JsonValue {
    return { events: this.applied };
  }

  commit(): void {
    this.applied = this.next;
  }

  rewind(): void {
    this.next = this.applied;
  }
}
