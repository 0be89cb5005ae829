/**
 * Streaming JSON splitting, once for client and server: a text of concatenated JSON values (one per line,
 * back to back `{…}{…}`, or separated by any white space), or in array mode the elements of its top-level
 * arrays, found with the 1-based line where each begins. Pure: text in, values out; nothing is validated
 * here (JSON.parse does that), only strings, escapes and nesting are tracked.
 * Rules: JsonSplitter and JsonValueReader take the text in chunks cut anywhere and keep only the value in
 * progress (memory follows one value, not the text); both are linear in the text; nesting deeper than
 * `maxDepth` marks the value 'too_deep' and it is never handed to JSON.parse (no recursion can overflow);
 * a stray closing bracket is one bad value ('unexpected_close'); in array mode a top-level value that is
 * not an array is one bad value ('not_array').
 */

export interface Segment {
  start: number;
  end: number;
  line: number;
}

export class SplitError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly start: number,
  ) {
    super(message);
  }
}

/**
 * Top-level values of `text` (depth 0), or, with `depth = 1`, the elements of top-level arrays.
 * Scalars are allowed as values; strings and nesting are tracked, not validated (JSON.parse does that).
 */
export function splitJson(text: string, depth: 0 | 1 = 0): Segment[] {
  const out: Segment[] = [];
  let line = 1;
  let level = 0;
  let inString = false;
  let segStart = -1;
  let segLine = 0;
  const n = text.length;
  const open = (i: number) => {
    segStart = i;
    segLine = line;
  };
  const close = (end: number) => {
    if (segStart >= 0) out.push({ start: segStart, end, line: segLine });
    segStart = -1;
  };
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) {
        inString = false;
        if (level === depth && segStart >= 0) close(i + 1);
      } else if (c === 10) line++;
      continue;
    }
    if (c === 10) {
      line++;
      if (level === depth && segStart >= 0 && isScalarStart(text.charCodeAt(segStart))) close(i);
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      if (level === depth && segStart >= 0 && isScalarStart(text.charCodeAt(segStart))) close(i);
      continue;
    }
    if (depth === 1 && level === 1 && c === 44 /* , */) {
      close(i);
      continue;
    }
    if (level === depth && segStart < 0 && c !== 125 && c !== 93) {
      if (depth === 1 || c !== 44) open(i);
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) level++;
    else if (c === 125 || c === 93) {
      level--;
      if (level < 0) throw new SplitError(`unexpected '${String.fromCharCode(c)}'`, line, i);
      if (level === depth) close(i + 1);
      else if (depth === 1 && level === 0) close(i);
    }
  }
  if (inString || level > 0) throw new SplitError('unexpected end of input (unterminated JSON value)', segStart >= 0 ? segLine : line, n);
  close(n);
  return out;
}

function isScalarStart(c: number): boolean {
  return c !== 123 && c !== 91 && c !== 34;
}

/** Line number (1-based) of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Why a value the incremental splitter found cannot be parsed as it is. */
export type SegmentFlaw = null | 'too_deep' | 'not_array' | 'unexpected_close';

/** Receives each value (or array element) found, with its 1-based first line. */
export type SegmentSink = (text: string, line: number, flaw: SegmentFlaw) => void;

/**
 * splitJson for a body that comes in pieces: the values of the body (or, in array mode, the elements
 * of its top-level arrays) go to `sink` as soon as they are complete. Nesting deeper than `maxDepth`
 * marks the value 'too_deep' (it is never handed to JSON.parse, so no recursion can overflow).
 * Only the text of the value in progress is kept between pieces.
 */
export class JsonSplitter {
  private level = 0;
  private inString = false;
  private escape = false;
  private line = 1;
  /** A value is in progress (its earlier text in `parts`, its start in the current piece at `segStart`). */
  private open = false;
  private parts: string[] = [];
  private segLine = 0;
  private scalar = false;
  private flaw: SegmentFlaw = null;
  /** Array mode: a top-level value that is not an array is being skipped as one bad value. */
  private target: 0 | 1;

  constructor(
    private readonly arrayMode: boolean,
    private readonly maxDepth: number,
    private readonly sink: SegmentSink,
  ) {
    this.target = arrayMode ? 1 : 0;
  }

  /** Between values, at the top: a whole line can be parsed on its own here. */
  get atTop(): boolean {
    return this.level === 0 && !this.open && !this.inString;
  }

