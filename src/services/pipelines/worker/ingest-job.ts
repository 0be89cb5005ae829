/**
 * One ingress request inside a pipeline's worker: the body's bytes as they arrive (push), then the
 * parsed input of the whole body (finish), which the runtime applies as one step.
 *
 * This is the one place where the worker meets the ingress parsers. Today's parsers read the whole text,
 * so the bytes are decoded as they come and parsed at the end; incremental parsers (chunks in, bounded
 * memory) plug in here without changing the worker's protocol.
 */
import { TextDecoder } from 'node:util';
import type { TableBinding } from '../ingress/binding.js';
import { parseCsvInput } from '../ingress/csv.js';
import { parseJsonInput, type ParsedInput } from '../ingress/json.js';
import type { IngestSpec } from './protocol.js';

export class IngestJob {
  /** Bytes received so far. */
  bytes = 0;
  private parts: string[] = [];
  // the BOM is kept, as Buffer.toString('utf8') kept it before bodies were streamed
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(readonly spec: IngestSpec) {}

  push(chunk: Uint8Array): void {
    this.parts.push(this.decoder.decode(chunk, { stream: true }));
    this.bytes += chunk.byteLength;
  }

  /** The parsed input of the whole body (bad events are listed in its `errors`). */
  finish(binding: TableBinding): ParsedInput {
    this.parts.push(this.decoder.decode());
    const text = this.parts.join('');
    this.parts = [];
    return this.spec.format === 'csv'
      ? parseCsvInput(text, binding)
      : parseJsonInput(text, binding, { updateFormat: this.spec.updateFormat, array: this.spec.array });
  }
}
