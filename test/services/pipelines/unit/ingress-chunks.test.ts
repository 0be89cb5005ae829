/**
 * The incremental ingress parsers: a body cut into chunks anywhere (inside a UTF-8 character, a quoted
 * field, a string escape, a line break) parses exactly as the whole body; nesting over the limit is a
 * parse error naming it, with no recursion.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvParser } from '../../../../src/services/pipelines/worker/ingress/csv.js';
import { JsonParser, type JsonInputOptions } from '../../../../src/services/pipelines/worker/ingress/json.js';
import { MAX_JSON_DEPTH } from '../../../../src/services/pipelines/shared/ingress-limits.js';
import type { IngressParser, ParsedInput } from '../../../../src/services/pipelines/worker/ingress/parser.js';
import { tableBinding } from './schema.js';

const binding = () => tableBinding('create table t(x integer, s varchar)');
const enc = new TextEncoder();

function run(make: () => IngressParser, chunks: Uint8Array[]): unknown {
  const p = make();
  for (const c of chunks) p.push(c);
  return summary(p.end());
}

function summary(p: ParsedInput) {
  return {
    changes: p.changes,
    records: p.records,
    events: p.changes.map((_, i) => p.eventOf(i)),
    lines: Array.from({ length: p.records }, (_, ev) => p.lineOf(ev)),
    errors: p.errors,
  };
}

/** The body cut at every byte (two chunks), and in many random chunkings. */
function expectSameInChunks(make: () => IngressParser, body: Uint8Array): void {
  const whole = run(make, [body]);
  for (let i = 0; i <= body.length; i++) expect(run(make, [body.subarray(0, i), body.subarray(i)])).toEqual(whole);
  const bytewise = Array.from({ length: body.length }, (_, i) => body.subarray(i, i + 1));
  expect(run(make, bytewise)).toEqual(whole);
}

const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ',', '"', '\n', '\r\n', ' ', '\\', '{', ']', 'x'), maxLength: 8 });
const row = fc.tuple(fc.integer({ min: -1000, max: 1000 }), text);

function csvBody(rows: [number, string][], crlf: boolean): string {
  const nl = crlf ? '\r\n' : '\n';
  return rows.map(([x, s]) => `${x},"${s.replace(/"/g, '""')}"`).join(nl) + nl;
}

