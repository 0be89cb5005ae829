/**
 * One followed log (`GET .../logs?follow=true`): each line written to the response as it is logged.
 *
 * Rules: at most FOLLOW_MAX_PENDING_BYTES may wait for a client that does not read; lines past that
 * are dropped, and once the client caught up a line says how many were lost. Logging never waits for
 * a follower. When the follow ends (server stop, the pipeline deleted) the response completes, and a
 * client that does not take the rest within the drain time is cut off (runner/end.ts).
 */
import type { Writable } from 'node:stream';
import { END_DRAIN_MS, endResponse } from './end.js';

export const FOLLOW_MAX_PENDING_BYTES = 1024 * 1024;

export class LogFollower {
  private dropped = 0;

  constructor(
    private readonly res: Writable,
    private readonly maxPendingBytes = FOLLOW_MAX_PENDING_BYTES,
    private readonly drainMs = END_DRAIN_MS,
  ) {}

  /** Writes one line (with its newline), or drops it while the client is too far behind. */
  line(text: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (this.res.writableLength >= this.maxPendingBytes) {
      this.dropped++;
      return;
    }
    if (this.dropped > 0) {
      this.res.write(`... ${this.dropped} log line${this.dropped === 1 ? '' : 's'} dropped: the reader did not keep up\n`);
      this.dropped = 0;
    }
    this.res.write(text);
  }

  get droppedLines(): number {
    return this.dropped;
  }

  end(): void {
    if (this.res.writableEnded) return;
    endResponse(this.res, this.res.writableLength > 0, this.drainMs);
  }
}
