/**
 * The shared CSV reader/writer (src/formats/csv.ts), by properties: what the writer writes reads back as the
 * same fields in any dialect; a text cut into chunks anywhere reads exactly as the whole text; and the rules
 * in the header, by example.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvReader, parseCsvRows, splitCsv, writeCsvField, writeCsvRecord, type CsvDialect, type CsvRecord } from '../../src/formats/csv.js';

/** Characters that exercise every rule: both dialects' delimiters and quotes, line breaks, spaces. */
const tricky = fc.constantFrom('a', 'b', 'é', '🚲', ' ', ',', ';', '"', "'", '\n', '\r', '\t');
const field = fc.array(tricky, { maxLength: 6 }).map((cs) => cs.join(''));
const rows = fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { maxLength: 6 });
const dialects: CsvDialect[] = [{}, { delimiter: ';', quote: "'" }, { delimiter: '\t' }];

function readInChunks(text: string, cuts: number[], dialect: CsvDialect = {}): { records: CsvRecord[]; error?: unknown } {
  const reader = new CsvReader(dialect);
  const records: CsvRecord[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    records.push(...reader.push(text.slice(from, Math.max(from, cut))));
    from = Math.max(from, cut);
  }
  records.push(...reader.push(text.slice(from)));
  const last = reader.end();
  return { records: [...records, ...last.records], error: last.error };
}

describe('formats/csv: properties', () => {
  it('what the writer writes reads back as the same fields, in every dialect and line ending', () => {
    fc.assert(
      fc.property(rows, fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.constantFrom(...dialects), (data, eol, finalEol, dialect) => {
        const options = { delimiter: dialect.delimiter, quote: dialect.quote, quoteEmpty: true };
        const text = data.map((r) => writeCsvRecord(r, options)).join(eol) + (finalEol && data.length ? eol : '');
        expect(parseCsvRows(text, dialect)).toEqual(data);
      }),
      { numRuns: 400 },
    );
  });

  it('a text cut into chunks anywhere reads exactly as the whole text (records, lines, texts, errors)', () => {
    fc.assert(
      fc.property(
        fc.array(tricky, { maxLength: 40 }).map((c) => c.join('')),
        fc.array(fc.nat(45), { maxLength: 6 }),
        fc.constantFrom(...dialects),
        (text, cuts, dialect) => {
          const whole = splitCsv(text, dialect);
          expect(readInChunks(text, cuts, dialect)).toEqual({ records: whole.records, error: whole.error });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("the records' texts put together are the input, less skipped blank lines", () => {
    fc.assert(
      fc.property(
        fc.array(tricky, { maxLength: 40 }).map((c) => c.join('')),
        (text) => {
          const { records, error } = splitCsv(text, { keepBlankLines: true });
          fc.pre(!error);
          expect(records.map((r) => r.text).join('')).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("each record's line is one more than the line breaks before it", () => {
    // \r is left out here: outside quotes \r\n and a lone \r count once (by example below); inside quotes only \n counts
    const noCr = fc.constantFrom('a', ' ', ',', '"', '\n', 'é');
    fc.assert(
      fc.property(
        fc.array(noCr, { maxLength: 40 }).map((c) => c.join('')),
        (text) => {
          const { records } = splitCsv(text, { keepBlankLines: true });
          let before = '';
          for (const r of records) {
            expect(r.line).toBe(1 + (before.match(/\n/g) ?? []).length);
            before += r.text;
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(splitCsv('a\rb\r\nc\n"x\ry"\nd', { keepBlankLines: true }).records.map((r) => r.line)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('formats/csv: rules by example', () => {
  it('reads quoting, doubled quotes, line breaks in quotes, and marks quoted fields', () => {
    const { records } = splitCsv('20,,foo\n25,"",x\n1,"a,""b""\nc",z\n');
    expect(records.map((r) => r.fields)).toEqual([
      ['20', '', 'foo'],
      ['25', '', 'x'],
      ['1', 'a,"b"\nc', 'z'],
    ]);
    expect(records[1]!.quoted).toEqual([false, true, false]);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
    expect(records[2]!.text).toBe('1,"a,""b""\nc",z\n');
  });

  it('a quote inside an unquoted field is a character; text after a closing quote is dropped', () => {
    expect(parseCsvRows('a"b,c\n"x"y,z')).toEqual([
      ['a"b', 'c'],
      ['x', 'z'],
    ]);
  });

  it('skips blank lines unless asked; a trailing delimiter is one more empty field', () => {
    expect(parseCsvRows('a\n\n\r\nb,\n')).toEqual([['a'], ['b', '']]);
    expect(parseCsvRows('a\n\nb', { keepBlankLines: true })).toEqual([['a'], [''], ['b']]);
  });

  it('an unterminated quoted field is an error naming the line where its record starts', () => {
    expect(splitCsv('1,2\n3,"abc\ndef\n')).toMatchObject({ records: [{ fields: ['1', '2'] }], error: { message: 'unterminated quoted field', line: 2 } });
    expect(() => parseCsvRows('"x')).toThrow(/unterminated/);
  });

  it('a \\r\\n split between chunks stays one line break of the record before it', () => {
    const reader = new CsvReader();
    expect(reader.push('a,b\r')).toEqual([]);
    expect(reader.push('\nc')).toEqual([{ fields: ['a', 'b'], quoted: [false, false], line: 1, text: 'a,b\r\n' }]);
    expect(reader.end().records).toEqual([{ fields: ['c'], quoted: [false], line: 2, text: 'c' }]);
  });

  it('the writer quotes only where needed, and by option empty fields and edge spaces', () => {
    expect(writeCsvField('plain')).toBe('plain');
    expect(writeCsvField('a,b')).toBe('"a,b"');
    expect(writeCsvField('say "hi"')).toBe('"say ""hi"""');
    expect(writeCsvField('two\nlines')).toBe('"two\nlines"');
    expect(writeCsvField('')).toBe('');
    expect(writeCsvField('', { quoteEmpty: true })).toBe('""');
    expect(writeCsvField(' pad')).toBe(' pad');
    expect(writeCsvField(' pad', { quoteEdgeSpace: true })).toBe('" pad"');
    expect(writeCsvRecord(["it's", 'a;b', 'c'], { delimiter: ';', quote: "'" })).toBe("'it''s';'a;b';c");
  });

  it('refuses a dialect it cannot read', () => {
    expect(() => new CsvReader({ delimiter: ';;' })).toThrow(/one character/);
    expect(() => new CsvReader({ delimiter: '"' })).toThrow(/differ/);
    expect(() => new CsvReader({ quote: '\n' })).toThrow(/line breaks/);
  });
});
