/**
 * The clock's steps in a pipeline's worker, for a program that reads NOW() (as Feldera's `now` connector):
 * when the pipeline runs, one step at once (NOW() gets its first value), then, with the wall clock, one step
 * each time NOW() reaches its next resolution boundary (clock.ts); none while paused or stopped. Driven over
 * HTTP (dev_tweaks.now_http_driven), the clock moves only by `advance`, each advance a step when running
 * (paused: the value waits for the next step). A step is a timer callback in the worker: the host's event
 * loop never waits for it. A program without NOW() gets no ticker.
 */
import type { PipelineClock } from '../shared/clock.js';
import type { CommitPoint, PipelineRuntime } from './runtime.js';

export class ClockTicker {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly clock: PipelineClock,
    private readonly rt: PipelineRuntime,
    /** The input log's commit point for a clock step (pipeline-storage.ts), when the pipeline logs its input. */
    private readonly commit: () => CommitPoint | undefined = () => undefined,
  ) {}

  /** The pipeline runs (again): a step now, then the ticks. */
  start(): void {
    this.stop();
    this.rt.clockStep(this.commit());
    this.schedule();
  }

  /** Paused or stopped: no more ticks. */
  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** POST /clock/advance (http-driven): moves the clock (see PipelineClock.advance), a step when running; answers NOW() (null: refused, past the largest TIMESTAMP). */
  advance(deltaMs: number | null): number | null {
    const now = this.clock.advance(deltaMs);
    if (now !== null && deltaMs !== 0 && this.rt.state === 'Running') this.rt.clockStep(this.commit());
    return now;
  }

  private schedule(): void {
    if (this.clock.settings.httpDriven || this.rt.state !== 'Running') return;
    this.timer = setTimeout(() => this.fire(), this.clock.msToNextTick());
  }

  private fire(): void {
    this.timer = null;
    if (this.rt.state !== 'Running') return;
    // a timer may fire a little early: step only once NOW() has reached its next value
    if (this.clock.msToNextTick() === 0) this.rt.clockStep(this.commit());
    this.schedule();
  }
}
