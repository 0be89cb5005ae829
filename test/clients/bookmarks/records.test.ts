import { describe, expect, test } from 'vitest';
import { csvField, detectFormat, listField, parseCsv, parseRecords, RecordsError, toCsv } from '../../../src/clients/bookmarks/records.js';

describe('records', () => {
  test('detects the format', () => {
    expect(detectFormat('[{"a":1}]')).toBe('json');
    expect(detectFormat('{"a":1}\n{"a":2}\n')).toBe('ndjson');
    expect(detectFormat('{\n "a": 1\n}')).toBe('json');
    expect(detectFormat('url,title\n')).toBe('csv');
    expect(detectFormat('[]', 'x.csv')).toBe('csv');
    expect(detectFormat('', 'x.jsonl')).toBe('ndjson');
  });

  test('bare ids one per line (what `jq -c .[].id` prints) are ids, also a single one', () => {
    expect(detectFormat('25\n')).toBe('ndjson');
    expect(parseRecords('25\n')).toEqual([{ id: 25 }]);
    expect(parseRecords('25\n24\r\n\n"7"\n')).toEqual([{ id: 25 }, { id: 24 }, { id: 7 }]);
    expect(parseRecords('id\n25\n24\n')).toEqual([{ id: '25' }, { id: '24' }]);
  });

  test('JSON array, single object, bare ids', () => {
    expect(parseRecords('[{"url":"u"},3,"4"]')).toEqual([{ url: 'u' }, { id: 3 }, { id: 4 }]);
    expect(parseRecords('{"url":"u"}')).toEqual([{ url: 'u' }]);
    expect(() => parseRecords('[1,[2]]')).toThrow(RecordsError);
    expect(() => parseRecords('[', 'json')).toThrow(/not valid JSON/);
  });

  test('NDJSON with blank lines and a BOM; bad lines named', () => {
    expect(parseRecords('\uFEFF{"id":1}\n\n{"id":2}\r\n', 'ndjson')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(() => parseRecords('{"id":1}\n{oops}\n', 'ndjson')).toThrow(/line 2/);
  });

  test('CSV: quotes, doubled quotes, commas and newlines in fields, CRLF, empty cells omitted', () => {
    const text = 'url,title,tags\r\nhttps://a,"Hello, ""world""","x,y"\r\nhttps://b,"two\nlines",\r\n';
    expect(parseRecords(text, 'csv')).toEqual([
      { url: 'https://a', title: 'Hello, "world"', tags: 'x,y' },
      { url: 'https://b', title: 'two\nlines' },
    ]);
  });

  test('CSV errors', () => {
    expect(() => parseRecords('a,b\n1,2,3\n', 'csv')).toThrow(/3 fields/);
    expect(() => parseCsv('a,"b\n')).toThrow(/quoted/);
    expect(() => parseRecords('a,,b\n1,2,3\n', 'csv')).toThrow(/empty column/);
  });

  test('CSV writer round trips through the reader', () => {
    const rows = [
      { id: 1, title: 'a,b', note: 'say "hi"', tags: ['x', 'y'], empty: null },
      { id: 2, title: ' padded ', note: 'l1\nl2', tags: [], empty: undefined },
    ];
    const text = toCsv(['id', 'title', 'note', 'tags', 'empty'], rows);
    expect(parseRecords(text, 'csv')).toEqual([
      { id: '1', title: 'a,b', note: 'say "hi"', tags: 'x,y' },
      { id: '2', title: ' padded ', note: 'l1\nl2' },
    ]);
    expect(csvField('plain')).toBe('plain');
  });

  test('listField', () => {
    expect(listField('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(listField(['a', 2, { id: 3 }])).toEqual(['a', 2, 3]);
    expect(listField(undefined)).toBeUndefined();
  });
});
