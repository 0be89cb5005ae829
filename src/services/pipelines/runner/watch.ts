/**
 * One watch stream (`mode=watch`): a chunked HTTP response carrying `{sequence_number, json_data|text_data}`
 * objects separated by `\r\n`, written to the socket at once, with `{"sequence_number":N}` keep-alives
 * when nothing was sent for a while.
 *
 * Bounded buffer: a watcher may have at most MAX_PENDING_CHUNKS chunks and MAX_PENDING_BYTES bytes
 * written but not yet taken by the socket (a single chunk bigger than that is still sent when nothing
 * is pending, so the bound is the larger of the limit and one chunk). When a step's chunk would exceed it:
 *  - with `backpressure=false` (the default) the chunk is dropped for this watcher only; its
 *    sequence number is consumed, so the client sees a gap in `sequence_number` (as Feldera's
 *    bounded queue does); the log says so once per run of dropped chunks;
 *  - with `backpressure=true` the stream is ended (the client sees the response end) rather than make
 *    the pipeline wait.
 * Either way ingestion and the other watchers never wait for a slow watcher, and chunks are shared,
 * not copied, between the watchers of one (view, format).
 *
 * send_snapshot=true (today's Feldera): the stream first sends the relation's contents as taken in the
 * pipeline's worker at one point between steps, part by part as the socket takes them, in frames marked
 * `"snapshot":true` (later frames `"snapshot":false`, as Feldera marks every frame of such a stream).
 * Changes that reach it before the snapshot are dropped (the snapshot holds them); changes that reach it
 * while the snapshot is being sent are kept (within the same bounds, dropped or the end beyond them) and
 * follow it.
 *
 * Ending: the response ends normally; a client that does not take what is still queued for it
 * within END_DRAIN_MS has its connection destroyed (end.ts).
 */
import type { ServerResponse } from 'node:http';
import type { RelationSchema } from '../../../engine/index.js';
import { frame, type OutputFormat } from '../shared/encoding.js';
import { END_DRAIN_MS, endResponse } from './end.js';

/** A chunk as the host gets it from the pipeline's worker: the encoded body part as UTF-8 bytes. */
export interface ChunkBytes {
  data: Uint8Array;
  records: number;
}

export const MAX_PENDING_CHUNKS = 1000;
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export interface WatcherLimits {
  maxPendingChunks?: number;
  maxPendingBytes?: number;
  endDrainMs?: number;
}

export interface WatcherMetrics {
  transmitted_records: number;
  transmitted_bytes: number;
  queued_records: number;
  queued_batches: number;
  buffered_records: number;
  buffered_batches: number;
  num_encode_errors: number;
  num_transport_errors: number;
  total_processed_input_records: number;
  dropped_batches: number;
}

export class Watcher {
  private seq = 0;
  private pendingChunks = 0;
  private pendingBytes = 0;
  lastSend = Date.now();
  closed = false;
  /** The format's config as the stats report it (control/egress-config.ts). */
  formatConfig: Record<string, unknown> = {};
  /** Chunks are being dropped (logged once per run of drops). */
  private dropping = false;
  /** send_snapshot streams: waiting for the snapshot (steps' changes dropped: they are in it), sending it (changes kept), then live. */
  private phase: 'awaiting-snapshot' | 'snapshot' | 'live';
  /** Changes kept while the snapshot is sent: chunks, and counts of chunks dropped (sequence numbers to skip). */
  private held: (ChunkBytes | number)[] = [];
  private heldChunks = 0;
  private heldBytes = 0;
  /** Called once what was written is all taken by the socket (the snapshot's next part is asked for then). */
  private drained: (() => void) | null = null;
  private readonly maxPendingChunks: number;
  private readonly maxPendingBytes: number;
  private readonly endDrainMs: number;
  readonly metrics: WatcherMetrics = {
    transmitted_records: 0,
    transmitted_bytes: 0,
    queued_records: 0,
    queued_batches: 0,
    buffered_records: 0,
    buffered_batches: 0,
    num_encode_errors: 0,
    num_transport_errors: 0,
    total_processed_input_records: 0,
    dropped_batches: 0,
  };

  constructor(
    readonly endpointName: string,
    readonly relation: RelationSchema,
    readonly format: OutputFormat,
    readonly backpressure: boolean,
    private readonly res: ServerResponse,
    private readonly onClose: (w: Watcher, reason: string) => void,
    private readonly onOverflow: (w: Watcher) => void,
    limits: WatcherLimits = {},
    /** Today's `send_snapshot=true`: the relation's contents first (snapshotPart), then its changes. */
    readonly sendSnapshot = false,
    /** Every frame says whether it is part of the snapshot (`"snapshot": bool`), as today's Feldera writes them. */
    readonly snapshotField = sendSnapshot,
  ) {
    this.phase = sendSnapshot ? 'awaiting-snapshot' : 'live';
    this.maxPendingChunks = limits.maxPendingChunks ?? MAX_PENDING_CHUNKS;
    this.maxPendingBytes = limits.maxPendingBytes ?? MAX_PENDING_BYTES;
    this.endDrainMs = limits.endDrainMs ?? END_DRAIN_MS;
    res.on('close', () => this.close('client disconnected'));
    res.on('error', () => this.close('transport error'));
  }

