/**
 * A parsed JSON request stepped as the worker steps it (ParsedInput.input: runs of full rows as compact
 * batches, converted to rows column by column in the step) against the same changes in row form
 * (ParsedInput.changes, one object per change): the same step result or the same refusal (message and
 * index), and the same contents after, for awkward values: NULLs (also in NOT NULL columns), -0, BIGINTs
 * beyond 2^53, exact DECIMALs, strings with escapes, short and long, duplicate rows in one request, deletes
 * on a table without a key, upserts and deletes on a primary-key table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineInputError, EngineStepError, type InputChange, type StepResult } from '../../../../src/engine/index.js';
import { JsonParser } from '../../../../src/services/pipelines/worker/ingress/json.js';
import { bindingOf, program } from './schema.js';

const SQL = `CREATE TABLE k (id BIGINT NOT NULL, n INT, d DOUBLE, s VARCHAR, ok BOOLEAN, dec DECIMAL(10, 2), r REAL, c CHAR(3));
CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY, s VARCHAR NOT NULL, d DOUBLE);
CREATE VIEW kv AS SELECT id, d * 2 AS d2, s, n + 1 AS n1 FROM k WHERE ok IS NOT FALSE;
CREATE VIEW pv AS SELECT s, COUNT(*) AS c, SUM(d) AS sd FROM p GROUP BY s;`;
const PROGRAM = program(SQL);

/** Per column: values it takes (NULL included where it is nullable), and now and then one it refuses or that fails a view. */
const good: Record<string, fc.Arbitrary<string>> = {
  ID: fc.oneof(fc.integer({ min: -3, max: 6 }).map(String), fc.constantFrom('-0', '9007199254740993', '-9223372036854775808', '"12"')),
  N: fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom('-0', 'null', '2147483647')), // the last: k's view overflows (a step refused)
  D: fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => JSON.stringify(x)),
    fc.constantFrom('-0', '-0.0', '1e308', 'null'),
  ),
  S: fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'é', '😀', '"', '\\', '\n', 'ÿ', ' ') }).map((x) => JSON.stringify(x)),
    fc.constantFrom('"thirteen char"', '"a text longer than thirteen characters"', '""', '"\\u0000"', '"\\u00e9t\\u00e9"'),
  ),
  OK: fc.constantFrom('true', 'false', 'null'),
  DEC: fc.constantFrom('"1.25"', '12.5', '"-0.00"', '-0', '12345678.1234567891', 'null'),
  R: fc.constantFrom('0.1', '-0', '3.4e38', 'null'),
  C: fc.constantFrom('"ab"', '"abc"', 'null', '""'),
};
const bad: Record<string, fc.Arbitrary<string>> = {
  ID: fc.constantFrom('null', '9223372036854775808', '1.5'),
  N: fc.constantFrom('2147483648', '"x"'),
  D: fc.constantFrom('"1"'),
  S: fc.constantFrom('5', 'null'),
  OK: fc.constantFrom('1'),
  DEC: fc.constantFrom('"abc"', '123456789012'),
  R: fc.constantFrom('"r"'),
  C: fc.constantFrom('"abcd"', '7'),
};
const NOT_NULL = new Set(['ID', 'S']); // S is NOT NULL in p only: in k it is left out now and then all the same
const value = (c: string): fc.Arbitrary<string> => fc.oneof({ weight: 30, arbitrary: good[c]! }, { weight: 1, arbitrary: bad[c]! });

/** A row object: the NOT NULL columns mostly there (a row without one is refused by the parser), the others now and then left out. */
const row = (cols: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(...cols.map((c) => fc.option(value(c), { freq: NOT_NULL.has(c) ? 100 : 6 })))
    .map((vals) => `{${cols.flatMap((c, i) => (vals[i] === null ? [] : [`"${c.toLowerCase()}": ${vals[i]}`])).join(', ')}}`);

/** An insert_delete update for table k (no key) or p (primary key): mostly inserts, some deletes. */
const update = (cols: string[]): fc.Arbitrary<string> => fc.tuple(fc.constantFrom('insert', 'insert', 'insert', 'delete'), row(cols)).map(([op, r]) => `{"${op}": ${r}}`);

function outcome(step: () => StepResult): unknown {
  try {
    return { changes: [...step().changes].map(([name, rows]) => [name, rows]) };
  } catch (err) {
    if (err instanceof EngineInputError) return { error: err.message, index: err.index };
    if (err instanceof EngineStepError) return { refused: err.message };
    throw err;
  }
}

function parse(table: 'K' | 'P', lines: string[]) {
  const parser = new JsonParser(bindingOf(PROGRAM, table), { updateFormat: 'insert_delete', array: false });
  parser.push(Buffer.from(lines.join('\n')));
  return parser.end();
}

describe('a parsed request stepped in batch form and in row form', () => {
  for (const table of ['K', 'P'] as const) {
    it(`gives the same result, refusal and contents (${table === 'K' ? 'no key' : 'primary key'})`, () => {
      const cols = table === 'K' ? ['ID', 'N', 'D', 'S', 'OK', 'DEC', 'R', 'C'] : ['ID', 'S', 'D'];
      let batches = 0;
      let refused = 0;
      let parseErrors = 0;
      let applied = 0;
      fc.assert(
        fc.property(fc.array(fc.array(update(cols), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (requests) => {
          const batchForm = PROGRAM.newCircuit();
          const rowForm = PROGRAM.newCircuit();
          for (const lines of requests) {
            // a request repeated: duplicate rows in one step
            const parsed = parse(table, [...lines, ...lines]);
            if (parsed.errors.length) {
              parseErrors++;
              continue; // refused by the parser: never stepped
            }
            batches += parsed.input.filter((c: InputChange) => c.op === 'batch').length;
            const a = outcome(() => batchForm.step(parsed.input));
            const b = outcome(() => rowForm.step(parsed.changes));
            expect(a).toEqual(b);
            if ('changes' in (a as object)) applied++;
            else refused++;
          }
          for (const name of [table, table === 'K' ? 'KV' : 'PV']) expect(batchForm.contents(name)).toEqual(rowForm.contents(name));
        }),
        { numRuns: 150 },
      );
      // the batch form, requests refused by the parser, and steps applied and refused were exercised
      expect(batches).toBeGreaterThan(50);
      expect(applied).toBeGreaterThan(20);
      if (table === 'K') expect(refused).toBeGreaterThan(5); // p's views cannot fail
      expect(parseErrors).toBeGreaterThan(5);
    });
  }
});
