/**
 * The fast path of JSON ingress (update format `raw`): a whole line of flat rows, `{"a": 1, "b": "x"}` one
 * or more a line or, with array=true, `[{...}, {...}]`, scanned character by character straight into the
 * table's RowBatch: no JSON.parse, no object per row, no key strings for known keys beyond a slice.
 *
 * Rules: exact or nothing. A line is taken only when every value on it is one this scanner reads exactly as
 * JSON.parse would (strings without control characters, escapes through JSON.parse of the literal alone,
 * numbers of JSON's grammar through Number() of their literal text, true/false/null) and every row
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

export class JsonFastRows {
  private readonly vals: unknown[];
  private readonly seen: Uint8Array;
  private readonly rowOp: 'insert' | 'upsert';
  private s = '';
  private p = 0;
  /** The keys met at each position of the last rows, with their columns: rows usually repeat them, and a key that matches is read without a slice. */
  private readonly keys: string[] = [];
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
   * Takes one whole line (its events all on line `line`) into `sink`; false, with nothing kept, when the
   * line needs the general path.
   */
  line(text: string, line: number, sink: ParsedSink): boolean {
    const mark = sink.mark();
    this.s = text;
    this.p = 0;
    try {
      this.scan(line, sink);
      return true;
    } catch (err) {
      if (err !== GIVE_UP && !(err instanceof RowError)) throw err;
      sink.rollback(mark);
      return false;
    } finally {
      this.s = '';
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
        if (s.charCodeAt(this.p) !== 91 /* [ */) throw GIVE_UP;
        this.p++;
        this.ws();
        if (s.charCodeAt(this.p) === 93 /* ] */) this.p++;
        else
          for (;;) {
            this.row(line, sink);
            this.ws();
            const c = s.charCodeAt(this.p++);
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
      const c = s.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.p = p;
  }

  /** One row object: an event, and its full row into the batch. */
  private row(line: number, sink: ParsedSink): void {
    const s = this.s;
    if (s.charCodeAt(this.p) !== 123 /* { */) throw GIVE_UP;
    this.p++;
    const seen = this.seen;
    const vals = this.vals;
    for (let i = 0; i < seen.length; i++) seen[i] = 0;
    this.ws();
    if (s.charCodeAt(this.p) === 125 /* } */) this.p++;
    else
      for (let k = 0; ; k++) {
        if (s.charCodeAt(this.p) !== 34 /* " */) throw GIVE_UP;
        const col = this.key(k);
        this.ws();
        if (s.charCodeAt(this.p) !== 58 /* : */) throw GIVE_UP;
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
        const c = s.charCodeAt(this.p++);
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
      if (s.charCodeAt(from + n) === 34) {
        let i = 0;
        while (i < n && s.charCodeAt(from + i) === known.charCodeAt(i)) i++;
        if (i === n) {
          this.p = from + n + 1;
          return this.keyCols[k]!;
        }
      }
    }
    const end = this.plainStringEnd(from);
    if (end < 0) throw GIVE_UP; // a key with escapes: the general path
    const key = s.slice(from, end);
    const col = this.binding.column(key);
    if (k < 64) {
      this.keys[k] = key;
      this.keyCols[k] = col;
    }
    this.p = end + 1;
    return col;
  }

  /** A scalar value at p, read exactly as JSON.parse reads it. */
  private value(): unknown {
    const s = this.s;
    const p = this.p;
    const c = s.charCodeAt(p);
    if (c === 34 /* " */) {
      const end = this.plainStringEnd(p + 1);
      if (end >= 0) {
        this.p = end + 1;
        return s.slice(p + 1, end);
      }
      return this.escapedString(p);
    }
    if (c === 45 /* - */ || (c >= 48 && c <= 57)) return this.number(p);
    if (c === 116 /* t */ && s.startsWith('true', p)) {
      this.p = p + 4;
      return true;
    }
    if (c === 102 /* f */ && s.startsWith('false', p)) {
      this.p = p + 5;
      return false;
    }
    if (c === 110 /* n */ && s.startsWith('null', p)) {
      this.p = p + 4;
      return null;
    }
    throw GIVE_UP; // nested values, syntax errors
  }

  /** The closing quote of a string whose text starts at `from`; -1 when it has an escape; gives up on a control character or no end. */
  private plainStringEnd(from: number): number {
    const s = this.s;
    const q = s.indexOf('"', from);
    if (q < 0) throw GIVE_UP;
    for (let i = from; i < q; i++) {
      const c = s.charCodeAt(i);
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
      const c = s.charCodeAt(i);
      if (Number.isNaN(c) || c < 32) throw GIVE_UP;
      if (c === 92) i += 2;
      else if (c === 34) break;
      else i++;
    }
    let v: unknown;
    try {
      v = JSON.parse(s.slice(p, i + 1));
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
    if (s.charCodeAt(p) === 45) {
      neg = true;
      p++;
    }
    let c = s.charCodeAt(p);
    let int = 0;
    let digits = 0;
    if (c === 48) {
      p++;
      digits = 1;
    } else if (c >= 49 && c <= 57) {
      while (c >= 48 && c <= 57) {
        int = int * 10 + (c - 48);
        digits++;
        c = s.charCodeAt(++p);
      }
    } else throw GIVE_UP;
    c = s.charCodeAt(p);
    let fraction = 0;
    if (c === 46 /* . */) {
      c = s.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) throw GIVE_UP;
      while (c >= 48 && c <= 57) {
        int = int * 10 + (c - 48);
        digits++;
        fraction++;
        c = s.charCodeAt(++p);
      }
    }
    let exponent = false;
    if (c === 101 || c === 69 /* e E */) {
      exponent = true;
      c = s.charCodeAt(++p);
      if (c === 43 || c === 45) c = s.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) throw GIVE_UP;
      while (c >= 48 && c <= 57) c = s.charCodeAt(++p);
    }
    if (digits > 15) throw GIVE_UP;
    this.p = p;
    if (exponent) return Number(s.slice(start, p));
    // at most 15 digits: the digits and 10^fraction are exact doubles, so one division is correctly rounded
    const v = fraction === 0 ? int : int / POW10[fraction]!;
    return neg ? -v : v;
  }
}
