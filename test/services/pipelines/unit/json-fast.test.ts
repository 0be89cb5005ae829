/**
 * The fast path of JSON ingress (json-fast.ts) against the general path (JsonValueReader + JSON.parse, the
 * parser with the fast path off): for random rows of every column type, good and bad values, keys
 * known, unknown, escaped or missing, whitespace anywhere, NDJSON or arrays, bodies cut at random chunk
 * boundaries, both give the same changes, events, lines and errors. And the fast path is really taken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParser } from '../../../../src/services/pipelines/worker/ingress/json.js';
import type { ParsedInput } from '../../../../src/services/pipelines/worker/ingress/parser.js';
import { tableBinding } from './schema.js';

const enc = new TextEncoder();

const COLUMNS_SQL = `i INT, b BIGINT NOT NULL, d DOUBLE, s VARCHAR, ok BOOLEAN, dec DECIMAL(10, 2), dt DATE, ts TIMESTAMP, t TIME,
  r REAL, si SMALLINT, a INT ARRAY, m MAP<VARCHAR, INT>, v VARIANT`;
const bindingFor = (key: string[]) => tableBinding(`CREATE TABLE t (${COLUMNS_SQL}${key.length ? `, PRIMARY KEY (${key.join(', ')})` : ''});`);
const COLUMNS = bindingFor([]).names.map((name) => ({ name }));

/** A JSON literal for a column's value, good or (sometimes) bad, written as JSON.stringify would or with other spellings. */
const literal: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -2147483648, max: 2147483647 }).map(String),
  fc.constantFrom('0', '-0', '1e3', '1E-2', '2.50', '-12.125', '9007199254740993', '123456789012345', '1234567890123456', '40000', '-129'),
  // long literals a double would change: the fast path leaves them to the general path's exact reader
  fc.constantFrom('1234567890123456789012345678.1234567890', '-0.1000000000000000055511151231257827', '12345678.1234567891', '123456789012345678e-5'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '"', '\\', '\n', '\t', '/', 'Z', '1', '\u0001') }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"2024-02-29"', '"2023-02-29"', '"12:30:45"', '"2024-01-02 03:04:05"', '"1.5"', '"abc"', '"\\u00e9t\\u00e9"', '"\\ud83d"'),
  // timestamps of the plain shape that are not valid, or not all plain
  fc.constantFrom('"2023-02-29 10:00:00.000"', '"2024-13-02 03:04:05"', '"0999-01-02 03:04:05"', '"2024-01-02 03:04:05.1234567890"', '"2024-01-02 03:04:05."', '"2024-01-02 24:00:00"'),
  fc.constantFrom('true', 'false', 'null', '[1, 2]', '[]', '{"k": 1}', '{}', '[[1]]', '"x', '01', '1.', '.5', '+1', 'tru', 'nul', '1x', '--1', '1e', 'NaN'),
);

const str = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '"', '\\', '/', 'Z', '1', 'ÿ') }).map((s) => JSON.stringify(s));
/** Values each column takes (written as JSON.stringify would, or as other clients do). */
const VALID: Record<string, fc.Arbitrary<string>> = {
  I: fc.integer({ min: -2147483648, max: 2147483647 }).map(String),
  B: fc.oneof(fc.integer().map(String), fc.constantFrom('-0', '0', '9007199254740991', '123456789012345')),
  D: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  S: str,
  OK: fc.constantFrom('true', 'false'),
  DEC: fc.constantFrom('"1.25"', '12.5', '"-0.01"', '3', '12345678.1234567891', '-0.1000000000000000055511151231257827'),
  DT: fc.constantFrom('"2024-02-29"', '"1999-12-31"'),
  // the plain shape (read in place by the fast path) with fractions of every length, and other spellings
  TS: fc.constantFrom(
    '"2024-01-02 03:04:05"',
    '"2024-01-02T03:04:05.5"',
    '1700000000000',
    '"2024-01-02 03:04:05.000"',
    '"2024-01-02 03:04:05.120"',
    '"2024-02-29 23:59:59.123456789"',
    '"1970-01-01 00:00:00.5"',
  ),
  T: fc.constantFrom('"12:30:45"', '"00:00"'),
  R: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((d) => JSON.stringify(d)),
  SI: fc.integer({ min: -32768, max: 32767 }).map(String),
  A: fc.constantFrom('[1, 2]', '[]', 'null'),
  M: fc.constantFrom('{"k": 1}', '{}'),
  V: fc.oneof(str, fc.constantFrom('1', 'true', '[1, "a"]', '[1234567890123456789012345678.1234567890]')),
};

const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...COLUMNS.map((c) => c.name)) },
  { weight: 2, arbitrary: fc.constantFrom(...COLUMNS.map((c) => c.name.toLowerCase())) },
  { weight: 1, arbitrary: fc.constantFrom('extra', 'I\\u0041', 'b', '__proto__', 'B\\"', '', 'é', 'Ä😀') },
);

