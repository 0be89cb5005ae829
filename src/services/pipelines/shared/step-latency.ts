/**
 * The latency of a pipeline's recent steps, kept in its worker (runtime.ts records each step the engine
 * completes) and reported to the host with the other figures, for the `dbsp_step_latency_seconds`
 * histogram of GET /metrics.
 *
 * Rules (as Feldera's sliding step-latency histogram): values are whole microseconds; the window holds at
 * most the last 1,000 steps and only those within 60 s of the most recent one (measured from the most
 * recent step, not from now, so a pipeline that has been idle still shows its last steps). Buckets are
 * Feldera's exponential ones: 0, 1, ..., 9, then 10-19, 20-29, ..., 90-99, 100-199, ... (each decade in nine
 * steps) up to 9,000,000,000-9,999,999,999 µs, and one above that: 92 in all. Recording and a snapshot
 * cost O(1) amortised (a ring of samples; counts per bucket kept up to date).
 */

export const STEP_LATENCY_BUCKETS = 92;

/** What the worker reports: samples per bucket (not cumulative) and their sum, in microseconds. */
export interface StepLatencySnapshot {
  counts: number[];
  sum: number;
}

/** The bucket of a value in microseconds. */
export function latencyBucket(micros: number): number {
  if (micros < 10) return Math.max(0, Math.floor(micros));
  let decade = 10;
  let first = 10;
  // decades 10..99 -> 10..18, 100..999 -> 19..27, ..., 1e9..(1e10 - 1) -> 82..90
  for (let d = 1; d <= 9; d++, decade *= 10, first += 9) {
    if (micros < decade * 10) return first + Math.floor(micros / decade) - 1;
  }
  return STEP_LATENCY_BUCKETS - 1;
}

/** The inclusive upper bound of a bucket, in microseconds (Infinity for the last). */
export function latencyBucketUpper(bucket: number): number {
  if (bucket < 10) return bucket;
  if (bucket >= STEP_LATENCY_BUCKETS - 1) return Infinity;
  const d = Math.floor((bucket - 10) / 9); // 0 for 10..18
  const width = 10 ** (d + 1);
  const index = (bucket - 10) % 9; // 0 -> 1*width .. 2*width-1
  return (index + 2) * width - 1;
}

export class StepLatency {
  private readonly times: Float64Array;
  private readonly values: Float64Array;
  private head = 0;
  private size = 0;
  private readonly counts = new Array<number>(STEP_LATENCY_BUCKETS).fill(0);
  private sum = 0;

  constructor(
    private readonly maxSamples = 1000,
    private readonly maxElapsedMs = 60_000,
  ) {
    this.times = new Float64Array(maxSamples);
    this.values = new Float64Array(maxSamples);
  }

  /** A step that took `ms` milliseconds, ending at `nowMs` (a monotonic clock). */
  record(ms: number, nowMs: number): void {
    const micros = Math.max(0, Math.floor(ms * 1000));
    if (this.size === this.maxSamples) this.dropOldest();
    const at = (this.head + this.size) % this.maxSamples;
    this.times[at] = nowMs;
    this.values[at] = micros;
    this.size++;
    this.counts[latencyBucket(micros)]!++;
    this.sum += micros;
  }

  snapshot(): StepLatencySnapshot {
    if (this.size > 0) {
      const newest = this.times[(this.head + this.size - 1) % this.maxSamples]!;
      while (this.size > 0 && this.times[this.head]! < newest - this.maxElapsedMs) this.dropOldest();
    }
    return { counts: [...this.counts], sum: this.sum };
  }

  private dropOldest(): void {
    const v = this.values[this.head]!;
    this.counts[latencyBucket(v)]!--;
    this.sum -= v;
    this.head = (this.head + 1) % this.maxSamples;
    this.size--;
  }
}