  /** 1-based line of the next character. */
  get currentLine(): number {
    return this.line;
  }

  /** A line the caller parsed itself (see JsonParser's line path): counted, not scanned. */
  skipLine(): void {
    this.line++;
  }

  push(s: string): void {
    let segStart = this.open ? 0 : -1;
    const n = s.length;
    const start = (i: number, scalar: boolean) => {
      this.open = true;
      segStart = i;
      this.segLine = this.line;
      this.scalar = scalar;
    };
    const close = (end: number) => {
      if (!this.open) return;
      const text = this.parts.length ? this.parts.join('') + s.slice(Math.max(segStart, 0), end) : s.slice(segStart, end);
      this.parts = [];
      this.open = false;
      segStart = -1;
      const flaw = this.flaw;
      this.flaw = null;
      if (this.arrayMode) this.target = 1;
      this.sink(text, this.segLine, flaw);
    };
    // next backslash and line break at or after i (recomputed only once passed: linear overall)
    let backslashAt = -1;
    let newlineAt = -1;
    for (let i = 0; i < n; i++) {
      if (this.inString && !this.escape) {
        // inside a string only a quote, a backslash or a line break matters: jump to the first of them
        if (backslashAt < i) backslashAt = s.indexOf('\\', i) >>> 0;
        if (newlineAt < i) newlineAt = s.indexOf('\n', i) >>> 0;
        const quoteAt = s.indexOf('"', i) >>> 0;
        i = Math.min(quoteAt, backslashAt, newlineAt);
        if (i >= n) break;
      }
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92 /* \ */) this.escape = true;
        else if (c === 34 /* " */) {
          this.inString = false;
          if (this.level === this.target && this.open) close(i + 1);
        } else if (c === 10) this.line++;
        continue;
      }
      if (c === 10 || c === 32 || c === 9 || c === 13) {
        if (this.open && this.scalar && this.level === this.target) close(i);
        if (c === 10) this.line++;
        continue;
      }
      if (this.target === 1 && this.level === 1 && c === 44 /* , */) {
        close(i);
        continue;
      }
      const opening = c === 123 || c === 91 || c === 34;
      if (this.arrayMode && this.level === 0 && !this.open && c !== 91 && c !== 93 && c !== 125) {
        // array mode: a top-level value that is not an array is one bad value, taken whole
        this.target = 0;
        this.flaw = 'not_array';
        start(i, !opening);
      } else if (this.level === this.target && !this.open && c !== 125 && c !== 93 && (this.target === 1 || c !== 44)) {
        start(i, !opening);
      } else if (this.open && this.scalar && this.level === this.target && opening) {
        // a scalar runs into the next value (`1{"a":1}`): it ends here, the next one starts
        close(i);
        start(i, false);
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) {
        this.level++;
        if (this.level > this.maxDepth && this.open && this.flaw === null) this.flaw = 'too_deep';
      } else if (c === 125 || c === 93) {
        if (this.level === 0) {
          // a stray closing bracket: one bad value of its own
          if (!this.open) start(i, false);
          this.flaw = 'unexpected_close';
          close(i + 1);
          continue;
        }
        this.level--;
        if (this.level === this.target && this.open && !this.scalar) close(i + 1);
        else if (this.target === 1 && this.level === 0) close(i);
      }
    }
    if (this.open) this.parts.push(s.slice(Math.max(segStart, 0)));
  }

  /** The end of the body: the last value, or where an unterminated one began. */
  end(): { unterminated: { line: number; text: string } | null } {
    if (this.open && !this.inString && this.scalar && this.level === this.target) {
      const text = this.parts.join('');
      this.parts = [];
      this.open = false;
      const flaw = this.flaw;
      this.flaw = null;
      this.sink(text, this.segLine, flaw);
      return { unterminated: null };
    }
    if (this.open || this.inString || this.level > 0) {
      const text = this.parts.join('');
      this.parts = [];
      return { unterminated: { line: this.open ? this.segLine : this.line, text } };
    }
    return { unterminated: null };
  }
}

/** Whether a parsed value nests arrays and objects deeper than `max` (walked without recursion). */
export function depthOver(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > max) return true;
    if (Array.isArray(v)) {
      for (const child of v) {
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(d + 1);
        }
      }
    } else {
      for (const k in v) {
        const child = (v as Record<string, unknown>)[k];
        if (typeof child === 'object' && child !== null) {
          stack.push(child);
          depths.push(d + 1);
        }
      }
    }
  }
  return false;
}

