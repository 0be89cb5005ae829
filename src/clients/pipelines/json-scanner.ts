/**
 * Splits a stream of text into top-level JSON values (objects or arrays) wherever the chunk boundaries
 * fall: back to back, separated by newlines, `\r\n` or any whitespace. Strings and escapes are tracked so
 * that braces inside strings do not count. Bytes are decoded with a StringDecoder, so a UTF-8 character
 * split across two chunks is kept whole. Linear in the input: each character is looked at once.
 *
 * Fast path: between values, a complete line that parses as JSON on its own (the usual one value per line)
 * is taken with one JSON.parse, without the character loop; its parsed value is handed out too.
 */
import { StringDecoder } from 'node:string_decoder';

export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface ScannedValue {
  text: string;
  /** Set when the fast path already parsed the text. */
  value?: unknown;
  parsed: boolean;
}

export class JsonScanner {
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  /** Index in buf of the start of the value being read (-1: between values). */
  private start = -1;
  private pos = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  /** Top-level scalars (numbers, strings, true/false/null) are accepted when allowed. */
  private scalarEnd = -1;
  /** A syntax error found after some complete values: reported on the next call. */
  private pending?: JsonSyntaxError;

  constructor(private readonly options: { allowScalars?: boolean } = {}) {}

  /** Feed a chunk; returns the complete values' texts found so far. */
  push(chunk: Buffer | string): string[] {
    return this.pushValues(chunk).map((v) => v.text);
  }

  /** Feed a chunk; returns the complete values found so far, parsed when the fast path parsed them. */
  pushValues(chunk: Buffer | string): ScannedValue[] {
    if (this.pending) throw this.pending;
    this.buf += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    return this.scan();
  }

  endValues(): ScannedValue[] {
    return this.end().map((text) => ({ text, parsed: false }));
  }

  /** End of input: returns what is left; throws if a value is incomplete. */
  end(): string[] {
    if (this.pending) throw this.pending;
    this.buf += this.decoder.end();
    const out = this.scan().map((v) => v.text);
    if (this.start >= 0) {
      const rest = this.buf.slice(this.start).trim();
      if (this.scalarEnd >= 0 || (this.depth === 0 && !this.inString && rest !== '')) {
        out.push(rest);
      } else if (rest !== '') {
        throw new JsonSyntaxError(`the input ends inside a JSON value: ${rest.slice(0, 60)}${rest.length > 60 ? '…' : ''}`);
      }
    }
    this.buf = '';
    this.start = -1;
    this.pos = 0;
    return out;
  }

  private scan(): ScannedValue[] {
    const out: ScannedValue[] = [];
    const buf = this.buf;
    for (let i = this.pos; i < buf.length; i++) {
      const ch = buf.charCodeAt(i);
      if (this.start < 0) {
        if (ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09 || ch === 0xfeff) continue;
        if (ch === 0x7b || ch === 0x5b) {
          const nl = buf.indexOf('\n', i);
          if (nl > 0) {
            const line = buf.slice(i, buf.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl).trimEnd();
            const last = line.charCodeAt(line.length - 1);
            if (last === 0x7d || last === 0x5d) {
              try {
                out.push({ text: line, value: JSON.parse(line), parsed: true });
                i = nl;
                continue;
              } catch {
                // not one value on its own: scan it character by character
              }
            }
          }
        }
        this.start = i;
        if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
          this.depth = 1;
          continue;
        }
        if (!this.options.allowScalars) {
          const err = new JsonSyntaxError(`expected a JSON object or array, found ${JSON.stringify(buf.slice(i, i + 20))}`);
          if (out.length === 0) throw err;
          // Hand out the values before the error first; the error comes with the next call.
          this.pending = err;
          this.buf = '';
          this.start = -1;
          this.pos = 0;
          return out;
        }
        this.depth = 0;
        if (ch === 0x22 /* " */) this.inString = true;
        this.scalarEnd = i;
        continue;
      }
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (ch === 0x5c /* \ */) this.escape = true;
        else if (ch === 0x22) {
          this.inString = false;
          if (this.depth === 0) {
            out.push({ text: buf.slice(this.start, i + 1), parsed: false });
            this.reset();
          }
        }
        continue;
      }
      if (this.scalarEnd >= 0) {
        // a bare number / literal ends at whitespace or the start of another value
        if (ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09 || ch === 0x7b || ch === 0x5b || ch === 0x22) {
          out.push({ text: buf.slice(this.start, i), parsed: false });
          this.reset();
          i--;
        }
        continue;
      }
      if (ch === 0x22) this.inString = true;
      else if (ch === 0x7b || ch === 0x5b) this.depth++;
      else if (ch === 0x7d || ch === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          out.push({ text: buf.slice(this.start, i + 1), parsed: false });
          this.reset();
        }
      }
    }
    // Keep only the unfinished value.
    if (this.start < 0) {
      this.buf = '';
      this.pos = 0;
    } else {
      this.buf = buf.slice(this.start);
      this.pos = this.buf.length;
      this.scalarEnd = this.scalarEnd >= 0 ? 0 : -1;
      this.start = 0;
    }
    return out;
  }

  private reset(): void {
    this.start = -1;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.scalarEnd = -1;
  }
}