describe('incremental ingress parsers', () => {
  it('CSV: any chunking parses as the whole body', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 5 }), fc.boolean(), (rows, crlf) => {
        const body = enc.encode(csvBody(rows, crlf));
        expectSameInChunks(() => new CsvParser(binding()), body);
        const p = new CsvParser(binding());
        p.push(body);
        expect(p.end().changes.map((c) => (c as { row: unknown }).row)).toEqual(rows.map(([x, s]) => ({ X: x, S: s })));
      }),
      { numRuns: 60 },
    );
  });

  it('CSV: bad records and an unterminated quote are found the same in chunks', () => {
    expectSameInChunks(() => new CsvParser(binding()), enc.encode('1,a\nzz,"b\nc"\n2\n3,"é😀\n'));
  });

  for (const opts of [
    { updateFormat: 'raw', array: false },
    { updateFormat: 'insert_delete', array: false },
    { updateFormat: 'insert_delete', array: true },
  ] as JsonInputOptions[]) {
    it(`JSON (${opts.updateFormat}${opts.array ? ', array' : ''}): any chunking parses as the whole body`, () => {
      fc.assert(
        fc.property(fc.array(row, { maxLength: 4 }), fc.constantFrom('\n', '', ' \n  '), fc.constantFrom(undefined, 8), (rows, sep, maxLine) => {
          const values = rows.map(([x, s]) => (opts.updateFormat === 'raw' ? { x, s } : { insert: { x, s } }));
          const body = opts.array ? `[${values.map((v) => JSON.stringify(v)).join(`,${sep}`)}]` : values.map((v) => JSON.stringify(v, null, sep === ' \n  ' ? 1 : 0)).join(sep);
          // maxLine 8: lines longer than 8 characters go through the splitter, shorter ones the line path
          expectSameInChunks(() => new JsonParser(binding(), opts, maxLine), enc.encode(body));
          const p = new JsonParser(binding(), opts, maxLine);
          p.push(enc.encode(body));
          const out = p.end();
          expect(out.errors).toEqual([]);
          expect(out.changes.map((c) => (c as { row: unknown }).row)).toEqual(rows.map(([x, s]) => ({ X: x, S: s })));
        }),
        { numRuns: 40 },
      );
    });
  }

  it('JSON: syntax errors, stray brackets and unterminated values are found the same in chunks', () => {
    const opts: JsonInputOptions = { updateFormat: 'insert_delete', array: false };
    for (const maxLine of [undefined, 8])
      expectSameInChunks(() => new JsonParser(binding(), opts, maxLine), enc.encode('{"insert":{"x":1,"s":"a\\"}"}}\n{"insert": {"x": 2,, }}\n]\n{"insert":{"x":3,"s":"😀"}}\n{"insert"'));
    expectSameInChunks(() => new JsonParser(binding(), { ...opts, array: true }), enc.encode('[{"insert":{"x":1}}, 5]\n{"insert":{"x":2}}\n"s"\n[{"insert":{"x":3}}'));
  });

  it(`JSON nesting deeper than ${MAX_JSON_DEPTH} levels is a parse error naming the limit`, () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const array of [false, true]) {
      const p = new JsonParser(binding(), { updateFormat: 'raw', array });
      p.pushText(array ? `[{"x": 1}]\n${deep}\n[{"x": 2}]` : `{"x": 1}\n${deep}\n{"x": 2}`);
      const out = p.end();
      expect(out.errors).toHaveLength(1);
      expect(out.errors[0]!.description).toMatch(new RegExp(`nested deeper than the limit of ${MAX_JSON_DEPTH} levels`));
      expect(out.errors[0]!.line).toBe(2);
      expect(out.errors[0]!.invalid_text!.length).toBeLessThan(300);
    }
    // exactly at the limit is fine
    const p = new JsonParser(binding(), { updateFormat: 'raw', array: false });
    p.pushText(`{"x": 1, "s": null, "extra": ${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`);
    expect(p.end().errors).toEqual([]);
  });
});

describe('IngestJob: the bytes are copied as they come (the ingress channel reuses one read buffer)', () => {
  it('a body pushed through one buffer overwritten after every push parses as the body itself, in every format and across pieces', async () => {
    const { IngestJob, PARSE_PIECE_BYTES } = await import('../../../../src/services/pipelines/worker/ingest-job.js');
    const b = binding();
    const rows = Array.from({ length: 30_000 }, (_, i) => ({ x: i, s: `row ${i} ${'é'.repeat(i % 5)}` }));
    const bodies = {
      json: enc.encode(rows.map((r) => JSON.stringify({ insert: r })).join('\n')),
      csv: enc.encode(rows.map((r) => `${r.x},${r.s}`).join('\n')),
    };
    for (const [format, body] of Object.entries(bodies) as ['json' | 'csv', Uint8Array][]) {
      expect(body.length).toBeGreaterThan(2 * PARSE_PIECE_BYTES); // several pieces
      const job = new IngestJob({ table: 't', format, updateFormat: 'insert_delete', array: false }, b);
      const reused = new Uint8Array(65_536);
      for (let at = 0; at < body.length; at += reused.length) {
        const n = Math.min(reused.length, body.length - at);
        reused.set(body.subarray(at, at + n));
        job.push(reused.subarray(0, n));
        reused.fill(0x7b); // the next read's bytes
      }
      const parsed = job.finish();
      expect(parsed.errors).toEqual([]);
      expect(parsed.changes.map((c) => ('row' in c ? c.row : null))).toEqual(rows.map((r) => ({ X: r.x, S: r.s })));
    }
  });
});
