import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InputError, batches, csvRecords, formatFromName, jsonEvents, skipRecords, toEvent } from '../../../src/clients/pipelines/ingest-input.js';

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('ingest input', () => {
  it('wraps rows as inserts and keeps changes as they are', () => {
    expect(toEvent({ id: 1 }, 1)).toEqual({ insert: { id: 1 } });
    expect(toEvent([1, 'a'], 1)).toEqual({ insert: [1, 'a'] });
    expect(toEvent({ delete: { id: 1 } }, 1)).toEqual({ delete: { id: 1 } });
    expect(toEvent({ update: { id: 1, x: null } }, 1)).toEqual({ update: { id: 1, x: null } });
    expect(toEvent({ insert: { id: 1 }, table: 't' }, 1)).toEqual({ insert: { id: 1 }, table: 't' });
    // A row that merely has a column named "insert" next to others stays a row.
    expect(toEvent({ insert: 1, other: 2 }, 1)).toEqual({ insert: { insert: 1, other: 2 } });
    expect(() => toEvent({ insert: { a: 1 }, delete: { a: 1 } }, 3)).toThrow(/record 3: a change has exactly one/);
    expect(() => toEvent(42, 2)).toThrow(InputError);
  });

  it('reads NDJSON, a JSON array of rows or changes, and values back to back, across chunks', async () => {
    expect(await collect(jsonEvents(chunks('{"id":1}\n{"del', 'ete":{"id":2}}\r\n\n[3,"x"]\n')))).toEqual([{ insert: { id: 1 } }, { delete: { id: 2 } }, { insert: [3, 'x'] }]);
    expect(await collect(jsonEvents(chunks('[{"id":1},', '{"update":{"id":1,"n":"b"}}]')))).toEqual([{ insert: { id: 1 } }, { update: { id: 1, n: 'b' } }]);
    expect(await collect(jsonEvents(chunks('[[1,"a"],[2,"b"]]')))).toEqual([{ insert: [1, 'a'] }, { insert: [2, 'b'] }]);
    expect(await collect(jsonEvents(chunks('{"a":1}{"a":2}')))).toEqual([{ insert: { a: 1 } }, { insert: { a: 2 } }]);
    expect(await collect(jsonEvents(chunks('[]', '  \n')))).toEqual([]);
  });

  it('says which record is not valid JSON', async () => {
    await expect(collect(jsonEvents(chunks('{"a":1}\n{"a":tru}\n')))).rejects.toThrow(/record 2: not valid JSON/);
    await expect(collect(jsonEvents(chunks('{"a":1}\n{"a":')))).rejects.toThrow(/^record 2: the input ends inside a JSON value/);
    await expect(collect(jsonEvents(chunks('{"a":1}\nhello')))).rejects.toThrow(/^record 2: expected a JSON object or array/);
    await expect(collect(jsonEvents(chunks('{"id":1,"customer":"ann"\n')))).rejects.toThrow(/^record 1: the input ends inside a JSON value/);
  });

  it('splits CSV records, keeping quoted newlines inside one record and skipping blank lines', async () => {
    expect(await collect(csvRecords(chunks('1,"a\nb",x\r', '\n2,"c""d",y\n\n3,,z')))).toEqual(['1,"a\nb",x', '2,"c""d",y', '3,,z']);
    await expect(collect(csvRecords(chunks('1,"open\n')))).rejects.toThrow(/inside a quoted field/);
  });

  it('groups records into batches, JSON as one array per batch, CSV as lines', async () => {
    const json = await collect(batches(jsonEvents(chunks('{"a":1}\n{"a":2}\n{"a":3}\n')), 2));
    expect(json).toEqual([
      { body: '[{"insert":{"a":1}},{"insert":{"a":2}}]', records: 2, first: 1 },
      { body: '[{"insert":{"a":3}}]', records: 1, first: 3 },
    ]);
    const csv = await collect(batches(csvRecords(chunks('1,a\n2,b\n3,c\n')), 5));
    expect(csv).toEqual([{ body: '1,a\n2,b\n3,c\n', records: 3, first: 1 }]);
    expect(await collect(batches(csvRecords(chunks('')), 5))).toEqual([]);
  });

  it('sends big integers and long decimals with every digit, as rows or as changes; a big number alone is no row', async () => {
    const input = '{"b":9007199254740993,"d":12345678901234567890.1234567890}\n[-9223372036854775808,"x"]\n{"delete":{"b":9223372036854775807}}\n';
    const [batch] = await collect(batches(jsonEvents(chunks(input.slice(0, 20), input.slice(20))), 10));
    expect(batch!.body).toBe('[{"insert":{"b":9007199254740993,"d":12345678901234567890.1234567890}},{"insert":[-9223372036854775808,"x"]},{"delete":{"b":9223372036854775807}}]');
    // a top-level array of numbers is one row in column order, big numbers too
    const [row] = await collect(batches(jsonEvents(chunks('[9007199254740993,9007199254740995]')), 10));
    expect(row!.body).toBe('[{"insert":[9007199254740993,9007199254740995]}]');
    await expect(collect(jsonEvents(chunks('{"insert":9007199254740993}')))).rejects.toThrow(/record 1: the value of "insert" must be a row/);
  });

  it('tells the format from the file name', () => {
    expect(formatFromName('x.CSV')).toBe('csv');
    expect(formatFromName('x.ndjson')).toBe('json');
    expect(formatFromName('x.jsonl')).toBe('json');
    expect(formatFromName('dir.csv/Rows.PARQUET')).toBe('parquet');
    expect(formatFromName('x.txt')).toBeUndefined();
  });
});

