/**
 * The top-level JSON values (objects or arrays) of a stream of text, wherever the chunk boundaries fall:
 * back to back, separated by newlines, `\r\n` or any whitespace. A thin adapter over the shared
 * JsonValueReader (src/formats/json-split.ts, as the server's ingress uses it): linear in the input, only
 * the value in progress kept, a whole line parsed at once when it is one value (its parsed value handed out
 * too). Bytes are decoded with a StringDecoder, so a UTF-8 character split across two chunks is kept whole;
 * a byte order mark at the start is skipped. Values are read digit-exact (core/json-exact.ts): a number a JS
 * number would print with other digits comes out as a JsonNumber; a caller parsing a value's text uses
 * parseJsonExact too.
 * Rules: a top-level scalar (number, string, literal) is an error unless `allowScalars`; a stray closing
 * bracket is an error; values found before an error are handed out first and the error comes with the
 * next call; an input that ends inside a value is an error.
 */
import { StringDecoder } from 'node:string_decoder';
import { JsonValueReader, type SegmentFlaw } from '../../formats/json-split.js';
import { parseJsonExact } from '../../core/json-exact.js';

export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface ScannedValue {
  text: string;
  /** Set when the line path already parsed the text. */
  value?: unknown;
  parsed: boolean;
}

const isContainer = (value: unknown) => value !== null && typeof value === 'object';

export class JsonScanner {
  private readonly decoder = new StringDecoder('utf8');
  private readonly reader: JsonValueReader;
  private out: ScannedValue[] = [];
  private started = false;
  /** A syntax error found after some complete values: reported on the next call. */
  private pending?: JsonSyntaxError;

  constructor(private readonly options: { allowScalars?: boolean } = {}) {
    this.reader = new JsonValueReader({ parse: parseJsonExact }, { parsed: (value, _line, text) => this.parsed(value, text), text: (text, _line, flaw) => this.found(text, flaw) });
  }

  /** Feed a chunk; returns the complete values' texts found so far. */
  push(chunk: Buffer | string): string[] {
    return this.pushValues(chunk).map((v) => v.text);
  }

  /** Feed a chunk; returns the complete values found so far, parsed when the line path parsed them. */
  pushValues(chunk: Buffer | string): ScannedValue[] {
    if (this.pending) throw this.pending;
    this.feed(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    return this.take();
  }

  endValues(): ScannedValue[] {
    if (this.pending) throw this.pending;
    this.feed(this.decoder.end());
    const { unterminated } = this.reader.end();
    if (unterminated && !this.pending) {
      const rest = unterminated.text.trim();
      this.fail(`the input ends inside a JSON value: ${rest.slice(0, 60)}${rest.length > 60 ? '…' : ''}`);
    }
    return this.take();
  }

  /** End of input: returns what is left; throws if a value is incomplete. */
  end(): string[] {
    return this.endValues().map((v) => v.text);
  }

  private feed(text: string): void {
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text !== '') this.reader.push(text);
  }

  private take(): ScannedValue[] {
    const out = this.out;
    this.out = [];
    if (this.pending && out.length === 0) throw this.pending;
    return out;
  }

  private parsed(value: unknown, text: string): void {
    if (this.pending) return;
    if (!isContainer(value) && !this.options.allowScalars) return this.fail(`expected a JSON object or array, found ${JSON.stringify(text.trim().slice(0, 20))}`);
    this.out.push({ text: text.trim(), value, parsed: true });
  }

  private found(text: string, flaw: SegmentFlaw): void {
    if (this.pending) return;
    const first = text.charCodeAt(0);
    if (flaw === 'unexpected_close' || (!this.options.allowScalars && first !== 0x7b && first !== 0x5b)) {
      return this.fail(`expected a JSON object or array, found ${JSON.stringify(text.slice(0, 20))}`);
    }
    this.out.push({ text, parsed: false });
  }

  private fail(message: string): void {
    this.pending = new JsonSyntaxError(message);
  }
}
