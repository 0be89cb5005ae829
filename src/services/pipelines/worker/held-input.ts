/**
 * The input an open transaction holds inside a pipeline's worker (today's Feldera `/start_transaction`,
 * `/commit_transaction`): each request's changes as its parser produced them (runs of full rows as compact
 * RowBatches, the rest as they are), in arrival order, with the records and bytes each input endpoint put
 * in, until the commit hands all of it to the engine as one step.
 *
 * Rules: only input already checked is held (the runtime checks it when it arrives: a bad request is
 * refused then and nothing of it is kept, and so is a request the transaction has no room for,
 * transaction-memory.ts); nothing here steps the engine; `commitCost` sums the estimated commit cost of
 * everything held, which the runtime bounds by the pipeline's memory limit.
 */
import type { InputChange } from '../../../engine/index.js';
import type { ParsedInput } from './ingress/parser.js';
import type { InputEndpointStats } from '../shared/protocol.js';

/**
 * Cuts the batches of a request's checked input to their rows before it is held (RowBatch.fit): a request
 * of a few rows would otherwise keep room for 16,384 rows a column (147 KB a numeric column) for as long
 * as the transaction is open.
 */
export function fitForHolding(input: InputChange[]): void {
  for (const c of input) if (c.op === 'batch') c.rows.fit();
}

export class HeldInput {
  readonly startedAt = Date.now();
  /** Input records (events) held. */
  records = 0;
  /** Changes held (a batch's rows counted one each). */
  changes = 0;
  /** Estimated bytes of heap the commit's step needs for everything held (transaction-memory.ts). */
  commitCost = 0;
  private readonly parts: InputChange[][] = [];
  /** Per input endpoint: the records and body bytes it put in this transaction. */
  readonly byEndpoint = new Map<InputEndpointStats, { records: number; bytes: number }>();

  /** `id`: the transaction's id (answered by /start_transaction, stats' transaction_id). */
  constructor(readonly id: number) {}

  /** Keeps a checked request's changes (from `endpoint`, when it came through one), whose commit cost is `cost`. */
  hold(parsed: ParsedInput, endpoint: InputEndpointStats | undefined, bytes: number, cost: number): void {
    if (parsed.count > 0) this.parts.push(parsed.input);
    this.records += parsed.records;
    this.changes += parsed.count;
    this.commitCost += cost;
    if (!endpoint) return;
    const e = this.byEndpoint.get(endpoint) ?? { records: 0, bytes: 0 };
    e.records += parsed.records;
    e.bytes += bytes;
    this.byEndpoint.set(endpoint, e);
  }

  /** Everything held, in arrival order, as one step's input; the holder lets go of it. */
  take(): InputChange[] {
    const input = this.parts.flat();
    this.parts.length = 0;
    return input;
  }
}