describe('ingest input, any layout', () => {
  it('reads the same events whatever the separators, pretty-printing and chunk boundaries', async () => {
    const row = fc.record({ id: fc.integer(), name: fc.string(), tags: fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.string()), { maxLength: 3 }) });
    const event = fc.oneof(
      row,
      row.map((r) => ({ delete: r })),
      fc.array(fc.integer(), { minLength: 1, maxLength: 3 }).map((a) => [...a, 'x']),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom('\n', '\r\n', '', ' ', '\n\n'), { minLength: 12, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 10 }),
        async (events, seps, pretty, cuts) => {
          const text = events.map((e, i) => JSON.stringify(e, null, pretty && i % 2 ? 2 : undefined) + (seps[i] || (pretty ? '\n' : ' '))).join('');
          const bytes = Buffer.from(text);
          const parts: Buffer[] = [];
          let from = 0;
          for (const c of [...new Set(cuts)].sort((a, b) => a - b).filter((c) => c < bytes.length)) {
            parts.push(bytes.subarray(from, c));
            from = c;
          }
          parts.push(bytes.subarray(from));
          async function* src() {
            yield* parts;
          }
          const expected = events.map((e) => (Array.isArray(e) || !('delete' in e) ? { insert: e } : e));
          expect(await collect(jsonEvents(src()))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('skipRecords (resuming an interrupted ingest)', () => {
  async function* groups(sizes: number[]) {
    let n = 0;
    for (const size of sizes) yield Array.from({ length: size }, () => `r${++n}`);
  }
  it('leaves out exactly the first N records however they are grouped, and numbers the batches from N+1', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 8 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 5 }), async (sizes, skip, size) => {
        const total = sizes.reduce((a, b) => a + b, 0);
        const sent = await collect(batches(skipRecords(groups(sizes), skip), size, skip + 1));
        const records = sent.flatMap((b) => b.body.trimEnd().split('\n')).filter(Boolean);
        expect(records).toEqual(Array.from({ length: Math.max(0, total - skip) }, (_, i) => `r${skip + i + 1}`));
        if (sent.length) expect(sent[0]!.first).toBe(skip + 1);
      }),
    );
  });
});
