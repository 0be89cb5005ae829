/**
 * Streaming input connectors that generate their records in the pipeline's own process (`nexmark`,
 * `datagen`), and the loop that feeds them to the circuit while the pipeline runs.
 *
 * The contract of a source (StreamingSource), which the runtime sees only through GeneratedInputs:
 * - `generate(step, max)` adds the next records (at most `max`) to the step being built and answers how many;
 *   0 means none may come now (a rate limit: `waitMs()` says how long) or none are left (`finished`).
 * - `position()` is where the source stands as of the last applied step (a JSON value: nexmark
 *   `{"events": n}`, datagen `{"seed": s, "plan": p, "row": r}`); a source made with that position produces
 *   exactly the records an uninterrupted run would have produced after it (records are functions of their
 *   index: nothing else is carried).
 * - `commit()` after the step built since the last commit was applied; `rewind()` when it was dropped (the
 *   pipeline paused or a transaction opened while it was being built): those records come again.
 *
 * The loop (GeneratedInputs): while the pipeline is Running and no transaction is open, each source builds a
 * step of up to `stepRecords` records, in batches with a yield to the event loop after each (so ingress,
 * stats, snapshots and pause keep answering), applies it as one step, reports the endpoints' new positions
 * (completion tokens) and yields again. Paused: nothing is generated (a partial step is dropped and
 * regenerated on resume); so while any endpoint of a source is paused by the user (its `paused` stats flag:
 * one generator feeds nexmark's three tables, so pausing one of them holds all three). At the end, each
 * endpoint is marked end_of_input and reported complete. A record
 * that does not fit its column, or a step the engine refuses, fails the pipeline with the connector's name
 * (as Feldera fails on a fatal connector error). Memory: one step's records at a time per source.
 */
import { RowBatch, type ColumnKeeps, type InputChange, type JsonValue } from '../../../../engine/index.js';
import type { TableBinding } from '../ingress/binding.js';
import { RowError } from '../ingress/binding.js';
import { releaseBatches, type ParsedInput } from '../ingress/parser.js';
import type { InputEndpointStats, TokenLabel } from '../../shared/protocol.js';

/** One table a source feeds: its endpoint name and binding. */
export interface SourceTarget {
  endpoint: string;
  binding: TableBinding;
}

/** Whether the codec gives `v` back as it is (ColumnCodec.keeps), so that it can go into a batch without a call. */
function kept(keeps: ColumnKeeps | null, v: unknown): boolean {
  if (keeps === null) return false;
  switch (keeps.kind) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) && v >= keeps.lo && v <= keeps.hi;
    case 'number':
      return typeof v === 'number';
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
  }
}

/** The records of the step being built, per target, in the engine's compact batch form. */
export class StepBuilder {
  private readonly batches: (RowBatch | null)[];
  readonly counts: number[];
  records = 0;

  constructor(private readonly targets: readonly SourceTarget[]) {
    this.batches = targets.map(() => null);
    this.counts = targets.map(() => 0);
  }

  /**
   * Adds a row for target `t`: `values` are its first columns in order (the others take their DEFAULT, or
   * NULL), each put in the column's form by its codec, as any input is (a value the codec keeps as it is
   * goes in without the call). Throws ConnectorRecordError, the row left out, when a value does not fit.
   */
  row(t: number, values: readonly unknown[]): void {
    const target = this.targets[t]!;
    const b = target.binding;
    const n = b.names.length;
    const batch = (this.batches[t] ??= new RowBatch(n));
    try {
      for (let i = 0; i < n; i++) {
        if (i >= values.length) batch.push(b.missing(i));
        else {
          const v = values[i];
          batch.push(kept(b.codecs[i]!.keeps, v) ? (v as JsonValue) : b.convert(i, v));
        }
      }
    } catch (err) {
      batch.dropRow();
      if (err instanceof RowError) throw new ConnectorRecordError(target.endpoint, err.message);
      throw err;
    }
    batch.endRow();
    this.counts[t]!++;
    this.records++;
  }

  /** The step's input, as a parsed request would give it (every row counted as one event). */
  parsed(): ParsedInput {
    const input: InputChange[] = [];
    this.batches.forEach((rows, t) => {
      if (rows === null || rows.length === 0) return;
      const b = this.targets[t]!.binding;
      input.push({ table: b.engineTable, op: 'batch', rowOp: b.hasKey ? 'upsert' : 'insert', rows });
    });
    const count = this.records;
    return {
      input,
      count,
      get changes(): InputChange[] {
        throw new Error('generated input has no row form');
      },
      records: count,
      eventOf: (c) => c,
      lineOf: (ev) => ev + 1,
      textOf: () => null,
      errors: [],
      errorCount: 0,
    };
  }
}