export interface JsonReaderOptions {
  /** Give the elements of top-level arrays instead of the top-level values. */
  array?: boolean;
  /** Deepest nesting of arrays and objects accepted (deeper: a 'too_deep' value). */
  maxDepth?: number;
  /** Longest line held for the line path (beyond it, the line goes through the splitter). */
  maxLine?: number;
  /** The JSON parser of the line path (default JSON.parse; the pipeline ingress keeps 64-bit integers exact). */
  parse?: (text: string) => unknown;
}

export interface JsonReaderSink {
  /** A value the line path parsed (in array mode, each element of the line's array); `text` is its whole line. */
  parsed(value: unknown, line: number, text: string): void;
  /** A value's text the splitter found, to parse (or, with a flaw, to report). */
  text(text: string, line: number, flaw: SegmentFlaw): void;
}

/**
 * The values of a text that comes in chunks, fast: the line path gives a whole line that starts between
 * values to JSON.parse at once (the usual one value per line; its depth is then checked without recursion);
 * a line that does not parse so, or is longer than `maxLine`, goes through JsonSplitter, which finds each
 * value and each error precisely. Both paths give the same values with the same lines.
 */
export class JsonValueReader {
  private readonly splitter: JsonSplitter;
  private readonly array: boolean;
  private readonly maxDepth: number;
  private readonly maxLine: number;
  private readonly parse: (text: string) => unknown;
  private parts: string[] = [];
  private lineLength = 0;
  /** The rest of the current line goes to the splitter (it was too long to hold). */
  private longLine = false;

  constructor(
    options: JsonReaderOptions,
    private readonly sink: JsonReaderSink,
  ) {
    this.array = options.array ?? false;
    this.maxDepth = options.maxDepth ?? Infinity;
    this.maxLine = options.maxLine ?? 1024 * 1024;
    this.parse = options.parse ?? JSON.parse;
    this.splitter = new JsonSplitter(this.array, this.maxDepth, (text, line, flaw) => sink.text(text, line, flaw));
  }

  push(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        const rest = text.slice(start);
        if (this.longLine) this.splitter.push(rest);
        else if (this.lineLength + rest.length > this.maxLine) {
          this.longLine = true;
          this.splitter.push(this.take(rest));
        } else if (rest !== '') {
          this.parts.push(rest);
          this.lineLength += rest.length;
        }
        return;
      }
      const piece = text.slice(start, nl + 1);
      start = nl + 1;
      if (this.longLine) {
        this.longLine = false;
        this.splitter.push(piece);
      } else {
        const line = this.take(piece);
        if (!this.wholeLine(line)) this.splitter.push(line);
      }
    }
  }

  /** Between values, at the start of a line, holding nothing: a caller may take a whole line itself (then skipLine). */
  get idle(): boolean {
    return this.parts.length === 0 && !this.longLine && this.splitter.atTop;
  }

  /** 1-based line of the next text. */
  get currentLine(): number {
    return this.splitter.currentLine;
  }

  /** A whole line the caller took itself (while idle): counted, not read. */
  skipLine(): void {
    this.splitter.skipLine();
  }

  /** The end of the text: the last value, or where an unterminated one began (with its text so far). */
  end(): { unterminated: { line: number; text: string } | null } {
    if (this.longLine) this.longLine = false;
    else if (this.parts.length > 0) {
      const last = this.take('');
      if (!this.wholeLine(last)) this.splitter.push(last);
    }
    return this.splitter.end();
  }

  private take(last: string): string {
    const out = this.parts.length === 0 ? last : this.parts.join('') + last;
    this.parts = [];
    this.lineLength = 0;
    return out;
  }

  /** The line path: parses a whole line of values at once, when it can; false: use the splitter. */
  private wholeLine(line: string): boolean {
    if (!this.splitter.atTop) return false;
    let value: unknown;
    try {
      value = this.parse(line);
    } catch {
      return false; // blank, several values, part of a multi-line value, or a syntax error
    }
    if ((this.array && !Array.isArray(value)) || (this.maxDepth !== Infinity && depthOver(value, this.maxDepth))) return false;
    const lineNo = this.splitter.currentLine;
    this.splitter.skipLine();
    if (!this.array) this.sink.parsed(value, lineNo, line);
    else for (const v of value as unknown[]) this.sink.parsed(v, lineNo, line);
    return true;
  }
}
