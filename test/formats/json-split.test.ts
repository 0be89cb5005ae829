/**
 * The shared streaming JSON splitter (src/formats/json-split.ts), by properties: the values of any JSON
 * values written back to back with any separators come out whole and in order, whatever the chunking and
 * whether the line path or the splitter takes them; array mode gives the elements; nesting over the limit
 * is flagged without JSON.parse; and the client adapter (JsonScanner) agrees.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonScanner, JsonSyntaxError } from '../../src/clients/pipelines/json-scanner.js';
import { parseJsonExact } from '../../src/core/json-exact.js';
import { JsonValueReader, splitJson, type JsonReaderOptions, type SegmentFlaw } from '../../src/formats/json-split.js';

interface Found {
  value: unknown;
  line: number;
  flaw: SegmentFlaw;
}

function read(chunks: string[], options: JsonReaderOptions): { found: Found[]; unterminated: unknown } {
  const found: Found[] = [];
  const reader = new JsonValueReader(options, {
    parsed: (value, line) => found.push({ value, line, flaw: null }),
    text: (text, line, flaw) => found.push({ value: flaw ? text : JSON.parse(text), line, flaw }),
  });
  for (const c of chunks) reader.push(c);
  return { found, unterminated: reader.end().unterminated };
}

function cut(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

const container = fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }));
const separator = fc.constantFrom('', '\n', '\r\n', ' ', '\n\n', '\t');
const layout = fc.constantFrom<'compact' | 'pretty'>('compact', 'pretty');

describe('formats/json-split: properties', () => {
  it('values back to back come out whole, in order, with their lines, whatever the chunking and path', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(container, separator, layout), { maxLength: 6 }), fc.array(fc.nat(400), { maxLength: 5 }), fc.boolean(), (items, cuts, shortLines) => {
        let text = '';
        const expected: { value: unknown; line: number }[] = [];
        for (const [value, sep, how] of items) {
          expected.push({ value, line: 1 + (text.match(/\n/g) ?? []).length });
          text += (how === 'pretty' ? JSON.stringify(value, null, 2) : JSON.stringify(value)) + (sep === '' && how === 'compact' ? '' : sep || '\n');
        }
        // -0 and 0 are one JSON number; compare as JSON reads them back
        const want = expected.map((e) => ({ value: JSON.parse(JSON.stringify(e.value)), line: e.line, flaw: null }));
        const got = read(cut(text, cuts), { maxLine: shortLines ? 4 : undefined });
        expect(got).toEqual({ found: want, unterminated: null });
      }),
      { numRuns: 400 },
    );
  });

  it('array mode gives the elements of top-level arrays; a value that is not an array is flagged', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), { maxLength: 4 }), fc.array(fc.nat(200), { maxLength: 4 }), fc.boolean(), (arrays, cuts, shortLines) => {
        const text = arrays.map((a) => JSON.stringify(a)).join('\n');
        const got = read(cut(text, cuts), { array: true, maxLine: shortLines ? 2 : undefined });
        expect(got.found.map((f) => f.value)).toEqual(JSON.parse(JSON.stringify(arrays.flat())));
      }),
      { numRuns: 300 },
    );
    expect(read(['[1,2]\n{"a":1}\n'], { array: true }).found.map((f) => f.flaw)).toEqual([null, null, 'not_array']);
  });

  it('nesting deeper than maxDepth is flagged, never parsed, on both paths', () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    for (const maxLine of [10, undefined]) {
      const got = read([deep, '\n{"ok":1}\n'], { maxDepth: 64, maxLine });
      expect(got.found.map((f) => f.flaw)).toEqual(['too_deep', null]);
      expect(got.found[1]).toEqual({ value: { ok: 1 }, line: 2, flaw: null });
    }
  });

  it('an unfinished value is reported with the line where it began; a stray bracket is one bad value', () => {
    expect(read(['{"a":1}\n{"b":', '[1'], {})).toMatchObject({ found: [{ value: { a: 1 } }], unterminated: { line: 2, text: '{"b":[1' } });
    expect(read(['{"a":1}}\n'], { maxLine: 1 }).found.map((f) => f.flaw)).toEqual([null, 'unexpected_close']);
    expect(splitJson('1 "x" {"a":[1,2]}').length).toBe(3);
  });
});

describe('the client adapter, JsonScanner', () => {
  it('gives the same values as the reader for any chunking, by bytes (a UTF-8 character cut in two)', () => {
    fc.assert(
      fc.property(fc.array(container, { maxLength: 5 }), fc.array(fc.nat(300), { maxLength: 5 }), (values, cuts) => {
        values = [{ bike: '🚲é' }, ...values];
        const bytes = Buffer.from('\uFEFF' + values.map((v) => JSON.stringify(v)).join('\r\n'));
        const scanner = new JsonScanner();
        const out: unknown[] = [];
        let from = 0;
        for (const c of [...cuts].sort((a, b) => a - b)) {
          const to = Math.min(c, bytes.length);
          out.push(...scanner.pushValues(bytes.subarray(from, Math.max(from, to))).map((v) => (v.parsed ? v.value : parseJsonExact(v.text))));
          from = Math.max(from, to);
        }
        out.push(...scanner.pushValues(bytes.subarray(from)).map((v) => (v.parsed ? v.value : parseJsonExact(v.text))));
        out.push(...scanner.endValues().map((v) => parseJsonExact(v.text)));
        // the scanner reads digit-exact (a number beyond 2^53 as a JsonNumber), as the CLI's exact reader does
        expect(out).toEqual(parseJsonExact(JSON.stringify(values)));
      }),
      { numRuns: 300 },
    );
  });

  it('a top-level scalar is an error after the values before it, unless allowed', () => {
    const s = new JsonScanner();
    expect(s.push('{"a":1}\n42\n{"b":2}\n')).toEqual(['{"a":1}']);
    expect(() => s.push('')).toThrow(JsonSyntaxError);
    expect(new JsonScanner({ allowScalars: true }).push('1 "two" [3]\n')).toEqual(['1', '"two"', '[3]']);
    expect(new JsonScanner().end()).toEqual([]);
    const open = new JsonScanner();
    open.push('{"a":');
    expect(() => open.end()).toThrow(/ends inside a JSON value/);
  });
});
