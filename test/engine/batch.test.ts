/**
 * The compact input form (RowBatch, the `batch` InputChange): values read back equal to those written
 * (across blocks, after dropped and popped rows), and a step given rows as batches gives the same
 * StepResult, the same later contents and the same errors (message and index) as the same rows in row form.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, compile, EngineInputError, RowBatch, type InputChange, type JsonValue, type StepResult } from '../../src/engine/index.js';
import { mk, type SqlType } from '../../src/engine/types/types.js';
import { jsonConverter, jsonKept, jsonTextReader, ValueError } from '../../src/engine/codec-json.js';

const anyValue: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 0, Number.MAX_SAFE_INTEGER),
  fc.string(),
  fc.string({ unit: fc.constantFrom('a', 'ÿ', 'é', '😀', '\u0100', '\0') }),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

describe('RowBatch', () => {
  it('gives back the values pushed, after dropped and popped rows', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 4 })
          .chain((w) => fc.tuple(fc.constant(w), fc.array(fc.tuple(fc.array(anyValue, { minLength: w, maxLength: w }), fc.constantFrom('keep', 'drop', 'pop')), { maxLength: 40 }))),
        ([width, rows]) => {
          const batch = new RowBatch(width);
          const expected: JsonValue[][] = [];
          for (const [vals, fate] of rows) {
            if (fate === 'drop') {
              for (const v of vals.slice(0, width - 1)) batch.push(v);
              batch.dropRow();
              continue;
            }
            for (const v of vals) batch.push(v);
            batch.endRow();
            expected.push(vals);
            if (fate === 'pop') {
              batch.popRow();
              expected.pop();
            }
          }
          expect(batch.length).toBe(expected.length);
          // toEqual compares numbers with Object.is: -0 must come back as -0
          expect(Array.from({ length: batch.length }, (_, i) => batch.row(i))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the cells of a row in any column order (set, setNumber, setText, setBoolean, setNull), also across dropped rows', () => {
    const latin1 = (v: string): boolean => [...v].every((ch) => ch.charCodeAt(0) < 256);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((w) =>
          fc.tuple(
            fc.constant(w),
            fc.array(fc.tuple(fc.array(anyValue, { minLength: w, maxLength: w }), fc.shuffledSubarray([...Array(w).keys()], { minLength: w, maxLength: w }), fc.constantFrom('keep', 'keep', 'drop')), {
              maxLength: 40,
            }),
          ),
        ),
        ([width, rows]) => {
          const batch = new RowBatch(width);
          const expected: JsonValue[][] = [];
          for (const [vals, order, fate] of rows) {
            const cells = fate === 'drop' ? order.slice(0, width - 1) : order;
            for (const c of cells) {
              const v = vals[c]!;
              // the typed setters where they apply (text as the bytes of a buffer with other bytes around)
              if (typeof v === 'number') batch.setNumber(c, v);
              else if (typeof v === 'boolean') batch.setBoolean(c, v);
              else if (v === null) batch.setNull(c);
              else if (typeof v === 'string' && latin1(v)) batch.setText(c, Buffer.from(`<<${v}>>`, 'latin1'), 2, 2 + v.length);
              else batch.set(c, v);
            }
            if (fate === 'drop') batch.dropRow();
            else {
              batch.endRow();
              expected.push(vals);
            }
          }
          expect(Array.from({ length: batch.length }, (_, i) => batch.row(i))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
    const batch = new RowBatch(2);
    batch.setNumber(1, 1);
    expect(() => batch.endRow()).toThrow(RangeError); // a cell is missing
  });

  it('setTextUntil: copies printable ASCII up to the stop byte, refuses anything else without writing the cell', () => {
    const batch = new RowBatch(2);
    const bytes = Buffer.from('"abc def~\x7f", "x\\y", "caf\u00e9", "ctl\u0001", "long", "open', 'latin1');
    const at = (s: string): number => bytes.indexOf(s) + 1; // the first byte after the quote
    // a plain text: the position of the stop comes back, the cell holds the text
    expect(batch.setTextUntil(0, bytes, 1, bytes.length, 34, 92, 100)).toBe(at('~') + 1);
    batch.setNumber(1, 1);
    batch.endRow();
    // refused: the reject byte (a backslash), a byte above 127, a control character, longer than max, no stop before end
    for (const [from, max] of [
      [at('"x'), 100],
      [at('"caf'), 100],
      [at('"ctl'), 100],
      [at('"long'), 3],
      [at('"open'), 100],
    ]) {
      expect(batch.setTextUntil(1, bytes, from!, bytes.length, 34, 92, max!)).toBe(-1);
      // the cell was not given: it can be given another way, and the row completes with its width
      batch.setText(1, bytes, from!, from! + 1);
      batch.setNull(0);
      batch.endRow();
    }
    // text already in the column stays as it was; a row of two refused tries then a good one
    expect(batch.setTextUntil(0, bytes, at('"x'), bytes.length, 34, 92, 100)).toBe(-1);
    expect(batch.setTextUntil(0, bytes, at('"long'), bytes.length, 34, 92, 100)).toBe(at('"long') + 4);
    batch.setBoolean(1, true);
    batch.endRow();
    expect(Array.from({ length: batch.length }, (_, i) => batch.row(i))).toEqual([
      ['abc def~\x7f', 1],
      [null, 'x'],
      [null, 'c'],
      [null, 'c'],
      [null, 'l'],
      [null, 'o'],
      ['long', true],
    ]);
  });

  it('spans blocks: every row of a batch bigger than a block reads back, in order', () => {
    const n = BLOCK_ROWS * 2 + 7;
    const batch = new RowBatch(3);
    const rowOf = (i: number): JsonValue[] => [i, i % 5 === 0 ? null : `s${i}`, i % 7 === 0 ? [i] : i % 2 === 0];
    for (let i = 0; i < n; i++) {
      for (const v of rowOf(i)) batch.push(v);
      batch.endRow();
    }
    batch.popRow();
    let seen = 0;
    batch.forEachBlock((rows, cell, first) => {
      expect(first).toBe(seen);
      for (let r = 0; r < rows; r++) expect(cell(0, r)).toBe(first + r);
      seen += rows;
    });
    expect(seen).toBe(n - 1);
    for (const i of [0, BLOCK_ROWS - 1, BLOCK_ROWS, BLOCK_ROWS + 3, 2 * BLOCK_ROWS + 1, n - 2]) expect(batch.row(i)).toEqual(rowOf(i));
    expect(() => batch.row(n - 1)).toThrow(RangeError);
  });

  it('release(): the batch is empty and sealed; a batch made after it, on the released storage, reads back exactly its own rows (no text, tag or end of the one before)', () => {
    const rowOf = (i: number, salt: string): JsonValue[] => [
      i % 5 === 0 ? `${salt}-${i}-${'x'.repeat(i % 70)}` : i,
      i % 3 === 0 ? null : i % 3 === 1 ? `${salt}${i}` : i * 1.5,
      i % 7 === 0 ? { k: i } : i % 2 === 0,
    ];
    const fill = (batch: RowBatch, n: number, salt: string): void => {
      for (let i = 0; i < n; i++) {
        for (const v of rowOf(i, salt)) batch.push(v);
        batch.endRow();
      }
    };
    for (const [first, second] of [
      [BLOCK_ROWS, 10],
      [BLOCK_ROWS * 2, BLOCK_ROWS + 3],
      [40, BLOCK_ROWS],
    ] as const) {
      const a = new RowBatch(3);
      fill(a, first, 'a');
      a.release();
      expect(a.length).toBe(0);
      expect(() => a.row(0)).toThrow(RangeError);
      expect(() => a.push(1)).toThrow();
      let blocks = 0;
      a.forEachBlock(() => blocks++);
      expect(blocks).toBe(0);
      // the second batch's first rows have numbers where the first had text, and nulls: each cell reads as written
      const b = new RowBatch(3);
      for (let i = 0; i < second; i++) {
        b.setNumber(0, i);
        if (i % 2 === 0) b.setNull(1);
        else b.setText(1, Buffer.from(`b${i}`), 0, `b${i}`.length);
        b.setBoolean(2, i % 3 === 0);
        b.endRow();
      }
      expect(b.length).toBe(second);
      for (const i of [0, 1, 2, 3, second - 2, second - 1]) expect(b.row(i)).toEqual([i, i % 2 === 0 ? null : `b${i}`, i % 3 === 0]);
      const col1: JsonValue[] = [];
      b.forEachBlockColumns((rows, _first, column) => {
        const out: JsonValue[] = new Array(rows);
        column(1, out);
        col1.push(...out);
      });
      expect(col1).toEqual(Array.from({ length: second }, (_, i) => (i % 2 === 0 ? null : `b${i}`)));
      b.release();
    }
  });

  it('release() gives the storage back for reuse: batches made and released one after the other allocate nothing new outside the heap', () => {
    const make = (): RowBatch => {
      const batch = new RowBatch(4);
      const text = Buffer.from('a-text-of-some-length-'.repeat(4));
      for (let i = 0; i < BLOCK_ROWS; i++) {
        batch.setNumber(0, i);
        batch.setText(1, text, 0, 20 + (i % 60));
        batch.setNumber(2, i * 2);
        batch.setText(3, text, 0, 8);
        batch.endRow();
      }
      return batch;
    };
    make().release(); // the pool now holds one block's storage
    const before = process.memoryUsage().arrayBuffers;
    for (let k = 0; k < 40; k++) make().release();
    // unpooled, 40 blocks of 4 columns would allocate about 40 x 2 MB (typed arrays and text); pooled, none
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
  });

  it('fit() cuts the last block to its rows: values read back the same, the storage shrinks, the batch is sealed', () => {
    for (const n of [1, 3, BLOCK_ROWS, BLOCK_ROWS + 2]) {
      const batch = new RowBatch(3);
      const rowOf = (i: number): JsonValue[] => [i, i % 3 === 0 ? null : `text-${i}`, i % 4 === 0 ? { k: i } : i % 2 === 0];
      for (let i = 0; i < n; i++) {
        for (const v of rowOf(i)) batch.push(v);
        batch.endRow();
      }
      // a row in progress is dropped
      batch.push(-1);
      const before = batch.byteLength;
      batch.fit();
      expect(batch.length).toBe(n);
      expect(Array.from({ length: n }, (_, i) => batch.row(i))).toEqual(Array.from({ length: n }, (_, i) => rowOf(i)));
      const columns: JsonValue[][] = [[], [], []];
      batch.forEachBlockColumns((rows, _first, column) => {
        for (let c = 0; c < 3; c++) {
          const out: JsonValue[] = new Array(rows);
          column(c, out);
          columns[c]!.push(...out);
        }
      });
      expect(columns[1]).toEqual(Array.from({ length: n }, (_, i) => rowOf(i)[1]));
      // a partial last block keeps room for its rows only (after a full one, the row in progress had opened a new block)
      expect(batch.byteLength).toBeLessThan(before);
      expect(() => batch.push(1)).toThrow(/fitted/);
      expect(() => batch.setNumber(0, 1)).toThrow(/fitted/);
    }
    // a one-row batch of a number and a short text: a few bytes, not a block's room (16,384 rows a column)
    const one = new RowBatch(2);
    one.push(1);
    one.push('ab');
    one.endRow();
    expect(one.byteLength).toBeGreaterThan(BLOCK_ROWS);
    one.fit();
    // tags (1 + 1), the number (8), text end (4), the text (2)
    expect(one.byteLength).toBe(16);
  });
});

const SQL = `CREATE TABLE k (id INT NOT NULL, s VARCHAR, d DECIMAL(6, 2), ts TIMESTAMP, a INT ARRAY, ok BOOLEAN, x DOUBLE NOT NULL);
CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY, s VARCHAR, n INT);
CREATE VIEW by_ok AS SELECT ok, COUNT(*) AS c, SUM(x) AS sx FROM k GROUP BY ok;
CREATE VIEW joined AS SELECT k.id, k.s, p.n FROM k JOIN p ON k.id = p.id;`;

const kValues = fc.tuple(
  fc.oneof({ weight: 9, arbitrary: fc.integer({ min: -5, max: 20 }) }, { weight: 1, arbitrary: fc.constantFrom<JsonValue>(null, 'x', 1.5, 3e10) }),
  fc.oneof(fc.constant(null), fc.constantFrom('a', 'b', 'é', '😀', '')),
  fc.oneof({ weight: 9, arbitrary: fc.constantFrom<JsonValue>(null, '1.25', '-3.00', '12') }, { weight: 1, arbitrary: fc.constantFrom<JsonValue>('99999.99', 'z') }),
  fc.constantFrom<JsonValue>(null, '2024-01-02 03:04:05'),
  fc.constantFrom<JsonValue>(null, [1, 2], []),
  fc.constantFrom<JsonValue>(null, true, false),
  fc.oneof({ weight: 9, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -100, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom<JsonValue>(null) }),
);
const pValues = fc.tuple(fc.integer({ min: -3, max: 20 }), fc.constantFrom<JsonValue>(null, 'q', 'r'), fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom<JsonValue>(null)));

type Op = { table: 'K' | 'P'; op: 'insert' | 'delete' | 'upsert'; vals: JsonValue[] } | { plain: InputChange };

const ops: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(kValues, fc.constantFrom<'insert' | 'delete'>('insert', 'insert', 'delete')).map(([vals, op]): Op => ({ table: 'K', op, vals })) },
  { weight: 4, arbitrary: fc.tuple(pValues, fc.constantFrom<'upsert' | 'delete' | 'insert'>('upsert', 'insert', 'delete')).map(([vals, op]): Op => ({ table: 'P', op, vals })) },
  { weight: 1, arbitrary: pValues.map(([id, , n]): Op => ({ plain: { table: 'P', op: 'update', row: { ID: id, N: n } } })) },
);

const COLS = { K: ['ID', 'S', 'D', 'TS', 'A', 'OK', 'X'], P: ['ID', 'S', 'N'] };

function rowForm(list: Op[]): InputChange[] {
  return list.map((o) => {
    if ('plain' in o) return o.plain;
    const row = Object.fromEntries(COLS[o.table].map((c, i) => [c, o.vals[i]!]));
    return { table: o.table, op: o.op, row } as InputChange;
  });
}

/** Runs of row changes of one table and operation as batches (the way the ingress sink groups them). */
function batchForm(list: Op[]): InputChange[] {
  const out: InputChange[] = [];
  let open: Extract<InputChange, { op: 'batch' }> | null = null;
  for (const o of list) {
    if ('plain' in o) {
      out.push(o.plain);
      open = null;
      continue;
    }
    if (!open || open.table !== o.table || open.rowOp !== o.op) {
      open = { table: o.table, op: 'batch', rowOp: o.op, rows: new RowBatch(COLS[o.table].length) };
      out.push(open);
    }
    for (const v of o.vals) open.rows.push(v);
    open.rows.endRow();
  }
  return out;
}

