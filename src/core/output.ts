/**
 * The one place that prints command results: a table on a terminal, tab-separated values when piped,
 * JSON with --json (an array for lists, one object for an item), NDJSON for streams. Server text is
 * sanitised of control characters in table and TSV modes (JSON escapes them by itself). A number read with
 * every digit (a JsonNumber, core/json-exact.ts) is printed with those digits in every format.
 */
import type Table from 'cli-table3';
import { Chalk, type ChalkInstance } from 'chalk';
import type { Io } from './io.js';
import { writeAll } from './io.js';
import { sanitize } from './sanitize.js';
import { JsonNumber, jsonText } from './json-exact.js';

export type OutputFormat = 'table' | 'tsv' | 'json';

export interface Column<T = Record<string, unknown>> {
  /** Header on a terminal (upper-cased). */
  header: string;
  /** Value for table/TSV output. Defaults to row[key]. */
  get?: (row: T) => unknown;
  /** Key into the row when `get` is not given. */
  key?: string;
  /** Give way first when the table is too wide (e.g. URLs, descriptions). */
  shrink?: boolean;
  /** Left out of a terminal table that is too wide even after shrinking (still in TSV and --json). */
  optional?: boolean;
  /** Styling on a terminal only (applied after truncation). */
  style?: (text: string, row: T, c: ChalkInstance) => string;
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return sanitize(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  return sanitize(jsonText(value));
}

export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width === 1) return '…';
  return chars.slice(0, width - 1).join('') + '…';
}

export class Output {
  readonly format: OutputFormat;
  readonly c: ChalkInstance;
  readonly cErr: ChalkInstance;

  constructor(
    private readonly io: Io,
    options: { json?: boolean } = {},
  ) {
    this.format = options.json ? 'json' : io.stdoutIsTTY ? 'table' : 'tsv';
    this.c = new Chalk({ level: io.colorOut ? 1 : 0 });
    this.cErr = new Chalk({ level: io.colorErr ? 1 : 0 });
  }

  get json(): boolean {
    return this.format === 'json';
  }

  /** Print a list of records. `raw` is what --json prints (defaults to the rows themselves). */
  async list<T>(rows: readonly T[], columns: Column<T>[], raw: unknown = rows): Promise<void> {
    if (this.format === 'json') return this.writeJson(raw);
    if (this.format === 'tsv') return this.write(this.tsvLines(rows, columns));
    if (rows.length === 0) return;
    const TableClass = await loadTable();
    await this.write(this.render(TableClass, rows, this.layout(rows, columns), true) + '\n');
  }

  /** Print one record: key/value lines on a terminal and in TSV, the object with --json. */
  async item<T>(row: T, fields: Column<T>[], raw: unknown = row): Promise<void> {
    if (this.format === 'json') return this.writeJson(raw);
    const lines = fields.map((f) => {
      const value = cellText(valueOf(row, f));
      return this.format === 'tsv' ? `${f.header}\t${value}` : `${this.c.bold(f.header.padEnd(labelWidth(fields)))}  ${f.style ? f.style(value, row, this.c) : value}`;
    });
    await this.write(lines.join('\n') + '\n');
  }

  /** Rows for a stream of pages (--all): table/TSV rows printed per chunk; JSON printed as one array, opened and closed here. */
  listStream<T>(columns: Column<T>[]): { push(rows: readonly T[], raw?: readonly unknown[]): Promise<void>; end(): Promise<void> } {
    let first = true;
    // a terminal table keeps the columns and widths of its first chunk, so later rows line up under it
    let layout: TableLayout<T> | undefined;
    return {
      push: async (rows, raw = rows) => {
        if (this.format === 'json') {
          const parts = raw.map((r) => jsonText(r));
          if (parts.length === 0) return;
          await this.write((first ? '[\n' : ',\n') + parts.join(',\n'));
          first = false;
        } else if (this.format === 'tsv') {
          await this.write(this.tsvLines(rows, columns));
        } else if (rows.length > 0) {
          layout ??= this.layout(rows, columns, true);
          const TableClass = await loadTable();
          await this.write(this.render(TableClass, rows, layout, first) + '\n');
          first = false;
        }
      },
      end: async () => {
        if (this.format === 'json') await this.write(first ? '[]\n' : '\n]\n');
      },
    };
  }

  /** One JSON value on one line (a stream record). */
  ndjson(value: unknown): Promise<void> {
    return this.write(jsonText(value) + '\n');
  }

  /** Pretty JSON. */
  writeJson(value: unknown): Promise<void> {
    return this.write(jsonText(value, 2) + '\n');
  }

  /** Raw text to stdout. */
  write(text: string): Promise<void> {
    if (text === '') return Promise.resolve();
    return writeAll(this.io.stdout, text);
  }

  /** A message for people (stderr). Suppressed nowhere: keep them rare. */
  info(text: string): void {
    this.io.stderr.write(text + '\n');
  }

