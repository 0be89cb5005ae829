/**
 * Differential test of integer arithmetic against PGlite, where Postgres and Feldera agree: SMALLINT, INTEGER
 * and BIGINT values at and near their limits (and NULLs) through + - * / %, unary minus, ABS, narrowing casts,
 * comparisons and MIN/MAX/COUNT/SUM. Postgres computes in the same types (int2 op int2 is int2, int4 op int8
 * is int8) and raises "out of range" (22003) or "division by zero" (22012) where the engine must refuse the
 * step (EngineStepError); every other result must be equal, digit for digit. (Postgres's SUM of BIGINT is a
 * NUMERIC: the engine's BIGINT SUM must equal it when it fits and refuse the step when it does not.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PGlite } from '@electric-sql/pglite';
import { compile, EngineStepError, type JsonValue } from '../../src/engine/index.js';
import { newPglite } from './pglite.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const pick = <T>(xs: T[]) => fc.option(fc.constantFrom(...xs), { freq: 8 });
const rowArb = fc.record({
  si: pick([-32768, -32767, -1, 0, 1, 2, 181, 182, 32767]),
  i: pick([-2147483648, -2147483647, -46341, -1, 0, 1, 2, 3, 46340, 46341, 2147483647]),
  b: pick([MIN, MIN + 1n, -SAFE - 2n, -3037000500n, -1n, 0n, 1n, 2n, 7n, 3037000499n, 3037000500n, SAFE + 1n, SAFE + 2n, MAX - 1n, MAX]),
  b2: pick([MIN, -SAFE - 2n, -2n, -1n, 0n, 1n, 3n, 3037000499n, SAFE, SAFE + 2n, MAX]),
});
type Row = { si: number | null; i: number | null; b: bigint | null; b2: bigint | null };

const EXPRS = [
  'si + si',
  'si - si',
  'si * si',
  'si / si',
  'si % si',
  '-si',
  'ABS(si)',
  'si * 2',
  'i + i',
  'i - i',
  'i * i',
  'i / i',
  'i % i',
  '-i',
  'ABS(i)',
  'i + si',
  'i * 2 - 1',
  'b + b2',
  'b - b2',
  'b * b2',
  'b / b2',
  'b % b2',
  '-b',
  'ABS(b)',
  'b * 2 + 1',
  '(b2 + 1) / 2',
  'b + i',
  'i * b',
  'b / i',
  'b % i',
  'si - b',
  'CAST(b AS INTEGER)',
  'CAST(i AS SMALLINT)',
  'CAST(b AS SMALLINT)',
  'CAST(b AS VARCHAR)',
  'CAST(CAST(b2 AS VARCHAR) AS BIGINT)',
  'b < b2',
  'b = b2',
  'b >= i',
  'CASE WHEN b > i THEN b ELSE i END',
];

let pg: PGlite;
beforeAll(async () => {
  pg = await newPglite();
  await pg.exec('CREATE TABLE r (si SMALLINT, i INTEGER, b BIGINT, b2 BIGINT);');
}, 120_000);
afterAll(async () => {
  await pg?.close();
});

const lit = (v: number | bigint | null, type: string) => (v === null ? `NULL::${type}` : `(${v})::${type}`);
const rowSql = (r: Row) => `(${lit(r.si, 'smallint')}, ${lit(r.i, 'integer')}, ${lit(r.b, 'bigint')}, ${lit(r.b2, 'bigint')})`;

/** Postgres's answer as text, or 'ERROR' for out of range / division by zero. */
async function pgEval(sql: string): Promise<string[][] | 'ERROR'> {
  try {
    const res = await pg.query<Record<string, unknown>>(sql, [], { rowMode: 'array' });
    return (res.rows as unknown as unknown[][]).map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === '22003' || code === '22012') return 'ERROR';
    throw e;
  }
}

const text = (v: JsonValue | undefined): string => (v === null || v === undefined ? 'NULL' : typeof v === 'boolean' ? String(v) : String(v));

function engineEval(program: ReturnType<typeof compileOne>, rows: Row[], cols: string[]): string[][] | 'ERROR' {
  try {
    const res = program.newCircuit().step(rows.map((r) => ({ table: 'r', op: 'insert', row: r as unknown as Record<string, JsonValue> })));
    const out = res.changes.get('V') ?? [];
    return out.flatMap(({ row, weight }) => Array.from({ length: weight }, () => cols.map((c) => text(row[c]))));
  } catch (e) {
    if (e instanceof EngineStepError) return 'ERROR';
    throw e;
  }
}

function compileOne(select: string) {
  const r = compile(`CREATE TABLE r (si SMALLINT, i INTEGER, b BIGINT, b2 BIGINT); CREATE VIEW v AS ${select};`);
  if (!r.ok) throw new Error(`${select}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.program;
}

const pgBool = (rows: string[][] | 'ERROR') => (rows === 'ERROR' ? rows : rows.map((r) => r.map((v) => (v === 't' ? 'true' : v === 'f' ? 'false' : v))));

describe('integer arithmetic: engine vs Postgres', () => {
  const rows = fc.sample(rowArb, { seed: 64, numRuns: 60 }) as Row[];

  it.each(EXPRS)('%s on values at and near the limits', async (expr) => {
    const program = compileOne(`SELECT ${expr} AS x FROM r`);
    const mismatches: string[] = [];
    for (const row of rows) {
      const want = pgBool(await pgEval(`SELECT (${expr})::text FROM (VALUES ${rowSql(row)}) AS r(si, i, b, b2)`));
      const got = engineEval(program, [row], ['X']);
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${rowSql(row)}: engine ${JSON.stringify(got)}, postgres ${JSON.stringify(want)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('MIN, MAX, COUNT and SUM over sets of rows: SUM equal when it fits BIGINT, the step refused when it does not', async () => {
    const program = compileOne('SELECT MIN(b) AS mn, MAX(b) AS mx, COUNT(b) AS c, SUM(b) AS s, MIN(i) AS mi, SUM(si) AS ss FROM r');
    const sets = fc.sample(fc.array(rowArb, { minLength: 1, maxLength: 6 }), { seed: 65, numRuns: 80 }) as Row[][];
    let refused = 0;
    for (const set of sets) {
      const pgRows = await pgEval(`SELECT MIN(b)::text, MAX(b)::text, COUNT(b)::text, SUM(b)::text, MIN(i)::text, SUM(si)::text FROM (VALUES ${set.map(rowSql).join(', ')}) AS r(si, i, b, b2)`);
      if (pgRows === 'ERROR') throw new Error('unexpected Postgres error');
      const want = pgRows[0]!;
      const sum = want[3] === 'NULL' ? null : BigInt(want[3]!);
      const sumSi = want[5] === 'NULL' ? null : BigInt(want[5]!);
      const fits = (sum === null || (sum >= MIN && sum <= MAX)) && (sumSi === null || (sumSi >= -32768n && sumSi <= 32767n));
      const got = engineEval(program, set, ['MN', 'MX', 'C', 'S', 'MI', 'SS']);
      if (!fits) {
        expect(got, JSON.stringify(set.map(rowSql))).toBe('ERROR');
        refused++;
        continue;
      }
      expect(got, JSON.stringify(set.map(rowSql))).toEqual([want]);
    }
    expect(refused).toBeGreaterThan(0);
  });
});