  /** Writes the response head at once so the client sees the stream open. */
  open(): void {
    this.res.writeHead(200, {
      'content-type': 'application/json',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    this.res.socket?.setNoDelay(true);
    this.res.flushHeaders();
  }

  send(chunk: ChunkBytes): void {
    if (this.closed) return;
    // a step before the snapshot was taken: its changes are in the snapshot
    if (this.phase === 'awaiting-snapshot') return;
    if (this.phase === 'snapshot') return this.hold(chunk);
    const seq = this.seq++;
    const size = chunk.data.byteLength;
    if (this.backedUp(size)) return this.overflow();
    this.dropping = false;
    this.write([this.head(seq), chunk.data, '}\r\n'], chunk.records);
  }

  /**
   * Whether a chunk of `size` bytes is over the stream's bounds. A write is counted until its callback,
   * which comes on a later tick even when the socket handed it to the kernel at once: several chunks that
   * arrive together (as a pipeline's messages do, read from its process in one go) all count while
   * nothing waits for the client at all. So the counts bound the stream only while bytes are still held
   * here, not yet taken by the socket.
   */
  private backedUp(size: number): boolean {
    if (this.pendingChunks < this.maxPendingChunks && !(this.pendingBytes > 0 && this.pendingBytes + size > this.maxPendingBytes)) return false;
    return this.res.writableLength > 0;
  }

  /** A chunk that does not fit: dropped (its sequence number is gone) or, with backpressure, the end. */
  private overflow(): void {
    this.metrics.dropped_batches++;
    this.metrics.num_transport_errors++;
    if (!this.dropping || this.backpressure) this.onOverflow(this);
    this.dropping = true;
    if (this.backpressure) this.end();
  }

  /** A step's chunk while the snapshot is being sent: kept, within the same bounds as the socket's queue. */
  private hold(chunk: ChunkBytes): void {
    const size = chunk.data.byteLength;
    if (this.heldChunks >= this.maxPendingChunks || (this.heldBytes > 0 && this.heldBytes + size > this.maxPendingBytes)) {
      this.overflow();
      if (this.closed) return;
      const last = this.held.length - 1;
      if (last >= 0 && typeof this.held[last] === 'number') (this.held[last] as number)++;
      else this.held.push(1);
      return;
    }
    this.dropping = false;
    this.held.push(chunk);
    this.heldChunks++;
    this.heldBytes += size;
  }

  /**
   * A part of this stream's snapshot (send_snapshot=true), framed with `"snapshot":true`. `more` is called
   * once the socket took it all (the next part is asked for only then, so a snapshot is never queued
   * whole). After the last part the changes kept meanwhile go out, then the stream is live.
   */
  snapshotPart(chunks: ChunkBytes[], done: boolean, more: () => void): void {
    if (this.closed) return;
    this.phase = 'snapshot';
    for (const c of chunks) this.write([this.head(this.seq++), c.data, '}\r\n'], c.records);
    if (!done) {
      if (this.pendingChunks === 0) more();
      else this.drained = more;
      return;
    }
    this.phase = 'live';
    const held = this.held;
    this.held = [];
    this.heldChunks = 0;
    this.heldBytes = 0;
    // within the bounds already (hold() kept them so): written as they are
    for (const h of held) {
      if (typeof h === 'number') this.seq += h;
      else this.write([this.head(this.seq++), h.data, '}\r\n'], h.records);
    }
  }

  /** A frame's start: today's streams say in every frame whether it is part of the snapshot. */
  private head(seq: number): string {
    return this.snapshotField ? `{"sequence_number":${seq},"snapshot":${this.phase !== 'live'},` : `{"sequence_number":${seq},`;
  }

  heartbeat(now: number, intervalMs: number): void {
    if (this.closed || now - this.lastSend < intervalMs) return;
    if (this.pendingChunks > 0) return; // data is still flowing to the client
    this.write([this.snapshotField ? `${this.head(this.seq++).slice(0, -1)}}\r\n` : frame(this.seq++)], 0);
  }

  /** Writes one framed chunk (its parts in one go) and counts it until the socket takes it. */
  private write(parts: (string | Uint8Array)[], records: number): void {
    let bytes = 0;
    for (const p of parts) bytes += typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength;
    this.pendingChunks++;
    this.pendingBytes += bytes;
    this.lastSend = Date.now();
    const last = parts.length - 1;
    if (last > 0) this.res.cork();
    for (let i = 0; i < last; i++) this.res.write(parts[i]);
    this.res.write(parts[last], (err) => {
      this.pendingChunks--;
      this.pendingBytes -= bytes;
      if (this.pendingChunks === 0 && this.drained && !this.closed) {
        const more = this.drained;
        this.drained = null;
        more();
      }
      if (err) {
        this.metrics.num_transport_errors++;
        return;
      }
      this.metrics.transmitted_records += records;
      this.metrics.transmitted_bytes += bytes;
    });
    if (last > 0) this.res.uncork();
    this.metrics.total_processed_input_records += records;
  }

  get queued(): { batches: number; bytes: number } {
    return { batches: this.pendingChunks, bytes: this.pendingBytes };
  }

  /** Ends the stream normally (pipeline shut down); a client that does not take the rest in time is cut off. */
  end(): void {
    if (this.closed) return;
    endResponse(this.res, this.pendingChunks > 0, this.endDrainMs);
    this.close('stream ended');
  }

  private close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose(this, reason);
  }
}