/** A generated record that does not fit its column (a connector error that fails the pipeline). */
export class ConnectorRecordError extends Error {
  constructor(
    readonly endpoint: string,
    reason: string,
  ) {
    super(`Input connector '${endpoint}' generated a record its table refuses: ${reason}`);
  }
}

export interface StreamingSource {
  /** The tables it feeds (nexmark: three; datagen: one). */
  readonly targets: readonly SourceTarget[];
  /** Records in one step at most. */
  readonly stepRecords: number;
  /** Nothing is left to generate (as of what was generated, applied or not). */
  readonly finished: boolean;
  generate(step: StepBuilder, max: number): number;
  /** Milliseconds until more may be generated (a rate limit); 0: now. */
  waitMs(): number;
  position(): JsonValue;
  commit(): void;
  rewind(): void;
}

/** What the loop needs of the runtime. */
export interface GeneratedInputsHost {
  /** Steps may be taken now (Running, no transaction open). */
  canStep(): boolean;
  /** Applies one step (throws when the engine refuses it); answers the step's number once applied. */
  apply(parsed: ParsedInput): number;
  /** The number of the last step taken. */
  steps(): number;
  /** The stats entry of an endpoint. */
  endpoint(name: string): InputEndpointStats;
  /** Endpoints now stand here (their records up to `count` applied by step `step`). */
  progress(labels: TokenLabel[]): void;
  /** A source failed: the pipeline must fail with this error. */
  fail(err: Error): void;
}

const BLOCKED_POLL_MS = 50;

export class GeneratedInputs {
  private stopped = false;
  /** The loops waiting (paused, a transaction open, a rate limit): each wakes at its timer or at wake(). */
  private readonly waiting = new Set<() => void>();
  private readonly loops: Promise<void>[] = [];

  constructor(
    readonly sources: readonly StreamingSource[],
    private readonly host: GeneratedInputsHost,
  ) {}

  /** Starts the loops (once); they generate only while host.canStep(). */
  start(): void {
    if (this.loops.length === 0) for (const s of this.sources) this.loops.push(this.run(s));
    this.wake();
  }

  /** The pipeline may step again (resumed, a transaction ended): waiting loops look again at once. */
  wake(): void {
    const all = [...this.waiting];
    this.waiting.clear();
    for (const w of all) w();
  }

  /** Ends the loops for good. */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  /** Where each source's endpoints stand (endpoint name -> position), for checkpoints. */
  positions(): Record<string, JsonValue> {
    const out: Record<string, JsonValue> = {};
    for (const s of this.sources) for (const t of s.targets) out[t.endpoint] = s.position();
    return out;
  }

  /** The source may step now: the pipeline can, and none of its endpoints is paused by the user. */
  private canRun(src: StreamingSource): boolean {
    return this.host.canStep() && !src.targets.some((t) => this.host.endpoint(t.endpoint).paused);
  }

  private blocked(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  private async run(src: StreamingSource): Promise<void> {
    try {
      while (!this.stopped) {
        if (!this.canRun(src)) {
          await this.blocked(BLOCKED_POLL_MS);
          continue;
        }
        const wait = src.finished ? 0 : src.waitMs();
        if (wait > 0) {
          await this.blocked(wait);
          continue;
        }
        const step = new StepBuilder(src.targets);
        while (!src.finished && step.records < src.stepRecords) {
          if (src.generate(step, src.stepRecords - step.records) === 0) break;
          if (src.finished || step.records >= src.stepRecords) break;
          await yieldToEventLoop();
          if (this.stopped || !this.canRun(src)) break;
        }
        if (this.stopped) return;
        if (!this.canRun(src)) {
          src.rewind();
          continue;
        }
        if (step.records > 0) {
          const parsed = step.parsed();
          const stepNo = this.host.apply(parsed);
          releaseBatches(parsed.input); // the step has read them
          src.commit();
          const labels: TokenLabel[] = [];
          src.targets.forEach((t, i) => {
            const ep = this.host.endpoint(t.endpoint);
            ep.metrics.total_records += step.counts[i]!;
            if (src.finished) ep.metrics.end_of_input = true;
            labels.push({ endpoint: t.endpoint, count: ep.metrics.total_records, step: stepNo });
          });
          this.host.progress(labels);
        } else if (src.finished) src.commit();
        if (src.finished) {
          const labels = src.targets.map((t) => {
            const ep = this.host.endpoint(t.endpoint);
            ep.metrics.end_of_input = true;
            return { endpoint: t.endpoint, count: ep.metrics.total_records, step: this.host.steps() };
          });
          // nothing more will come: tokens up to here are complete as of the last step applied
          this.host.progress(labels);
          return;
        }
        await yieldToEventLoop();
      }
    } catch (err) {
      if (this.stopped) return;
      for (const t of src.targets) this.host.endpoint(t.endpoint).fatal_error = (err as Error).message;
      this.stopped = true;
      this.host.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
