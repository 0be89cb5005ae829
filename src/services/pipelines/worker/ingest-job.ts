/**
 * One ingress request inside a pipeline's worker: the body's bytes go to the format's incremental parser
 * (ingress/stream.ts) as they arrive (push), so parsing runs while the rest of the body is still on its
 * way and memory follows the chunk, not the body; finish gives the parsed input of the whole body, which
 * the runtime applies as one step (all of it or nothing).
 *
 * A parser that throws on a chunk does not take the worker down: the error is kept and answered at the end.
 */
import type { TableBinding } from '../ingress/binding.js';
import type { IngressParser, ParsedInput } from '../ingress/parser.js';
import { newIngressParser } from '../ingress/stream.js';
import type { IngestSpec } from './protocol.js';

export class IngestJob {
  /** Bytes received so far. */
  bytes = 0;
  private readonly parser: IngressParser;
  /** An error the parser threw on a chunk: the request answers it at the end. */
  private failed: unknown = null;

  constructor(
    readonly spec: IngestSpec,
    binding: TableBinding,
  ) {
    this.parser = newIngressParser(spec.format, binding, { updateFormat: spec.updateFormat, array: spec.array });
  }

  push(chunk: Uint8Array): void {
    this.bytes += chunk.byteLength;
    if (this.failed !== null) return;
    try {
      this.parser.push(chunk);
    } catch (err) {
      this.failed = err ?? new Error('the ingress parser failed');
    }
  }

  /** The parsed input of the whole body (bad events are listed in its `errors`). */
  finish(): ParsedInput {
    if (this.failed !== null) throw this.failed;
    return this.parser.end();
  }
}