  success(text: string): void {
    this.io.stderr.write(`${this.cErr.green('✓')} ${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.warnText(text)}\n`);
  }

  /** A warning as warn() prints it, without the newline (for a line that is redrawn, e.g. a countdown). */
  warnText(text: string): string {
    return `${this.cErr.yellow('!')} ${text}`;
  }

  private tsvLines<T>(rows: readonly T[], columns: Column<T>[]): string {
    return rows.map((row) => columns.map((col) => cellText(valueOf(row, col)).replace(/\t/g, ' ')).join('\t') + '\n').join('');
  }

  /**
   * Which columns a terminal table shows and how wide: widths from the content, shrinkable columns cut to fit
   * the terminal, then optional columns left out (rightmost first) while it is still too wide. A streamed
   * table gives the rest of the width to its last column when that one is shrinkable, for the rows still to come.
   */
  private layout<T>(rows: readonly T[], all: Column<T>[], streamed = false): TableLayout<T> {
    let columns = all;
    for (;;) {
      const widths = columns.map((col) => Math.max(col.header.length, ...rows.map((row) => displayWidth(cellText(valueOf(row, col))))));
      fitWidths(widths, columns, this.io.columns);
      const used = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
      const optional = columns.map((c, i) => (c.optional ? i : -1)).filter((i) => i >= 0);
      if (used > this.io.columns && optional.length > 0) {
        const drop = optional[optional.length - 1]!;
        columns = columns.filter((_c, i) => i !== drop);
        continue;
      }
      // the last column, when shrinkable, may take the rest of the width for the rows still to come (its padding
      // is trimmed from each line); one in the middle keeps its width, or every line would carry a gap of spaces
      if (streamed && used < this.io.columns && this.io.columns < 10_000 && columns[columns.length - 1]?.shrink) widths[widths.length - 1]! += this.io.columns - used;
      return { columns, widths, streamed };
    }
  }

  private render<T>(TableClass: typeof Table, rows: readonly T[], { columns, widths, streamed }: TableLayout<T>, withHeader: boolean): string {
    const table = new TableClass({
      head: withHeader ? columns.map((col) => this.c.bold(col.header.toUpperCase())) : [],
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
      // a stream's chunks share fixed widths (plus the gap) so that they line up; a whole table sizes to its cells
      ...(streamed ? { colWidths: widths.map((w) => w + 2) } : {}),
      wordWrap: false,
    });
    for (const row of rows) {
      table.push(
        columns.map((col, i) => {
          const text = truncate(cellText(valueOf(row, col)), widths[i]!);
          return col.style ? col.style(text, row, this.c) : text;
        }),
      );
    }
    return table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  }
}

/** Columns a text takes on a terminal: East Asian wide characters and most emoji take two, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) continue;
    const wide =
      (cp >= 0x1100 && cp <= 0x115f) ||
      (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
      (cp >= 0xac00 && cp <= 0xd7a3) ||
      (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) ||
      (cp >= 0x1f300 && cp <= 0x1f64f) ||
      (cp >= 0x1f900 && cp <= 0x1f9ff) ||
      (cp >= 0x20000 && cp <= 0x3fffd);
    width += wide ? 2 : 1;
  }
  return width;
}

/** cli-table3 (with @colors/colors and string-width), loaded for the first terminal table: TSV and JSON output never need it. */
let tableClass: Promise<typeof Table> | undefined;
function loadTable(): Promise<typeof Table> {
  tableClass ??= import('cli-table3').then((m) => m.default);
  return tableClass;
}

interface TableLayout<T> {
  columns: Column<T>[];
  widths: number[];
  streamed: boolean;
}

function valueOf<T>(row: T, col: Column<T>): unknown {
  if (col.get) return col.get(row);
  if (col.key && row && typeof row === 'object') return (row as Record<string, unknown>)[col.key];
  return undefined;
}

function labelWidth<T>(fields: Column<T>[]): number {
  return Math.max(...fields.map((f) => f.header.length));
}

/** Shrink the shrinkable columns (widest first) until the row fits the terminal width. */
export function fitWidths<T>(widths: number[], columns: Column<T>[], total: number): void {
  const gap = 2;
  const used = () => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);
  let over = used() - total;
  const shrinkable = columns.map((c, i) => (c.shrink ? i : -1)).filter((i) => i >= 0);
  while (over > 0 && shrinkable.length > 0) {
    const widest = shrinkable.reduce((a, b) => (widths[b]! > widths[a]! ? b : a));
    const min = Math.max(columns[widest]!.header.length, 8);
    if (widths[widest]! <= min) {
      shrinkable.splice(shrinkable.indexOf(widest), 1);
      continue;
    }
    // Down to the next widest column first, so that several long columns (title, URL) share the cut.
    const next = Math.max(min, ...shrinkable.filter((i) => i !== widest).map((i) => widths[i]!));
    const cut = Math.min(over, Math.max(1, widths[widest]! - next), widths[widest]! - min);
    widths[widest]! -= cut;
    over -= cut;
  }
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};
