/**
 * The worker's side of `send_snapshot=true` watch streams (protocol.ts `watch-snapshot*`): the snapshots
 * still being sent, by the stream's id, and their parts as messages for the host. A stream's snapshot is
 * taken when it opens (SnapshotStream.take, in the same message as its subscription); each further part
 * is encoded only when the host asks for it; a snapshot that cannot be read is one last part with the
 * error. Cancelled streams are let go at once.
 */
import { SnapshotStream } from './egress/snapshot-stream.js';
import type { EncodedChunk } from '../shared/encoding.js';
import type { FromWorker, WireChunk, WireError } from '../shared/protocol.js';

export class WatchSnapshots {
  private readonly streams = new Map<number, SnapshotStream>();
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly post: (msg: FromWorker, transfer: ArrayBuffer[]) => void,
    private readonly wireError: (err: unknown) => WireError,
  ) {}

  /** A stream opened: its snapshot is `take()`n now and its first part sent. */
  open(id: number, take: () => SnapshotStream): void {
    this.sendPart(id, take);
  }

  more(id: number): void {
    const stream = this.streams.get(id);
    if (stream) this.sendPart(id, () => stream);
  }

  cancel(id: number): void {
    this.streams.delete(id);
  }

  private sendPart(id: number, stream: () => SnapshotStream): void {
    let chunks: EncodedChunk[] = [];
    let error: WireError | null = null;
    let done = true;
    try {
      const s = stream();
      chunks = s.next();
      done = s.done;
      if (done) this.streams.delete(id);
      else this.streams.set(id, s);
    } catch (err) {
      this.streams.delete(id);
      error = this.wireError(err);
    }
    const wire: WireChunk[] = chunks.map((c) => ({ bytes: this.encoder.encode(c.data), records: c.records }));
    this.post(
      { t: 'watch-snapshot-part', id, chunks: wire, done, error },
      wire.map((c) => c.bytes.buffer as ArrayBuffer),
    );
  }
}
