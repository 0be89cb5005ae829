/**
 * The fast path of JSON ingress (update format `raw`): a whole line of flat rows, `{"a": 1, "b": "x"}` one
 * or more a line or, with array=true, `[{...}, {...}]`, scanned byte by byte (UTF-8, never decoded as a
 * whole) straight into the table's RowBatch: no JSON.parse, no object per row, no string for a known key.
 *
 * Rules: exact or nothing. A line is taken only when every value on it is one this scanner reads exactly as
 * JSON.parse would (strings without control characters, escapes through JSON.parse of the literal alone,
 * numbers of JSON's grammar, true/false/null; a string's bytes decoded on their own, which gives what
 * decoding them in the body gives since a quote is never part of a multi-byte character) and every row
 * converts without error through the binding's one converter per column (TableBinding.putRow). Anything
 * else (a nested value, a syntax error, a bad row, a number longer than 15 digits, which the general path
 * keeps as it decides) makes the scan give the line up: its events and rows are rolled back and the caller
 * hands the line to the general path (JsonValueReader), which gives the results and the errors of today.
 */
import type { RowBatch } from '../../../engine/index.js';
import { RowError, type TableBinding } from './binding.js';
import type { ParsedSink } from './parser.js';

/** 10^0 .. 10^15, exact doubles. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);

/** Thrown inside the scan: the line is not for the fast path. */
const GIVE_UP = Symbol('give up');

/** A string's bytes alone (a U+FEFF at their start is a character, not a byte order mark). */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Buffer's own Latin-1 reader (ASCII bytes here), without toString's argument checks. */
type Latin1 = { latin1Slice(start: number, end: number): string };

const EMPTY = Buffer.alloc(0);

/** The byte at i, or -1 past the end (so that no test of a byte value matches there). */
function at(s: Buffer, i: number): number {
  return i < s.length ? s[i]! : -1;
}
const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];
const NULL = [110, 117, 108, 108];

export class JsonFastRows {
  private readonly vals: unknown[];
  private readonly seen: Uint8Array;
  private readonly rowOp: 'insert' | 'upsert';
  private s: Buffer = Buffer.alloc(0);
  private p = 0;
  /** The keys (their bytes) met at each position of the last rows, with their columns: rows usually repeat them, and a key that matches is read without a string. */
  private readonly keys: Uint8Array[] = [];
  private readonly keyCols: number[] = [];

  constructor(
    private readonly binding: TableBinding,
    private readonly array: boolean,
  ) {
    this.vals = new Array(binding.names.length).fill(null);
    this.seen = new Uint8Array(binding.names.length);
    this.rowOp = binding.hasKey ? 'upsert' : 'insert';
  }

  /**
   * Takes one whole line of UTF-8 (its events all on line `line`) into `sink`; false, with nothing kept,
   * when the line needs the general path.
   */
  line(bytes: Buffer, line: number, sink: ParsedSink): boolean {
    const mark = sink.mark();
    this.s = bytes;
    this.p = 0;
    try {
      this.scan(line, sink);
      return true;
    } catch (err) {
      if (err !== GIVE_UP && !(err instanceof RowError)) throw err;
      sink.rollback(mark);
      return false;
    } finally {
      this.s = EMPTY;
    }
  }

  private scan(line: number, sink: ParsedSink): void {
    const s = this.s;
    const n = s.length;
    this.ws();
    while (this.p < n) {
      if (!this.array) {
        this.row(line, sink);
      } else {
        if (at(s, this.p) !== 91 /* [ */) throw GIVE_UP;
        this.p++;
        this.ws();
        if (at(s, this.p) === 93 /* ] */) this.p++;
        else
          for (;;) {
            this.row(line, sink);
            this.ws();
            const c = at(s, this.p++);
            if (c === 44 /* , */) {
              this.ws();
              continue;
            }
            if (c === 93 /* ] */) break;
            throw GIVE_UP;
          }
      }
      this.ws();
    }
  }

