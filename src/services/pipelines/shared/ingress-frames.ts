/**
 * The ingress channel between a pipeline's host (the server's main thread) and its worker thread: one
 * byte stream, a pipe from the server's process straight to the worker's thread (no relay thread, no
 * serialization, no copy of a body into messages), carrying each ingress request as frames:
 *
 *   kind (1 byte) | request id (u32 LE) | payload length (u32 LE) | payload
 *
 * - Begin: the request's IngestSpec as JSON text.
 * - Chunk: body bytes, as they came off the client's socket (a chunk's payload may reach the reader in
 *   several parts: each part goes to the sink as it comes, so the worker parses while the rest arrives).
 * - End: the body is whole; payload: a u32, the number of messages the host had posted on the message
 *   channel before it, so that the worker applies the request only after those (a subscription opened
 *   before an ingest request is in force when its step runs, as when both shared one channel).
 * - Abort: the request is dropped (its body was refused or its client went away).
 *
 * Rules: the writer owns the order (frames of one stream arrive as written); the reader keeps no body
 * bytes of its own (chunk parts are subarrays of what it was given) and only gathers headers and Begin
 * and End payloads across reads. A malformed stream (an unknown kind, an oversized Begin) is a bug of the
 * host, thrown from push(). Pure: no I/O here.
 */
import type { IngestSpec } from './protocol.js';

export const FrameKind = { Begin: 1, Chunk: 2, End: 3, Abort: 4 } as const;
type Kind = (typeof FrameKind)[keyof typeof FrameKind];

const HEADER_BYTES = 9;
/** A Begin's JSON spec is a few hundred bytes; anything past this is a corrupt stream. */
const MAX_CONTROL_PAYLOAD = 64 * 1024;

/** A frame's header (and, for Begin and End, its whole frame) as bytes to write. */
export function frameHeader(kind: Kind, id: number, length: number): Buffer {
  const b = Buffer.allocUnsafe(HEADER_BYTES);
  b[0] = kind;
  b.writeUInt32LE(id, 1);
  b.writeUInt32LE(length, 5);
  return b;
}

export function beginFrame(id: number, spec: IngestSpec): Buffer {
  const json = Buffer.from(JSON.stringify(spec), 'utf8');
  return Buffer.concat([frameHeader(FrameKind.Begin, id, json.length), json]);
}

export function endFrame(id: number, postedBefore: number): Buffer {
  const b = frameHeader(FrameKind.End, id, 4);
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32LE(postedBefore >>> 0, 0);
  return Buffer.concat([b, payload]);
}

export function abortFrame(id: number): Buffer {
  return frameHeader(FrameKind.Abort, id, 0);
}

/** What the reader finds, in stream order. */
export interface FrameSink {
  begin(id: number, spec: IngestSpec): void;
  chunk(id: number, bytes: Uint8Array): void;
  end(id: number, postedBefore: number): void;
  abort(id: number): void;
}

export class FrameReader {
  /** Gathered bytes of a header or of a control payload cut by the end of a read. */
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private kind: Kind | 0 = 0;
  private id = 0;
  /** Payload bytes of the current frame still to come. */
  private left = 0;
  private control: Buffer | null = null;
  private controlFill = 0;

  constructor(private readonly sink: FrameSink) {}

  push(data: Uint8Array): void {
    let p = 0;
    const n = data.byteLength;
    while (p < n) {
      if (this.kind === 0) {
        const take = Math.min(HEADER_BYTES - this.headerFill, n - p);
        this.header.set(data.subarray(p, p + take), this.headerFill);
        this.headerFill += take;
        p += take;
        if (this.headerFill < HEADER_BYTES) return;
        this.headerFill = 0;
        this.startFrame();
        continue;
      }
      const take = Math.min(this.left, n - p);
      if (this.kind === FrameKind.Chunk) {
        if (take > 0) this.sink.chunk(this.id, data.subarray(p, p + take));
      } else {
        this.control!.set(data.subarray(p, p + take), this.controlFill);
        this.controlFill += take;
      }
      p += take;
      this.left -= take;
      if (this.left === 0) this.finishFrame();
    }
  }

  private startFrame(): void {
    const kind = this.header[0]!;
    this.id = this.header.readUInt32LE(1);
    this.left = this.header.readUInt32LE(5);
    if (kind !== FrameKind.Begin && kind !== FrameKind.Chunk && kind !== FrameKind.End && kind !== FrameKind.Abort) throw new Error(`ingress channel: unknown frame kind ${kind}`);
    this.kind = kind as Kind;
    if (kind !== FrameKind.Chunk) {
      if (this.left > MAX_CONTROL_PAYLOAD) throw new Error(`ingress channel: a control frame of ${this.left} bytes`);
      this.control = Buffer.alloc(this.left);
      this.controlFill = 0;
    }
    if (this.left === 0) this.finishFrame();
  }

  private finishFrame(): void {
    const { kind, id, control } = this;
    this.kind = 0;
    this.control = null;
    switch (kind) {
      case FrameKind.Begin:
        this.sink.begin(id, JSON.parse(control!.toString('utf8')) as IngestSpec);
        return;
      case FrameKind.End:
        if (control!.length !== 4) throw new Error('ingress channel: an End frame without its count');
        this.sink.end(id, control!.readUInt32LE(0));
        return;
      case FrameKind.Abort:
        this.sink.abort(id);
        return;
      case FrameKind.Chunk:
      case 0:
        return; // chunks are handed on as they arrive; 0: no frame open
    }
  }
}
