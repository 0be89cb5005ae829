/**
 * The limits of an ad-hoc query (egress/query-limits.ts) as the server's options set them, and the guard that
 * applies them (egress/query-memory.ts): time from the guard's making, rows built by the query's step, rows and
 * bytes of the answer; each refusal names its limit; an INSERT ... SELECT's formatting and the flags of
 * `ops serve` that set them.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../../../src/engine/index.js';
import { DEFAULT_QUERY_LIMITS, queryLimitsOf } from '../../../../src/services/pipelines/shared/query-limits.js';
import { queryGuard } from '../../../../src/services/pipelines/worker/egress/query-memory.js';
import { badQuery, formatQuery } from '../../../../src/services/pipelines/worker/egress/adhoc.js';
import { parsePositive } from '../../../../src/commands/serve/flags.js';

const refusal = (f: () => void): { message: string; details: unknown } => {
  try {
    f();
  } catch (err) {
    const body = (err as { body(): { message: string; details: unknown } }).body();
    return { message: body.message, details: body.details };
  }
  throw new Error('not refused');
};

/** The one column of the answers formatted here. */
const X_COLUMN = [{ name: 'X', caseSensitive: false, type: 'INTEGER', nullable: false }];

describe('query limits from the server options', () => {
  it('defaults: 30 s, 10^8 rows, 256 MiB; a value that is not a positive number keeps the default', () => {
    expect(queryLimitsOf({})).toEqual({ timeoutMs: 30_000, maxRows: 100_000_000, maxBytes: 256 * 1024 * 1024 });
    expect(queryLimitsOf({ queryTimeoutMs: 0, queryMaxRows: -1, queryMaxBytes: 'x' })).toEqual(DEFAULT_QUERY_LIMITS);
    expect(queryLimitsOf({ queryTimeoutMs: 1500, queryMaxRows: 10, queryMaxBytes: 99 })).toEqual({ timeoutMs: 1500, maxRows: 10, maxBytes: 99 });
  });

  it('ops serve --query-timeout / --query-max-rows / --query-max-mb take positive numbers only', () => {
    expect(parsePositive('--query-timeout', undefined)).toBeUndefined();
    expect(parsePositive('--query-timeout', '2.5')).toBe(2.5);
    expect(() => parsePositive('--query-timeout', '0')).toThrow(/--query-timeout must be a positive number, not "0"/);
    expect(() => parsePositive('--query-max-rows', '1.5', true)).toThrow(/--query-max-rows must be a positive whole number/);
    expect(() => parsePositive('--query-max-mb', 'lots')).toThrow(/positive number/);
  });
});

describe('the guard of a query', () => {
  it('past its time: refused naming the time limit and the flag', () => {
    const guard = queryGuard(badQuery, () => false, null, 'The query', { ...DEFAULT_QUERY_LIMITS, timeoutMs: 1 });
    const until = Date.now() + 20;
    while (Date.now() < until); // the time passes
    const r = refusal(() => guard.check());
    expect(r.message).toMatch(/ran past the time limit of 0\.001 s for an ad-hoc query \(ops serve --query-timeout\); nothing was changed/);
    expect(r.details).toEqual({ limit: 'query_timeout', value_ms: 1 });
  });

  it('past the rows its step may build: the step is stopped by the guard, naming the rows limit', () => {
    const r = compile('CREATE TABLE a (x INT); CREATE VIEW j AS SELECT COUNT(*) AS c FROM a AS l, a AS r;');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const guard = queryGuard(badQuery, () => false, null, 'The query', { ...DEFAULT_QUERY_LIMITS, maxRows: 50_000 });
    const circuit = r.program.newCircuit({ guard: guard.check });
    const rows = Array.from({ length: 1000 }, (_, i) => ({ table: 'A', op: 'insert' as const, row: { X: i } }));
    const e = refusal(() => circuit.step(rows));
    expect(e.message).toMatch(/it built \d+ rows, past the limit of 50000 rows for an ad-hoc query \(ops serve --query-max-rows\)/);
    expect(e.details).toEqual({ limit: 'query_max_rows', value: 50_000 });
    guard.check(); // outside a step, the rows built are the step's no longer
  });

  it('an answer past its rows or its bytes: refused as it is written, in both formats', () => {
    const rows = [{ row: { X: 1 }, weight: 100 }];
    const tight = (limits: Partial<typeof DEFAULT_QUERY_LIMITS>) => queryGuard(badQuery, () => false, null, 'The query', { ...DEFAULT_QUERY_LIMITS, ...limits });
    expect(formatQuery(rows, X_COLUMN, 'json', tight({ maxRows: 100 }))).toBe('{"X":1}\n'.repeat(100));
    expect(refusal(() => formatQuery(rows, X_COLUMN, 'json', tight({ maxRows: 99 }))).details).toEqual({ limit: 'query_max_rows', value: 99 });
    expect(refusal(() => formatQuery(rows, X_COLUMN, 'text', tight({ maxRows: 99 }))).message).toMatch(/more than 99 rows/);
    expect(formatQuery(rows, X_COLUMN, 'json', tight({ maxBytes: 800 }))).toHaveLength(800);
    expect(refusal(() => formatQuery(rows, X_COLUMN, 'json', tight({ maxBytes: 799 }))).details).toEqual({ limit: 'query_max_bytes', value: 799 });
    expect(refusal(() => formatQuery(rows, X_COLUMN, 'text', tight({ maxBytes: 500 }))).message).toMatch(/more than 500 bytes/);
  });

  it('a text answer of many rows is drawn (its widths no longer spread over every row as arguments)', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => ({ row: { X: i }, weight: 1 }));
    const text = formatQuery(rows, X_COLUMN, 'text');
    expect(text.split('\n')).toHaveLength(300_000 + 5);
    expect(text.split('\n')[3]).toBe('| 0      |');
  });
});
