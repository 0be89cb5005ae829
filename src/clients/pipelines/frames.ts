/**
 * The egress framing of the reference: a chunked response carrying JSON objects
 * `{"sequence_number": N, "json_data": [...]}` (or `text_data` for CSV), each followed by `\r\n`;
 * keep-alives are `{"sequence_number": N}` with no data. A snapshot answer is one such object.
 * Pure: give it chunks as they arrive (split anywhere), get frames back. Rows are read digit-exact: a number a JS
 * number would print with other digits (BIGINT beyond 2^53, a long DECIMAL) is a JsonNumber (core/json-exact.ts).
 */
import { StringDecoder } from 'node:string_decoder';
import { JsonNumber, parseJsonExact } from '../../core/json-exact.js';
import { JsonScanner, JsonSyntaxError, type ScannedValue } from './json-scanner.js';
import type { Change, EgressFrame } from './types.js';

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

export function parseFrame(text: string, fast?: ScannedValue): EgressFrame {
  let value: unknown;
  if (fast?.parsed) value = fast.value;
  else {
    try {
      value = parseJsonExact(text);
    } catch (err) {
      throw new FrameError(`the server sent a frame that is not JSON (${(err as Error).message}): ${text.slice(0, 80)}`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new FrameError(`the server sent a frame that is not an object: ${text.slice(0, 80)}`);
  const obj = value as Record<string, unknown>;
  const seq = typeof obj.sequence_number === 'number' ? obj.sequence_number : null;
  const json = obj.json_data;
  const textData = typeof obj.text_data === 'string' ? obj.text_data : undefined;
  const keepAlive = (json === undefined || json === null) && textData === undefined && (obj.bin_data === undefined || obj.bin_data === null);
  let changes: Change[] = [];
  if (Array.isArray(json)) changes = json as Change[];
  else if (json && typeof json === 'object' && !(json instanceof JsonNumber)) changes = [json as Change];
  const frame: EgressFrame = { sequenceNumber: seq, keepAlive, changes, raw: text };
  if (textData !== undefined) frame.text = textData;
  if (typeof obj.snapshot === 'boolean') frame.snapshot = obj.snapshot;
  return frame;
}

/** Incremental reader of egress frames. */
export class FrameReader {
  private readonly scanner = new JsonScanner();

  push(chunk: Buffer | string): EgressFrame[] {
    return this.wrap(() => this.scanner.pushValues(chunk)).map((v) => parseFrame(v.text, v));
  }

  end(): EgressFrame[] {
    return this.wrap(() => this.scanner.endValues()).map((v) => parseFrame(v.text));
  }

  private wrap(fn: () => ScannedValue[]): ScannedValue[] {
    try {
      return fn();
    } catch (err) {
      if (err instanceof JsonSyntaxError) throw new FrameError(`the server sent a malformed frame: ${err.message}`);
      throw err;
    }
  }
}

/** Read frames from a byte stream as they arrive. */
export async function* readFrames(body: AsyncIterable<Buffer | string>): AsyncGenerator<EgressFrame> {
  const reader = new FrameReader();
  for await (const chunk of body) yield* reader.push(chunk);
  yield* reader.end();
}

/** Splits a text stream into lines (for logs), chunk boundaries anywhere, `\r\n` or `\n`. */
export class LineReader {
  private rest = '';
  private readonly decoder = new StringDecoder('utf8');

  push(chunk: Buffer | string): string[] {
    const text = this.rest + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const parts = text.split('\n');
    this.rest = parts.pop()!;
    return parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  }

  end(): string[] {
    const text = this.rest + this.decoder.end();
    this.rest = '';
    return text === '' ? [] : [text.endsWith('\r') ? text.slice(0, -1) : text];
  }
}
