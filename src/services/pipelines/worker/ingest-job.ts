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
 * The bytes are copied as they come into a piece buffer of the job's own (taken from a small pool of this
 * thread and given back at the end), so the caller may reuse its read buffers at once and a body costs no
 * allocation outside the JS heap per read or per piece: V8 counts such memory and collects the whole heap past
 * a threshold of it (see RowBatch.release for the same reason).
 *
 * A parser that throws on a chunk does not take the worker down: the error is kept and answered at the end.
 */
import type { TableBinding } from './ingress/binding.js';
import type { IngressParser, ParsedInput } from './ingress/parser.js';
import { newIngressParser } from './ingress/stream.js';
import type { IngestSpec } from '../shared/protocol.js';

/** Bytes gathered before the parser takes them (fewer at the end of the body). */
export const PARSE_PIECE_BYTES = 256 * 1024;

/** Piece buffers of ended jobs, for the next jobs (a few: requests in progress at once are few). */
const spare: Buffer[] = [];
const MAX_SPARE = 8;

export class IngestJob {
  /** Bytes received so far. */
  bytes = 0;
  private readonly parser: IngressParser;
  /** An error the parser threw on a chunk: the request answers it at the end. */
  private failed: unknown = null;
  /** Bytes not yet given to the parser, copied here as they came (null until the first). */
  private piece: Buffer | null = null;
  private pieceBytes = 0;

  constructor(
    readonly spec: IngestSpec,
    binding: TableBinding,
  ) {
    this.parser = newIngressParser(spec.format, binding, { updateFormat: spec.updateFormat, array: spec.array });
  }

  /** Body bytes, copied (the caller may reuse its buffer once this returns). */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.failed !== null) return;
    let at = 0;
    while (at < chunk.byteLength) {
      const piece = (this.piece ??= spare.pop() ?? Buffer.allocUnsafeSlow(PARSE_PIECE_BYTES));
      const take = Math.min(PARSE_PIECE_BYTES - this.pieceBytes, chunk.byteLength - at);
      piece.set(at === 0 && take === chunk.byteLength ? chunk : chunk.subarray(at, at + take), this.pieceBytes);
      this.pieceBytes += take;
      at += take;
      if (this.pieceBytes === PARSE_PIECE_BYTES) this.parsePending();
    }
  }

  /** The parsed input of the whole body (bad events are listed in its `errors`). */
  finish(): ParsedInput {
    this.parsePending();
    this.dispose();
    if (this.failed !== null) throw this.failed;
    return this.parser.end();
  }

  /** Gives the piece buffer back (the job ends: finished, or dropped unfinished). */
  dispose(): void {
    if (this.piece !== null && spare.length < MAX_SPARE) spare.push(this.piece);
    this.piece = null;
    this.pieceBytes = 0;
  }

  private parsePending(): void {
    if (this.pieceBytes === 0 || this.piece === null) return;
    const bytes = this.pieceBytes;
    this.pieceBytes = 0;
    if (this.failed !== null) return;
    try {
      // the parser copies what it keeps (IngressParser.push): the piece is refilled once this returns
      this.parser.push(this.piece.subarray(0, bytes));
    } catch (err) {
      this.failed = err ?? new Error('the ingress parser failed');
    }
  }
}
