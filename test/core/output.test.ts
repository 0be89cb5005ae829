import { describe, expect, it } from 'vitest';
import { Output, displayWidth, fitWidths, truncate, type Column } from '../../src/core/output.js';
import { memoryIo } from '../helpers/memory-io.js';

interface Row {
  id: number;
  title: string;
  url: string;
}
const rows: Row[] = [
  { id: 1, title: 'Example \u001b[31mred\u001b[0m', url: 'https://example.com/a/very/long/path/that/goes/on/and/on/and/on/forever' },
  { id: 22, title: 'Tab\there', url: 'https://b.example' },
];
const columns: Column<Row>[] = [
  { header: 'id', key: 'id' },
  { header: 'title', key: 'title' },
  { header: 'url', key: 'url', shrink: true },
];

describe('Output', () => {
  it('prints tab-separated rows without a header when piped, sanitised', async () => {
    const io = memoryIo({ tty: false });
    await new Output(io).list(rows, columns);
    expect(io.stdoutText()).toBe('1\tExample red\thttps://example.com/a/very/long/path/that/goes/on/and/on/and/on/forever\n22\tTab here\thttps://b.example\n');
  });

  it('prints a table with upper-case headers on a terminal, shortening URLs to the width', async () => {
    const io = memoryIo({ tty: true, columns: 50 });
    await new Output(io).list(rows, columns);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+URL$/);
    expect(lines[1]).toContain('Example red');
    expect(lines[1]).toContain('…');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(50);
  });

  it('prints the raw records as a JSON array with --json, and one object for an item', async () => {
    const io = memoryIo({ tty: true });
    const out = new Output(io, { json: true });
    await out.list(rows, columns);
    expect(JSON.parse(io.stdoutText())).toEqual(rows);
    const io2 = memoryIo();
    await new Output(io2, { json: true }).item(rows[0], columns);
    expect(JSON.parse(io2.stdoutText())).toEqual(rows[0]);
  });

  it('streams pages as one valid JSON array, and as TSV rows', async () => {
    const io = memoryIo();
    const stream = new Output(io, { json: true }).listStream(columns);
    await stream.push([rows[0]!]);
    await stream.push([]);
    await stream.push([rows[1]!]);
    await stream.end();
    expect(JSON.parse(io.stdoutText())).toEqual(rows);
    const empty = memoryIo();
    const s2 = new Output(empty, { json: true }).listStream(columns);
    await s2.end();
    expect(JSON.parse(empty.stdoutText())).toEqual([]);
    const tsv = memoryIo();
    const s3 = new Output(tsv).listStream(columns);
    await s3.push(rows);
    await s3.end();
    expect(tsv.stdoutText().split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('writes NDJSON one line per record', async () => {
    const io = memoryIo();
    const out = new Output(io);
    await out.ndjson({ a: 1 });
    await out.ndjson({ b: 'x\ny' });
    expect(io.stdoutText()).toBe('{"a":1}\n{"b":"x\\ny"}\n');
  });

  it('prints item fields as key/value lines (TSV when piped)', async () => {
    const io = memoryIo();
    await new Output(io).item(rows[1]!, columns);
    expect(io.stdoutText()).toBe('id\t22\ntitle\tTab here\nurl\thttps://b.example\n');
  });

  it('sends messages to stderr, never stdout', async () => {
    const io = memoryIo();
    const out = new Output(io);
    out.info('hello');
    out.warn('careful');
    out.success('done');
    expect(io.stdoutText()).toBe('');
    expect(io.stderrText()).toBe('hello\n! careful\n✓ done\n');
  });

  it('colours only when the io allows it', async () => {
    const plain = memoryIo({ tty: true, color: false });
    await new Output(plain).list(rows, columns);
    expect(plain.stdoutText()).not.toContain('\u001b[');
    const coloured = memoryIo({ tty: true, color: true });
    await new Output(coloured).list(rows, columns);
    expect(coloured.stdoutText()).toContain('\u001b[1m');
  });
});

describe('truncate and fitWidths', () => {
  it('truncates by characters with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('日本語です', 3)).toBe('日本…');
  });
  it('shrinks only shrinkable columns, widest first, not below their minimum', () => {
    const widths = [5, 40, 60];
    fitWidths(widths, [{ header: 'a' }, { header: 'b', shrink: true }, { header: 'c', shrink: true }], 80);
    expect(widths[0]).toBe(5);
    expect(widths.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(80);
    const tight = [5, 40];
    fitWidths(tight, [{ header: 'a' }, { header: 'bbbbbbbbbbbb', shrink: true }], 10);
    expect(tight[1]).toBe(12);
  });
});

describe('terminal tables that must fit', () => {
  const columnStarts = (line: string) => [...line.matchAll(/(?<=^| {2})\S/g)].map((m) => m.index);

  it('a streamed table keeps the widths of its first chunk, so rows pushed one by one line up', async () => {
    const io = memoryIo({ tty: true, columns: 80 });
    const out = new Output(io);
    const stream = out.listStream<{ id: string; status: string; error: string }>([
      { header: 'id', key: 'id' },
      { header: 'status', key: 'status' },
      { header: 'error', key: 'error', shrink: true },
    ]);
    await stream.push([{ id: 'evt_1', status: '200', error: '' }]);
    await stream.push([{ id: 'evt_2', status: 'error', error: 'connect ECONNREFUSED 127.0.0.1:9 and a lot more text than fits in eighty columns' }]);
    await stream.push([{ id: 'evt_3', status: '500', error: 'boom' }]);
    await stream.end();
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map(columnStarts)).toEqual([
      [0, 7, 15],
      [0, 7],
      [0, 7, 15],
      [0, 7, 15],
    ]);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[2]).toMatch(/…$/);
  });

  it('a streamed table on a wide terminal gives the rest of the width to no column in the middle', async () => {
    const io = memoryIo({ tty: true, columns: 200 });
    const stream = new Output(io).listStream<{ id: number; url: string; status: string }>([
      { header: 'id', key: 'id' },
      { header: 'url', key: 'url', shrink: true },
      { header: 'status', key: 'status' },
    ]);
    await stream.push([{ id: 1, url: 'https://example.com/a', status: 'ok' }]);
    await stream.push([{ id: 2, url: 'https://example.com/bb', status: 'broken' }]);
    await stream.end();
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toBe('ID  URL                    STATUS');
    expect(lines[1]).toBe('1   https://example.com/a  ok');
    // the URL column keeps its first chunk's width (it took the rest of the 200 columns, a gap in every line)
    for (const l of lines) expect(l.length).toBeLessThan(40);
    expect(lines[2]).toBe('2   https://example.com/…  broken');
  });

  it('leaves out optional columns when shrinking is not enough (TSV keeps them)', async () => {
    const rows = [{ id: 'dlv_0123456789abcdef0123', event: 'evt_0123456789abcdef01234567', when: '2026-11-24T08:55:55.349Z', url: 'http://127.0.0.1:9/receiver' }];
    const columns = [
      { header: 'id', key: 'id' },
      { header: 'event', key: 'event', optional: true },
      { header: 'when', key: 'when' },
      { header: 'url', key: 'url', shrink: true },
    ];
    const narrow = memoryIo({ tty: true, columns: 60 });
    await new Output(narrow).list(rows, columns);
    expect(narrow.stdoutText().split('\n')[0]).toMatch(/^ID\s+WHEN\s+URL$/);
    const wide = memoryIo({ tty: true, columns: 120 });
    await new Output(wide).list(rows, columns);
    expect(wide.stdoutText().split('\n')[0]).toMatch(/^ID\s+EVENT\s+WHEN\s+URL$/);
    const piped = memoryIo({ tty: false });
    await new Output(piped).list(rows, columns);
    expect(piped.stdoutText().split('\t')).toHaveLength(4);
  });
});

describe('display width', () => {
  it('counts wide characters twice and combining marks not at all; a streamed table keeps them whole', async () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('Première — 一')).toBe(13); // 12 characters, 一 takes two columns
    expect(displayWidth('e\u0301')).toBe(1);
    const io = memoryIo({ tty: true, columns: 80 });
    const stream = new Output(io).listStream<{ t: string; n: number }>([
      { header: 'title', key: 't', shrink: true },
      { header: 'n', key: 'n' },
    ]);
    await stream.push([{ t: 'Première — 一', n: 1 }]);
    await stream.push([{ t: 'Two', n: 2 }]);
    await stream.end();
    expect(io.stdoutText()).toContain('Première — 一');
  });
});
