/**
 * CSV, read and written once for client and server (RFC 4180 with dialect options). Pure: text in, records out.
 * Reading rules:
 * - records end at `\n`, `\r\n` or a lone `\r` outside quotes (each one line); a missing final line break is
 *   fine; inside a quoted field only `\n` counts as a line;
 * - a field is quoted only when its first character is the quote; inside, a doubled quote is one quote and
 *   line breaks are kept; characters after the closing quote up to the delimiter are dropped; a quote in the
 *   middle of an unquoted field is an ordinary character;
 * - a blank line (one empty unquoted field) is skipped unless `keepBlankLines`;
 * - an input that ends inside a quoted field is an error naming the line where that record started.
 * CsvReader is incremental: push() the text in chunks of any size, each call gives the records it completed;
 * the reader keeps only the unfinished record, so memory follows one record, not the input. Reading a text
 * whole (splitCsv) and in chunks gives the same records.
 * Writing: a field is quoted when it holds the delimiter, the quote or a line break (or, by option, when it
 * is empty or starts or ends with white space), its quotes doubled.
 */

export interface CsvDialect {
  /** Field separator, one character (default `,`). */
  delimiter?: string;
  /** Quote character, one character (default `"`). */
  quote?: string;
  /** Give blank lines as records of one empty field instead of skipping them. */
  keepBlankLines?: boolean;
}

export interface CsvRecord {
  fields: string[];
  /** Whether each field was quoted (an empty unquoted field may mean NULL to a reader). */
  quoted: boolean[];
  /** 1-based line where the record starts. */
  line: number;
  /** The record's text as read, its line break included. */
  text: string;
}

export interface CsvSyntaxError {
  message: string;
  /** 1-based line where the faulty record starts. */
  line: number;
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvError';
  }
}

const enum State {
  /** At the start of a field. */
  FieldStart,
  /** Inside an unquoted field. */
  Unquoted,
  /** Inside a quoted field. */
  Quoted,
  /** Just after a quote inside a quoted field: a second quote, or the end of the field. */
  QuoteInQuoted,
  /** After a quoted field's closing quote, dropping characters up to the delimiter or line end. */
  AfterQuoted,
  /** A record ended with `\r` at the end of a chunk: a `\n` starting the next chunk belongs to it. */
  AfterCr,
}

function oneChar(value: string | undefined, fallback: string, what: string): number {
  const c = value ?? fallback;
  if (c.length !== 1) throw new Error(`the CSV ${what} must be one character, got ${JSON.stringify(c)}`);
  return c.charCodeAt(0);
}

/** The incremental reader: push text in chunks, take the completed records of each; end() finishes. */
export class CsvReader {
  private readonly delimiter: number;
  private readonly quote: number;
  private readonly keepBlank: boolean;
  private state = State.FieldStart;
  private fields: string[] = [];
  private quoted: boolean[] = [];
  private field = '';
  /** Text of the unfinished record read so far (earlier chunks). */
  private recordText = '';
  /** Line where the unfinished record starts, and the current line. */
  private recordLine = 1;
  private line = 1;
  private ended = false;

  constructor(dialect: CsvDialect = {}) {
    this.delimiter = oneChar(dialect.delimiter, ',', 'delimiter');
    this.quote = oneChar(dialect.quote, '"', 'quote');
    if (this.delimiter === this.quote) throw new Error('the CSV delimiter and quote must differ');
    if ([10, 13].includes(this.delimiter) || [10, 13].includes(this.quote)) throw new Error('the CSV delimiter and quote cannot be line breaks');
    this.keepBlank = dialect.keepBlankLines ?? false;
  }

  /** Complete lines read so far (`\r\n` counts once). */
  get lines(): number {
    return this.line - 1;
  }

  /** True when the text so far ends inside a quoted field. */
  get inQuotes(): boolean {
    return this.state === State.Quoted || this.state === State.QuoteInQuoted;
  }