function outcome(step: () => StepResult): unknown {
  try {
    const r = step();
    return { changes: [...r.changes].map(([name, rows]) => [name, rows]) };
  } catch (err) {
    if (err instanceof EngineInputError) return { error: err.message, index: err.index };
    throw err;
  }
}

describe('RowBatch column conversion (the step reads a batch column by column, straight from its storage)', () => {
  // every kind of cell (number, text, other strings, booleans, null, values kept as they are) into every
  // kind of column, against the column's converter applied to the value read back: same values (Object.is:
  // -0 stays -0), same refusals
  const types: SqlType[] = [
    mk('TINYINT'),
    mk('SMALLINT'),
    mk('INTEGER', false),
    mk('BIGINT'),
    mk('DOUBLE'),
    mk('REAL'),
    mk('VARCHAR'),
    mk('CHAR', true, { precision: 3 }),
    mk('BOOLEAN', false),
    mk('DECIMAL', true, { precision: 6, scale: 2 }),
    mk('DATE'),
    mk('TIMESTAMP'),
    mk('TIMESTAMP', false),
    mk('VARIANT'),
  ];
  // TIMESTAMP texts (read from the batch's bytes in place, jsonTextReader): the canonical form with 0 to 9
  // fraction digits, and near misses that the string reader decides (refuses, or reads its other forms)
  const timestampText: fc.Arbitrary<JsonValue> = fc
    .tuple(
      fc.integer({ min: 990, max: 2200 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.stringMatching(/^\d{0,10}$/),
      fc.constantFrom(' ', 'T', ' ', 'x'),
    )
    .map(([y, mo, d, h, mi, s, frac, sep]) => {
      const p = (n: number, w = 2): string => String(n).padStart(w, '0');
      return `${p(y, 4)}-${p(mo)}-${p(d)}${sep}${p(h)}:${p(mi)}:${p(s)}${frac === '' ? '' : '.' + frac}`;
    });
  const cell: fc.Arbitrary<JsonValue> = fc.oneof(
    anyValue,
    fc.constantFrom<JsonValue>(
      -0,
      127,
      128,
      -129,
      32768,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      -(2 ** 53) + 1,
      1.5,
      1e300,
      '12',
      '-0.5',
      '2024-01-02',
      '1.25',
      'abc',
      'é',
      'ÿ\u0000',
      'twelve chars',
      'thirteen char',
      'a text of more than thirteen characters, ÿ',
      '2024-01-02 03:04:05',
      '2024-01-02T03:04:05.123456789',
      '2024-01-02 03:04:05.',
      '2024-01-02 03:04:05Z',
      ' 2024-01-02 03:04:05',
      '2024-02-29 23:59:59.0107',
      '2023-02-29 00:00:00',
      '2024-01-02 03:04:05.5ÿ',
      '2024-1-2 3:04:05',
    ),
    timestampText,
  );
  type Outcome = { value: unknown } | { refused: string };
  const convertOne = (conv: (v: JsonValue) => unknown, v: JsonValue): Outcome => {
    try {
      return { value: conv(v) };
    } catch (e) {
      if (e instanceof ValueError) return { refused: e.message };
      throw e;
    }
  };

  it('gives what the converter gives for each value, or stops where it refuses', () => {
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.array(cell, { minLength: 1, maxLength: 30 }), fc.boolean(), (type, values, nullOk) => {
        const batch = new RowBatch(2);
        for (const v of values) {
          batch.push('before');
          batch.push(v);
          batch.endRow();
        }
        const conv = jsonConverter(type);
        const expected = values.map((v) => convertOne(conv, v));
        const firstBad = expected.findIndex((e) => 'refused' in e || (e.value === null && !nullOk));
        batch.forEachBlockColumns((count, _first, _column, convertColumn) => {
          const rows: unknown[][] = Array.from({ length: count }, () => ['x', 'untouched']);
          let result: Outcome;
          try {
            result = { value: convertColumn(1, rows, jsonKept(type), conv, nullOk, jsonTextReader(type)) };
          } catch (e) {
            if (!(e instanceof ValueError)) throw e;
            result = { refused: e.message };
          }
          if (firstBad < 0) {
            expect(result).toEqual({ value: true });
            expect(rows.map((r) => r[1])).toEqual(expected.map((e) => (e as { value: unknown }).value));
          } else {
            expect(result).toEqual('refused' in expected[firstBad]! ? expected[firstBad] : { value: false });
            // the rows before the bad one hold their values
            expect(rows.slice(0, firstBad).map((r) => r[1])).toEqual(expected.slice(0, firstBad).map((e) => (e as { value: unknown }).value));
          }
          expect(rows.every((r) => r[0] === 'x')).toBe(true); // only its own cell of each row is written
        });
      }),
      { numRuns: 600 },
    );
  });

  it('reads the texts of every block (short and long, after numbers and nulls) as row() reads them', () => {
    const n = BLOCK_ROWS + 40;
    const batch = new RowBatch(1);
    const valueOf = (i: number): JsonValue => (i % 11 === 0 ? null : i % 7 === 0 ? i : `${'é'.repeat(i % 3)}t${i}${'x'.repeat(i % 17)}`);
    for (let i = 0; i < n; i++) {
      batch.push(valueOf(i));
      batch.endRow();
    }
    const read: unknown[] = [];
    batch.forEachBlockColumns((count, first, _column, convertColumn) => {
      const rows = Array.from({ length: count }, () => [undefined as unknown]);
      expect(convertColumn(0, rows, jsonKept(mk('VARCHAR')), (v) => (typeof v === 'number' ? `n${v}` : v), true)).toBe(true);
      expect(first).toBe(read.length);
      read.push(...rows.map((r) => r[0]));
    });
    expect(read).toEqual(Array.from({ length: n }, (_, i) => (typeof valueOf(i) === 'number' ? `n${valueOf(i)}` : valueOf(i))));
  });
});

