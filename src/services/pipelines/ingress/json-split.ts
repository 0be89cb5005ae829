/**
 * Splitting a body of concatenated JSON values (newline-delimited or back to back: `{…}{…}`) and
 * locating the elements of top-level arrays, with the 1-based line where each begins.
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
      }
      else if (c === 10) line++;
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
  if (inString || level > 0)
    throw new SplitError('unexpected end of input (unterminated JSON value)', segStart >= 0 ? segLine : line, n);
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