/** A key and its value: mostly one the column takes, sometimes anything. */
const pair = key.chain((k) => fc.tuple(fc.constant(k), fc.oneof({ weight: 12, arbitrary: VALID[k.toUpperCase()] ?? literal }, { weight: 1, arbitrary: literal })));

/** One row object's text: some columns (NOT NULL B usually there), in any order, any spacing. */
const rowText = fc.tuple(fc.array(pair, { maxLength: 6 }), fc.option(VALID.B!, { freq: 8 }), fc.constantFrom('', ' ', '\t', '  ')).map(([pairs, b, sp]) => {
  const all = b === null ? pairs : [['B', b] as [string, string], ...pairs];
  return `{${sp}${all.map(([k, v]) => `"${k}"${sp}:${sp}${v}`).join(`,${sp}`)}${sp}}`;
});

/** A line: rows (or, sometimes, something else) as the body format has them. */
function line(array: boolean): fc.Arbitrary<string> {
  const item = fc.oneof({ weight: 8, arbitrary: rowText }, { weight: 1, arbitrary: fc.constantFrom('5', '"s"', '[1]', '{', '}', ']', '[', ',', '') });
  return fc
    .tuple(fc.array(item, { maxLength: 4 }), fc.constantFrom('', ' ', '\r', '\uFEFF'))
    .map(([items, sp]) => (array ? `${sp}[${items.join(`,${sp}`)}]${sp}` : items.join(sp === '' ? '' : ` ${sp}`)));
}

function summary(p: ParsedInput) {
  const changes = p.changes;
  return {
    changes,
    count: p.count,
    records: p.records,
    events: changes.map((_, i) => p.eventOf(i)),
    lines: Array.from({ length: p.records }, (_, ev) => p.lineOf(ev)),
    texts: Array.from({ length: Math.min(p.records, 20) }, (_, ev) => p.textOf(ev)),
    errors: p.errors,
    errorCount: p.errorCount,
  };
}

let fastLines = 0;

function parse(body: Uint8Array, cuts: number[], array: boolean, fast: boolean, key: string[] = []) {
  const binding = bindingFor(key);
  const p = new JsonParser(binding, { updateFormat: 'raw', array }, undefined, fast);
  let at = 0;
  for (const cut of [...cuts.filter((c) => c < body.length)].sort((a, b) => a - b)) {
    p.push(body.subarray(at, cut));
    at = cut;
  }
  p.push(body.subarray(at));
  const out = summary(p.end());
  fastLines += p.fastLines;
  return out;
}