  /** Reads the next chunk; returns the records it completed. */
  push(text: string): CsvRecord[] {
    if (this.ended) throw new Error('CsvReader: push after end');
    const out: CsvRecord[] = [];
    const D = this.delimiter;
    const Q = this.quote;
    const n = text.length;
    let recordStart = 0;
    let i = 0;
    let state = this.state;
    while (i < n) {
      switch (state) {
        case State.AfterCr: {
          if (text.charCodeAt(i) === 10) i++;
          this.emit(out, this.recordText + text.slice(0, i));
          recordStart = i;
          state = State.FieldStart;
          break;
        }
        case State.FieldStart: {
          if (text.charCodeAt(i) === Q) {
            this.quoted.push(true);
            state = State.Quoted;
            i++;
          } else {
            this.quoted.push(false);
            state = State.Unquoted;
          }
          break;
        }
        case State.Unquoted:
        case State.AfterQuoted: {
          let j = i;
          while (j < n) {
            const c = text.charCodeAt(j);
            if (c === D || c === 10 || c === 13) break;
            j++;
          }
          if (state === State.Unquoted) this.field += text.slice(i, j);
          i = j;
          if (i >= n) break;
          const c = text.charCodeAt(i++);
          this.fields.push(this.field);
          this.field = '';
          if (c === D) {
            state = State.FieldStart;
            break;
          }
          this.line++;
          if (c === 13) {
            if (i >= n) {
              state = State.AfterCr; // the next chunk may start with the \n of this \r\n
              break;
            }
            if (text.charCodeAt(i) === 10) i++;
          }
          this.emit(out, this.recordText + text.slice(recordStart, i));
          recordStart = i;
          state = State.FieldStart;
          break;
        }
        case State.Quoted: {
          const j = text.indexOf(String.fromCharCode(Q), i);
          const end = j < 0 ? n : j;
          for (let k = text.indexOf('\n', i); k >= 0 && k < end; k = text.indexOf('\n', k + 1)) this.line++;
          this.field += text.slice(i, end);
          i = end;
          if (j >= 0) {
            i++;
            state = State.QuoteInQuoted;
          }
          break;
        }
        case State.QuoteInQuoted: {
          if (text.charCodeAt(i) === Q) {
            this.field += text[i];
            i++;
            state = State.Quoted;
          } else state = State.AfterQuoted;
          break;
        }
      }
    }
    this.state = state;
    this.recordText = recordStart === 0 ? this.recordText + text : text.slice(recordStart);
    return out;
  }

  /** The end of the input: the last record, or the error of an unfinished quoted field. */
  end(): { records: CsvRecord[]; error?: CsvSyntaxError } {
    const out: CsvRecord[] = [];
    if (this.ended) return { records: out };
    this.ended = true;
    const state = this.state;
    if (state === State.Quoted) return { records: out, error: { message: 'unterminated quoted field', line: this.recordLine } };
    if (state === State.AfterCr) {
      this.emit(out, this.recordText);
      return { records: out };
    }
    if (state === State.FieldStart) {
      if (this.fields.length === 0) return { records: out }; // nothing after the last line break
      this.quoted.push(false); // a trailing delimiter: one more empty field
    }
    this.fields.push(this.field);
    this.field = '';
    this.emit(out, this.recordText);
    this.recordText = '';
    return { records: out };
  }

  private emit(out: CsvRecord[], text: string): void {
    const fields = this.fields;
    const quoted = this.quoted;
    this.fields = [];
    this.quoted = [];
    this.recordText = '';
    const record: CsvRecord = { fields, quoted, line: this.recordLine, text };
    this.recordLine = this.line;
    if (!this.keepBlank && fields.length === 1 && fields[0] === '' && !quoted[0]) return;
    out.push(record);
  }
}

/** Splits a whole CSV text into records (as CsvReader does in one push). */
export function splitCsv(text: string, dialect: CsvDialect = {}): { records: CsvRecord[]; error?: CsvSyntaxError; lines: number } {
  const reader = new CsvReader(dialect);
  const records = reader.push(text);
  const last = reader.end();
  records.push(...last.records);
  return { records, error: last.error, lines: reader.lines };
}

/** The fields of each record of a whole CSV text; an unterminated quoted field throws CsvError. */
export function parseCsvRows(text: string, dialect: CsvDialect = {}): string[][] {
  const { records, error } = splitCsv(text, dialect);
  if (error) throw new CsvError(error.message, error.line);
  return records.map((r) => r.fields);
}

export interface CsvWriteOptions {
  delimiter?: string;
  quote?: string;
  /** Quote an empty field (`""`), so that a reader tells it from an empty unquoted field (NULL). */
  quoteEmpty?: boolean;
  /** Quote a field that starts or ends with white space (so that spreadsheets keep it). */
  quoteEdgeSpace?: boolean;
}

/** One field as CSV writes it. */
export function writeCsvField(text: string, options: CsvWriteOptions = {}): string {
  const d = options.delimiter ?? ',';
  const q = options.quote ?? '"';
  const needs =
    text.includes(d) || text.includes(q) || text.includes('\n') || text.includes('\r') || (options.quoteEmpty === true && text === '') || (options.quoteEdgeSpace === true && /^\s|\s$/.test(text));
  return needs ? q + text.split(q).join(q + q) + q : text;
}

/** One record (without its line break) of these fields. */
export function writeCsvRecord(fields: readonly string[], options: CsvWriteOptions = {}): string {
  let line = '';
  const d = options.delimiter ?? ',';
  for (let i = 0; i < fields.length; i++) line += (i ? d : '') + writeCsvField(fields[i]!, options);
  return line;
}
