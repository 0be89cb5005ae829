/**
 * The UUID type (engine/types/uuid.ts and its casts): text read with PostgreSQL's rules (checked against PGlite,
 * which has the type), the canonical lower-case text out, 16-byte BINARY both ways, comparison with strings,
 * ordering as bytes, aggregates and joins on UUID columns, JSON and CSV input refused with a reason, and the
 * UUID literal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { compile, type CompiledProgram } from '../../src/engine/index.js';
import { parseUuid } from '../../src/engine/types/uuid.js';
import { newPglite } from './pglite.js';

const A = '123e4567-e89b-12d3-a456-426655440000';
const B = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
const Z = '00000000-0000-0000-0000-000000000000';

function prog(sql: string): CompiledProgram {
  const r = compile(sql, { outputCase: 'lower' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.program;
}

const TEXTS = [
  A,
  A.toUpperCase(),
  `{${A}}`,
  A.replace(/-/g, ''),
  '123e-4567-e89b-12d3-a456-4266-5544-0000',
  '123e4567e89b12d3a456426655440000'.replace(/(.{4})/g, '$1-').slice(0, -1),
  `{${A.replace(/-/g, '')}}`,
  ` ${A}`,
  `${A} `,
  `urn:uuid:${A}`,
  A.slice(0, -1),
  `${A}0`,
  `-${A}`,
  `${A}-`,
  '123e4567--e89b-12d3-a456-426655440000',
  '123-e4567-e89b-12d3-a456-426655440000',
  `{${A}`,
  A.replace('e', 'g'),
  '',
];

describe('UUID text, as PostgreSQL reads it', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await newPglite();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  it.each(TEXTS)('%j', async (text) => {
    let want: string | undefined;
    try {
      want = ((await pg.query<{ u: string }>('SELECT $1::uuid::text AS u', [text])).rows[0]!.u as string) ?? undefined;
    } catch {
      want = undefined;
    }
    expect(parseUuid(text)).toBe(want);
  });
});

describe('the UUID type in programs', () => {
  const p = prog(`CREATE TABLE t (id INT, u UUID) WITH ('materialized' = 'true');
CREATE TABLE s (u UUID, label VARCHAR);
CREATE MATERIALIZED VIEW v AS SELECT id, u, CAST(u AS VARCHAR) AS txt, CAST(u AS VARBINARY) AS bin, CAST(CAST(u AS VARBINARY) AS UUID) AS back,
  u = '${A.toUpperCase()}' AS eq_text, u < UUID '${B}' AS below_b FROM t;
CREATE MATERIALIZED VIEW bins AS SELECT CAST(u AS BINARY) AS b1, CAST(u AS BINARY(4)) AS b4, CAST(u AS BINARY(18)) AS b18 FROM t WHERE id = 1;
CREATE MATERIALIZED VIEW agg AS SELECT MIN(u) AS mn, MAX(u) AS mx, COUNT(DISTINCT u) AS n FROM t;
CREATE MATERIALIZED VIEW j AS SELECT t.id, s.label FROM t JOIN s ON t.u = s.u;
CREATE MATERIALIZED VIEW lit AS SELECT UUID '{${A.replace(/-/g, '')}}' AS a, CAST('nope' AS UUID) AS bad, CAST(x'0102' AS UUID) AS short FROM t WHERE id = 1;`);

  it('reads JSON input in any accepted form and answers the canonical text; casts, comparisons, order, aggregates, joins', () => {
    const c = p.newCircuit();
    c.step([
      { table: 't', op: 'insert', row: { id: 1, u: A.toUpperCase() } },
      { table: 't', op: 'insert', row: { id: 2, u: `{${B}}` } },
      { table: 't', op: 'insert', row: { id: 3, u: Z.replace(/-/g, '') } },
      { table: 't', op: 'insert', row: { id: 4, u: null } },
      { table: 's', op: 'insert', row: { u: A, label: 'a' } },
      { table: 's', op: 'insert', row: { u: B, label: 'b' } },
    ]);
    const v = Object.fromEntries(c.contents('v').map(({ row }) => [row.id as number, row]));
    expect(v[1]).toEqual({ id: 1, u: A, txt: A, bin: [0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0, 0], back: A, eq_text: true, below_b: true });
    expect(v[2]).toMatchObject({ u: B, eq_text: false, below_b: false });
    expect(v[3]).toMatchObject({ u: Z, below_b: true });
    expect(v[4]).toMatchObject({ u: null, txt: null, eq_text: null });
    // BINARY(n): the first n bytes, zeros past the 16th (BINARY alone is BINARY(1))
    expect(c.contents('bins').map(({ row }) => row)).toEqual([{ b1: [0x12], b4: [0x12, 0x3e, 0x45, 0x67], b18: [...(v[1]!.bin as number[]), 0, 0] }]);
    // ordered as the 16 bytes are
    expect(c.contents('agg').map(({ row }) => row)).toEqual([{ mn: Z, mx: B, n: 3 }]);
    expect(
      c
        .contents('j')
        .map(({ row }) => `${row.id}${row.label}`)
        .sort(),
    ).toEqual(['1a', '2b']);
    // a text or byte string that is not a UUID casts to NULL (as the engine's other failed casts)
    expect(c.contents('lit').map(({ row }) => row)).toEqual([{ a: A, bad: null, short: null }]);
  });

  it('refuses input that is not a UUID, saying so; CSV reads the same forms', () => {
    const c = p.newCircuit();
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 9, u: `urn:uuid:${A}` } }])).toThrow(/expected a UUID string/);
    expect(() => c.step([{ table: 't', op: 'insert', row: { id: 9, u: 7 } }])).toThrow(/expected a UUID string/);
    c.step([{ table: 't', op: 'csv', fields: ['5', A.toUpperCase()] }]);
    expect(c.contents('v').map(({ row }) => row.u)).toEqual([A]);
  });

  it('types the column UUID in the schema', () => {
    expect(p.tables[0]!.columns[1]).toMatchObject({ name: 'u', type: 'UUID', nullable: true });
  });
});
