/**
 * One ingress request inside a pipeline's worker: the body's bytes go to the format's incremental parser
 * (ingress/stream.ts) as they arrive (push), so parsing runs while the rest of the body is still on its
 * way and memory follows the chunk, not the body; finish gives the parsed input of the whole body, which
 * the runtime applies as one step (all of it or nothing).
 *
 * Pieces are gathered to PARSE_PIECE_BYTES before the parser takes them: the ingress channel delivers
 * a body in pieces of a pipe's buffer (about 30 KiB), and the parser's cost per piece (a row cut at its
 * end is scanned again) made those a third slower to parse than pieces of 256 KiB. The parser's memory
 * follows the piece, so this adds at most that much per request.
 *
 * A parser that throws on a chunk does not take the worker down: the error is kept and answered at the end.
 */
import type { TableBinding } from './ingress/binding.js';
import type { IngressParser, ParsedInput } from './ingress/parser.js';
import { newIngressParser } from './ingress/stream.js';
import type { IngestSpec } from '../shared/protocol.js';

/** Bytes gathered before the parser takes them (fewer at the end of the body). */
export const PARSE_PIECE_BYTES = 256 * 1024;

export class IngestJob {
  /** Bytes received so far. */
  bytes = 0;
  private readonly parser: IngressParser;
  /** An error the parser threw on a chunk: the request answers it at the end. */
  private failed: unknown = null;
  /** Bytes not yet given to the parser, in the order they came. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(
    readonly spec: IngestSpec,
    binding: TableBinding,
  ) {
    this.parser = newIngressParser(spec.format, binding, { updateFormat: spec.updateFormat, array: spec.array });
  }

  /** Body bytes, kept (not copied) until they are parsed: the caller does not reuse them. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.failed !== null || chunk.byteLength === 0) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    if (this.pendingBytes >= PARSE_PIECE_BYTES) this.parsePending();
  }

  /** The parsed input of the whole body (bad events are listed in its `errors`). */
  finish(): ParsedInput {
    this.parsePending();
    if (this.failed !== null) throw this.failed;
    return this.parser.end();
  }

  private parsePending(): void {
    if (this.pendingBytes === 0) return;
    const piece = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.failed !== null) return;
    try {
      this.parser.push(piece);
    } catch (err) {
      this.failed = err ?? new Error('the ingress parser failed');
    }
  }
}