  private ws(): void {
    const s = this.s;
    let p = this.p;
    for (;;) {
      const c = at(s, p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.p = p;
  }

  /** One row object: an event, and its full row into the batch. */
  private row(line: number, sink: ParsedSink): void {
    const s = this.s;
    if (at(s, this.p) !== 123 /* { */) throw GIVE_UP;
    this.p++;
    const seen = this.seen;
    const vals = this.vals;
    for (let i = 0; i < seen.length; i++) seen[i] = 0;
    this.ws();
    if (at(s, this.p) === 125 /* } */) this.p++;
    else
      for (let k = 0; ; k++) {
        if (at(s, this.p) !== 34 /* " */) throw GIVE_UP;
        const col = this.key(k);
        this.ws();
        if (at(s, this.p) !== 58 /* : */) throw GIVE_UP;
        this.p++;
        this.ws();
        const v = this.value();
        if (col >= 0) {
          // a column named twice (`"a"` and `"A"`): JSON.parse's order of keys decides; the general path
          if (seen[col] === 1) throw GIVE_UP;
          vals[col] = v;
          seen[col] = 1;
        }
        this.ws();
        const c = at(s, this.p++);
        if (c === 44 /* , */) {
          this.ws();
          continue;
        }
        if (c === 125 /* } */) break;
        throw GIVE_UP;
      }
    const ev = sink.event(line);
    const batch: RowBatch = sink.batch(this.binding.engineTable, this.rowOp, vals.length);
    this.binding.putRow(vals, seen, batch); // a RowError gives the line up
    sink.batchRow(ev);
  }

  /** The key at p (the k-th of its row) and its column (-1: not a column). */
  private key(k: number): number {
    const s = this.s;
    const from = this.p + 1;
    const known = this.keys[k];
    if (known !== undefined) {
      const n = known.length;
      if (at(s, from + n) === 34) {
        let i = 0;
        while (i < n && at(s, from + i) === known[i]) i++;
        if (i === n) {
          this.p = from + n + 1;
          return this.keyCols[k]!;
        }
      }
    }
    const end = this.plainStringEnd(from);
    if (end < 0) throw GIVE_UP; // a key with escapes: the general path
    const col = this.binding.column(this.text(from, end));
    if (k < 64) {
      this.keys[k] = new Uint8Array(s.subarray(from, end)); // a copy: the line's buffer is not kept
      this.keyCols[k] = col;
    }
    this.p = end + 1;
    return col;
  }

  /** A scalar value at p, read exactly as JSON.parse reads it. */
  private value(): unknown {
    const s = this.s;
    const p = this.p;
    const c = at(s, p);
    if (c === 34 /* " */) {
      const end = this.plainStringEnd(p + 1);
      if (end >= 0) {
        this.p = end + 1;
        return this.text(p + 1, end);
      }
      return this.escapedString(p);
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) return this.number(p);
    if (c === 116 /* t */ && this.word(TRUE)) return true;
    if (c === 102 /* f */ && this.word(FALSE)) return false;
    if (c === 110 /* n */ && this.word(NULL)) return null;
    throw GIVE_UP; // nested values, syntax errors
  }

  /** The literal `w` at p (then p moves past it). */
  private word(w: number[]): boolean {
    const s = this.s;
    const p = this.p;
    for (let i = 0; i < w.length; i++) if (at(s, p + i) !== w[i]) return false;
    this.p = p + w.length;
    return true;
  }

  /** Bytes [from, end) of a string without escapes as text: ASCII at once, anything else through UTF-8 decoding. */
  private text(from: number, end: number): string {
    const s = this.s;
    for (let i = from; i < end; i++) if (s[i]! >= 0x80) return utf8.decode(s.subarray(from, end));
    return (s as unknown as Latin1).latin1Slice(from, end);
  }

  /** The closing quote of a string whose text starts at `from`; -1 when it has an escape; gives up on a control character or no end. */
  private plainStringEnd(from: number): number {
    const s = this.s;
    const q = s.indexOf(34, from);
    if (q < 0) throw GIVE_UP;
    for (let i = from; i < q; i++) {
      const c = s[i]!;
      if (c < 32) throw GIVE_UP;
      if (c === 92 /* \ */) return -1;
    }
    return q;
  }

  /** A string with escapes: its literal alone through JSON.parse (which checks the escapes). */
  private escapedString(p: number): string {
    const s = this.s;
    let i = p + 1;
    for (;;) {
      const c = at(s, i);
      if (c < 32) throw GIVE_UP; // a control character, or the end of the line
      if (c === 92) i += 2;
      else if (c === 34) break;
      else i++;
    }
    let v: unknown;
    try {
      v = JSON.parse(utf8.decode(s.subarray(p, i + 1)));
    } catch {
      throw GIVE_UP;
    }
    this.p = i + 1;
    return v as string;
  }

  /**
   * A number of JSON's grammar (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), valued as JSON.parse values
   * it: digits / 10^fraction (both exact below 16 digits, so the quotient is the correctly rounded double),
   * or with an exponent Number() of its literal text. A literal of more than 15 digits is left to the
   * general path (there the codec decides what it keeps of it; see the int64 work on exact BIGINT).
   */
  private number(start: number): number {
    const s = this.s;
    let p = start;
    let neg = false;
    if (at(s, p) === 45) {
      neg = true;
      p++;
    }
    let c = at(s, p);
    let int = 0;
    let digits = 0;
    if (c === 48) {
      p++;
      digits = 1;
    } else if (c >= 49 && c <= 57) {
      while (c >= 48 && c <= 57) {
        int = int * 10 + (c - 48);
        digits++;
        c = at(s, ++p);
      }
    } else throw GIVE_UP;
    c = at(s, p);
    let fraction = 0;
    if (c === 46 /* . */) {
      c = at(s, ++p);
      if (!(c >= 48 && c <= 57)) throw GIVE_UP;
      while (c >= 48 && c <= 57) {
        int = int * 10 + (c - 48);
        digits++;
        fraction++;
        c = at(s, ++p);
      }
    }
    let exponent = false;
    if (c === 101 || c === 69 /* e E */) {
      exponent = true;
      c = at(s, ++p);
      if (c === 43 || c === 45) c = at(s, ++p);
      if (!(c >= 48 && c <= 57)) throw GIVE_UP;
      while (c >= 48 && c <= 57) c = at(s, ++p);
    }
    if (digits > 15) throw GIVE_UP;
    this.p = p;
    if (exponent) return Number((s as unknown as Latin1).latin1Slice(start, p));
    // at most 15 digits: the digits and 10^fraction are exact doubles, so one division is correctly rounded
    const v = fraction === 0 ? int : int / POW10[fraction]!;
    return neg ? -v : v;
  }
}