describe('JSON ingress fast path', () => {
  for (const array of [false, true])
    for (const key of [[], ['B']])
      it(`gives what the general path gives (${array ? 'array=true' : 'NDJSON'}${key.length ? ', primary key' : ''})`, () => {
        fastLines = 0;
        fc.assert(
          fc.property(
            fc.array(line(array), { maxLength: 6 }),
            fc.constantFrom('\n', '\r\n', '\n\n'),
            fc.boolean(),
            fc.array(fc.nat({ max: 600 }), { maxLength: 5 }),
            (lines, nl, finalNewline, cuts) => {
              const body = enc.encode(lines.join(nl) + (finalNewline ? nl : ''));
              const fast = parse(body, cuts, array, true, key);
              expect(fast).toEqual(parse(body, [], array, false, key));
            },
          ),
          { numRuns: 300 },
        );
        expect(fastLines).toBeGreaterThan(100); // the fast path was taken, not only given up
      });

  it('reads rows that share their layout against the row before, and gives what the general path gives', () => {
    // one layout (keys, their order, their spacing) for most rows of a body, values of every kind, good
    // and bad; now and then a row laid out otherwise (a key more, another spacing): the row after it is
    // read against its layout
    const layout = fc.tuple(
      fc.shuffledSubarray(['I', 'S', 'D', 'OK', 'DEC', 'extra', 'v']).chain((ks) => fc.nat({ max: ks.length }).map((at) => [...ks.slice(0, at), 'B', ...ks.slice(at)])), // B is NOT NULL
      fc.constantFrom('', ' ', '  ', '\t'),
    );
    let shaped = 0;
    let total = 0;
    fc.assert(
      fc.property(
        layout,
        layout,
        fc.array(fc.tuple(fc.nat({ max: 4 }), fc.array(fc.oneof({ weight: 40, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: literal }), { minLength: 8, maxLength: 8 })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.boolean(),
        fc.nat({ max: 2 }),
        fc.array(fc.nat({ max: 900 }), { maxLength: 4 }),
        ([keys, sp], [otherKeys, otherSp], rows, array, reversed, cuts) => {
          // the other layout is sometimes the same keys in reverse order (separators of the same lengths
          // with one-letter keys, which only a byte by byte comparison tells apart), or the same keys
          // spaced otherwise
          const other: [string[], string] = reversed === 0 ? [otherKeys, otherSp] : reversed === 1 ? [[...keys].reverse(), sp] : [keys, otherSp];
          const texts = rows.map(([pick, odd], r) => {
            const [ks, s] = pick === 0 ? other : [keys, sp];
            const value = (k: string, i: number) => odd[i] ?? (VALID[k.toUpperCase()] ? String(r * 3 + i) : `"${r}"`);
            return `{${s}${ks.map((k, i) => `"${k}"${s}:${s}${k === 'S' && odd[i] === null ? `"s${r}"` : k === 'OK' && odd[i] === null ? 'true' : value(k, i)}`).join(`,${s}`)}${s}}`;
          });
          const body = enc.encode(array ? `[${texts.join(', ')}]\n` : texts.join('\n'));
          const binding = bindingFor([]);
          const p = new JsonParser(binding, { updateFormat: 'raw', array });
          let at = 0;
          for (const cut of [...cuts.filter((c) => c < body.length)].sort((a, b) => a - b)) {
            p.push(body.subarray(at, cut));
            at = cut;
          }
          p.push(body.subarray(at));
          expect(summary(p.end())).toEqual(parse(body, [], array, false));
          shaped += p.shapedRows;
          total += rows.length;
        },
      ),
      { numRuns: 500 },
    );
    expect(shaped).toBeGreaterThan(total / 3); // many rows were read against a layout, not key by key (about 55% in trials: a body's first row, a row laid out otherwise and the row after it, rows of a line given up are not)
  });

  it('reads a row laid out otherwise than the row before key by key: keys swapped, spacing changed, a key more or less', () => {
    const rows = [
      '{"B": 1, "I": 2}',
      '{"I": 3, "B": 4}',
      '{"B": 5, "I": 6}',
      '{"B":7, "I": 8}',
      '{"B": 9, "I": 10, "D": 1.5}',
      '{"B": 11}',
      '{"B": 12, "I": 13}',
      '{"B": 14, "I": 15}',
      '{"B": 16, "I":  17}',
      '{"B": 18, "I":  19}',
    ];
    for (const array of [true, false]) {
      const body = enc.encode(array ? `[${rows.join(', ')}]` : rows.join('\n'));
      const p = new JsonParser(bindingFor([]), { updateFormat: 'raw', array });
      p.push(body);
      const out = p.end();
      const cells = out.changes.map((c) => {
        const row = (c as { row: Record<string, unknown> }).row;
        return [row.B, row.I, row.D];
      });
      expect(cells).toEqual([
        [1, 2, null],
        [4, 3, null],
        [5, 6, null],
        [7, 8, null],
        [9, 10, 1.5],
        [11, null, null],
        [12, 13, null],
        [14, 15, null],
        [16, 17, null],
        [18, 19, null],
      ]);
      expect(p.shapedRows).toBe(2); // the 8th and the 10th rows alone have the layout of the row before them
      expect(p.fastLines).toBe(array ? 1 : rows.length);
    }
  });

  it('gives what the general path gives for text handed over as a string, a lone surrogate included', () => {
    for (const text of ['{"B": 1, "S": "a"}\n{"B": 2, "S": "\ud800"}\n', '{"B": 1, "S": "\ud800x"}\n{"B": 2}', '\uFEFF{"B": 1}\n\uFEFF{"B": 2}']) {
      const run = (fast: boolean) => {
        const p = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: false }, undefined, fast);
        for (const piece of text.split(/(?<=\n)/)) p.pushText(piece);
        return summary(p.end());
      };
      expect(run(true)).toEqual(run(false));
    }
  });

  it('reads the rows of a one-line body as its bytes come, and gives what the whole body gives', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ B: i, S: `s${i}`, D: i / 4, OK: i % 2 === 0, DEC: '1.25' }));
    const body = enc.encode(JSON.stringify(rows));
    const p = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    const half = Math.floor(body.length / 2);
    for (let at = 0; at < half; at += 4096) p.push(body.subarray(at, Math.min(at + 4096, half)));
    expect(p.records).toBeGreaterThan(400); // rows read before the line (the whole body) ended
    expect(p.records).toBeLessThan(600); // and no more than its first half holds
    p.push(body.subarray(half));
    const out = summary(p.end());
    expect(out.count).toBe(1000);
    expect(out).toEqual(parse(body, [], true, false));
    expect(p.fastLines).toBe(1);
  });

  it('holds the lines of parsers in turn and at once right: the buffer an ended parser lets go serves one parser at a time', () => {
    const body = (from: number) => enc.encode(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ B: from + i, S: `s${from + i}`, TS: '2024-01-02 03:04:05.120' }))));
    const feed = (p: JsonParser, bytes: Uint8Array, from: number, to: number) => {
      for (let at = from; at < to; at += 8192) p.push(bytes.subarray(at, Math.min(at + 8192, to)));
    };
    const first = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    feed(first, body(0), 0, body(0).length);
    expect(summary(first.end())).toEqual(parse(body(0), [], true, false)); // its line buffer is let go here
    // two parsers at once, their pieces interleaved: one of them takes the buffer let go, the other grows its own
    const [a, b] = [body(10_000), body(20_000)];
    const pa = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    const pb = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    for (let at = 0; at < Math.max(a.length, b.length); at += 8192) {
      feed(pa, a, at, Math.min(at + 8192, a.length));
      feed(pb, b, at, Math.min(at + 8192, b.length));
    }
    const [outA, outB] = [summary(pa.end()), summary(pb.end())];
    expect(outA).toEqual(parse(a, [], true, false));
    expect(outB).toEqual(parse(b, [], true, false));
    expect(outA.count).toBe(3000);
    expect(pa.fastLines + pb.fastLines).toBe(2);
  });

  it('scans a row cut into many pieces a few times, not once a piece (the wait doubles)', () => {
    const big = 'x'.repeat(2_000_000);
    const body = enc.encode(`[{"B": 1, "S": "${big}"}, {"B": 2}]`);
    const p = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    for (let at = 0; at < body.length; at += 1000) p.push(body.subarray(at, at + 1000));
    const out = p.end();
    expect(out.count).toBe(2);
    expect((out.changes[0] as { row: Record<string, unknown> }).row.S).toBe(big);
    expect(p.fastScans).toBeLessThan(40); // 2,000 pieces
    expect(p.fastLines).toBe(1);
  });

  it('gives a line up part way (a bad row after good ones already read) and the general path reports it', () => {
    const good = Array.from({ length: 300 }, (_, i) => `{"B": ${i}}`).join(', ');
    const body = enc.encode(`[${good}, {"B": "nope"}, {"B": 7}]\n[{"B": 8}]`);
    const p = new JsonParser(bindingFor([]), { updateFormat: 'raw', array: true });
    for (let at = 0; at < body.length; at += 512) p.push(body.subarray(at, at + 512));
    const out = summary(p.end());
    expect(out).toEqual(parse(body, [], true, false));
    expect(out.errorCount).toBe(1);
    expect(p.fastLines).toBe(1); // the second line
  });

  it('reads numbers as JSON.parse does in every column kind: fractions, exponents, zeros, signs, bounds', () => {
    const numbers = ['0', '-0', '7', '-7', '2.50', '-12.125', '0.5', '-0.0', '2.0', '1e3', '1E-2', '1.5e2', '127', '128', '-129', '32767', '32768', '2147483647', '2147483648'];
    numbers.push('123456789012345', '1234567890123456', '12345678901234.5', '9007199254740991', '1.', '.5', '01', '-', '1.e3', '00.5');
    for (const col of ['I', 'B', 'D', 'SI', 'R', 'DEC', 'S', 'OK', 'V'])
      for (const lit of numbers) {
        const body = enc.encode(`[{"B": 1, "${col}": ${lit}}]\n{"B": 2, "${col}": ${lit}}\n`);
        for (const array of [true, false]) {
          const text = array ? body : enc.encode(`{"B": 1, "${col}": ${lit}}\n`);
          expect(parse(text, [], array, true), `${col}: ${lit}`).toEqual(parse(text, [], array, false));
        }
      }
  });

  it('takes flat rows without JSON.parse', () => {
    const binding = bindingFor([]);
    const p = new JsonParser(binding, { updateFormat: 'raw', array: true });
    const original = JSON.parse;
    let calls = 0;
    JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
      calls++;
      return original(...args);
    }) as typeof JSON.parse;
    try {
      p.push(enc.encode('[{"I": 1, "B": 2, "S": "x", "D": 1.5, "DT": "2024-01-01"}, {"i": -3, "b": 4,'));
      p.push(enc.encode(' "ok": true, "dec": "1.25"}]\n[{"B": 5, "s": "caf\\u00e9"}]'));
      const out = p.end();
      expect(out.errors).toEqual([]);
      expect(out.count).toBe(3);
      expect(out.input).toHaveLength(1);
      expect(out.input[0]).toMatchObject({ op: 'batch', rowOp: 'insert' });
      expect(out.changes.map((c) => (c as { row: Record<string, unknown> }).row.B)).toEqual([2, 4, 5]);
      expect(out.changes.map((c) => (c as { row: Record<string, unknown> }).row.S)).toEqual(['x', null, 'café']);
    } finally {
      JSON.parse = original;
    }
    expect(calls).toBe(1); // the one string with an escape: its literal alone
  });
});