describe('a step given batches', () => {
  it('gives what the same rows give in row form: changes, errors with their index, later contents', () => {
    const r = compile(SQL);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const program = r.program;
    let errors = 0;
    let steps = 0;
    fc.assert(
      fc.property(fc.array(fc.array(ops, { maxLength: 12 }), { minLength: 1, maxLength: 4 }), (stepsOps) => {
        const rows = program.newCircuit();
        const batches = program.newCircuit();
        for (const list of stepsOps) {
          const a = outcome(() => rows.step(rowForm(list)));
          const b = outcome(() => batches.step(batchForm(list)));
          expect(b).toEqual(a);
          if ((a as { error?: string }).error) errors++;
          else steps++;
        }
        for (const name of ['K', 'P', 'BY_OK', 'JOINED']) expect(batches.contents(name)).toEqual(rows.contents(name));
      }),
      { numRuns: 200 },
    );
    // both outcomes were exercised
    expect(errors).toBeGreaterThan(10);
    expect(steps).toBeGreaterThan(10);
  });

  it('check() refuses exactly what step() refuses (message and index), in row and batch form, and changes nothing', () => {
    const r = compile(SQL);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const program = r.program;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(fc.array(ops, { maxLength: 12 }), { minLength: 1, maxLength: 4 }), (stepsOps) => {
        const stepped = program.newCircuit();
        const checked = program.newCircuit();
        for (const list of stepsOps) {
          const byStep = outcome(() => stepped.step(rowForm(list)));
          const error = (byStep as { error?: string }).error;
          for (const input of [rowForm(list), batchForm(list)]) {
            const byCheck = outcome(() => {
              checked.check(input);
              return { changes: new Map() };
            });
            expect(byCheck).toEqual(error === undefined ? { changes: [] } : byStep);
          }
          if (error !== undefined) refused++;
          // checking applied nothing: the checked circuit stays empty
          for (const name of ['K', 'P']) expect(checked.contents(name)).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
    expect(refused).toBeGreaterThan(10);
  });

  it('big steps (a table delta sized up front) give what row form gives, also with row changes of the same table in the step', () => {
    const r = compile(SQL);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const k = (i: number): Op => ({ table: 'K', op: i % 9 === 8 ? 'delete' : 'insert', vals: [i % 50, i % 3 ? 'a' : null, '1.25', null, null, i % 2 === 0, i / 4] });
    const p = (i: number): Op => ({ table: 'P', op: 'upsert', vals: [i % 700, 'q', i % 10] });
    const range = (from: number, n: number, f: (i: number) => Op): Op[] => Array.from({ length: n }, (_, j) => f(from + j));
    const steps: Op[][] = [
      range(0, 3000, k),
      [...range(3000, 1500, k), { plain: { table: 'K', op: 'insert', row: { ID: 1, X: 2 } } }, ...range(4500, 200, k)],
      [...range(0, 1100, p), ...range(5000, 2000, k)],
      range(7000, 1024, (i) => ({ ...k(i), op: 'delete' })),
    ];
    const rows = r.program.newCircuit();
    const batches = r.program.newCircuit();
    for (const list of steps) expect(outcome(() => batches.step(batchForm(list)))).toEqual(outcome(() => rows.step(rowForm(list))));
    for (const name of ['K', 'P', 'BY_OK', 'JOINED']) expect(batches.contents(name)).toEqual(rows.contents(name));
    expect(batches.contents('K').length).toBeGreaterThan(50);
  });

  it('refuses a batch whose rows do not fit its table, naming the first row', () => {
    const r = compile(SQL);
    if (!r.ok) throw new Error('compile');
    const c = r.program.newCircuit();
    const wrong = new RowBatch(2);
    wrong.push(1);
    wrong.push('a');
    wrong.endRow();
    expect(() =>
      c.step([
        { table: 'P', op: 'upsert', row: { ID: 1 } },
        { table: 'K', op: 'batch', rowOp: 'insert', rows: wrong },
      ]),
    ).toThrow(new EngineInputError("row has 2 values but table 'K' has 7 columns", 1));
    expect(() => c.step([{ table: 'K', op: 'batch', rowOp: 'upsert', rows: new RowBatch(7) }])).toThrow(/has no primary key/);
    expect(c.contents('P')).toEqual([]);
  });
});
