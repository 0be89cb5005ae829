/**
 * ROW types: `CREATE TYPE t AS (...)` and anonymous `ROW(f T, ...)` column types, nested in ARRAY, MAP and
 * each other; values in and out as JSON objects; field access, the ROW(...) constructor, equality and
 * GROUP BY on rows, NULL rows vs rows of NULLs, CAST between rows; compile errors with line and column.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompiledProgram, type JsonRow, type JsonValue } from '../../src/engine/index.js';

function program(sql: string): CompiledProgram {
  const r = compile(sql);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.program;
}

function errors(sql: string) {
  const r = compile(sql);
  if (r.ok) throw new Error('compiled');
  return r.errors.map((e) => ({ message: e.message, line: e.line, column: e.column }));
}

/** Rows of a view's contents, each repeated by its weight, sorted by their JSON text. */
function contents(c: ReturnType<CompiledProgram['newCircuit']>, view: string): JsonRow[] {
  return c
    .contents(view)
    .flatMap((r) => Array.from({ length: r.weight }, () => r.row))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

const SQL = `CREATE TYPE address AS (street VARCHAR, zip INT NOT NULL);
CREATE TYPE person AS (name STRING, home address, "Tags" VARCHAR ARRAY);
CREATE TABLE p (
  id INT NOT NULL PRIMARY KEY,
  who person,
  prev address ARRAY,
  pos ROW(x INT, y ROW(z VARCHAR)),
  m MAP<VARCHAR, address>
);
CREATE MATERIALIZED VIEW fields AS SELECT id, p.who.name AS name, who.home.zip AS zip, (pos).y.z AS z, prev[1].street AS first_street FROM p;
CREATE MATERIALIZED VIEW homes AS SELECT who.home AS home, COUNT(*) AS n FROM p GROUP BY who.home;
CREATE MATERIALIZED VIEW built AS SELECT id, ROW(id, who.name) AS r FROM p WHERE id <> 0; -- ROW(id, 'x') <> ROW(0, 'x') is refused, as Feldera refuses comparing ROW values
CREATE MATERIALIZED VIEW cast_rows AS SELECT id, CAST(pos AS ROW(a BIGINT, b ROW(c VARCHAR))) AS c FROM p;`;

describe('ROW types', () => {
  const prog = program(SQL);

  it('table columns of user and anonymous ROW types, nested in ARRAY and MAP, with their type text', () => {
    expect(prog.tables[0]!.columns.map((c) => [c.name, c.type])).toEqual([
      ['ID', 'INTEGER'],
      ['WHO', 'ROW("NAME" VARCHAR, "HOME" ROW("STREET" VARCHAR, "ZIP" INTEGER NOT NULL), "Tags" VARCHAR ARRAY)'],
      ['PREV', 'ROW("STREET" VARCHAR, "ZIP" INTEGER NOT NULL) ARRAY'],
      ['POS', 'ROW("X" INTEGER, "Y" ROW("Z" VARCHAR))'],
      ['M', 'MAP<VARCHAR, ROW("STREET" VARCHAR, "ZIP" INTEGER NOT NULL)>'],
    ]);
    expect(prog.relation('cast_rows')!.columns[1]!.type).toBe('ROW("A" BIGINT, "B" ROW("C" VARCHAR))');
  });

  it('reads JSON objects (fields in any case, a quoted one exactly; missing fields NULL) or arrays in field order; writes objects', () => {
    const [, who, prev, pos, m] = prog.inputCodec('p')!.columns;
    const cases: Array<[typeof who, JsonValue, JsonValue]> = [
      [who!, { name: 'Ann', HOME: { street: 'Main', zip: 1 }, Tags: ['a'] }, { NAME: 'Ann', HOME: { STREET: 'Main', ZIP: 1 }, Tags: ['a'] }],
      [who!, { name: 'Bo', tags: ['ignored: the field is quoted'] }, { NAME: 'Bo', HOME: null, Tags: null }],
      [who!, ['Cy', [null, 7], null], { NAME: 'Cy', HOME: { STREET: null, ZIP: 7 }, Tags: null }],
      [who!, {}, { NAME: null, HOME: null, Tags: null }],
      [who!, null, null],
      [prev!, [{ zip: 1 }, null], [{ STREET: null, ZIP: 1 }, null]],
      [pos!, { x: 1, y: { z: 'q' } }, { X: 1, Y: { Z: 'q' } }],
      [m!, { k: { zip: 2 }, a: null }, { a: null, k: { STREET: null, ZIP: 2 } }],
    ];
    for (const [codec, input, output] of cases) expect(codec.fromJson(input), JSON.stringify(input)).toEqual(output);
    // CSV: a ROW field is its JSON text, as ARRAY and MAP fields are
    expect(pos!.fromCsv('{"x": 2, "y": null}')).toEqual({ X: 2, Y: null });
    expect(pos!.fromCsv('')).toBeNull();
  });

  it('refuses values that do not fit, naming the field', () => {
    const [, who, prev, pos] = prog.inputCodec('p')!.columns;
    expect(() => who!.fromJson({ home: { street: 'x' } })).toThrow('field `HOME`: invalid type: null, expected i32 for the NOT NULL field `ZIP`');
    expect(() => who!.fromJson('Ann')).toThrow('invalid type: string "Ann", expected a row (an object of its fields)');
    expect(() => pos!.fromJson({ x: 'one' })).toThrow('field `X`: invalid type: string "one", expected i32');
    expect(() => pos!.fromJson([1])).toThrow('invalid length 1, expected a row of 2 fields');
    expect(() => prev!.fromJson({ zip: 1 })).toThrow('expected a sequence');
    expect(() => pos!.fromCsv('{x')).toThrow('expected a row (an object of its fields) written as JSON');
  });

  const row = (id: number, name: string | null, home: JsonValue, z = 'q'): JsonRow => {
    const codec = prog.inputCodec('p')!.columns;
    const raw: JsonValue[] = [id, { name, home }, [{ street: `s${id}`, zip: id }], { x: id, y: { z } }, null];
    return Object.fromEntries(codec.map((c, i) => [c.name, c.fromJson(raw[i]!)]));
  };

  it('field access, ROW constructors, GROUP BY rows (a NULL row apart from a row of NULLs) and CAST, maintained under inserts and deletes', () => {
    const c = prog.newCircuit();
    const rows = [row(1, 'Ann', { street: 'Main', zip: 1 }), row(2, 'Bo', { street: 'Main', zip: 1 }), row(3, null, null), row(4, 'Di', { street: null, zip: 1 }), row(5, 'Ed', null)];
    c.step(rows.map((r) => ({ table: 'p', op: 'insert' as const, row: r })));
    expect(contents(c, 'fields')).toEqual([
      { ID: 1, NAME: 'Ann', ZIP: 1, Z: 'q', FIRST_STREET: 's1' },
      { ID: 2, NAME: 'Bo', ZIP: 1, Z: 'q', FIRST_STREET: 's2' },
      { ID: 3, NAME: null, ZIP: null, Z: 'q', FIRST_STREET: 's3' },
      { ID: 4, NAME: 'Di', ZIP: 1, Z: 'q', FIRST_STREET: 's4' },
      { ID: 5, NAME: 'Ed', ZIP: null, Z: 'q', FIRST_STREET: 's5' },
    ]);
    expect(contents(c, 'homes')).toEqual([
      { HOME: null, N: 2 },
      { HOME: { STREET: 'Main', ZIP: 1 }, N: 2 },
      { HOME: { STREET: null, ZIP: 1 }, N: 1 },
    ]);
    expect(contents(c, 'built').map((r) => r.R)).toEqual([
      { EXPR$0: 1, EXPR$1: 'Ann' },
      { EXPR$0: 2, EXPR$1: 'Bo' },
      { EXPR$0: 3, EXPR$1: null },
      { EXPR$0: 4, EXPR$1: 'Di' },
      { EXPR$0: 5, EXPR$1: 'Ed' },
    ]);
    expect(contents(c, 'cast_rows')[0]).toEqual({ ID: 1, C: { A: 1, B: { C: 'q' } } });
    // a delete retracts the row from its group; an update (upsert) moves it
    const out = c.step([
      { table: 'p', op: 'delete', row: { ID: 1 } },
      { table: 'p', op: 'insert', row: row(5, 'Ed', { street: 'Main', zip: 1 }) },
    ]);
    expect(out.changes.get('HOMES')).toEqual(
      expect.arrayContaining([
        { row: { HOME: null, N: 2 }, weight: -1 },
        { row: { HOME: null, N: 1 }, weight: 1 },
      ]),
    );
    expect(contents(c, 'homes')).toEqual([
      { HOME: null, N: 1 },
      { HOME: { STREET: 'Main', ZIP: 1 }, N: 2 },
      { HOME: { STREET: null, ZIP: 1 }, N: 1 },
    ]);
  });

  it('a VARIANT casts to a ROW type by field name (a JSON object decoded as Feldera documents) and a ROW to a VARIANT', () => {
    const p2 = program(`CREATE TYPE address AS (city VARCHAR, street VARCHAR, number INT, price DECIMAL(5, 2));
      CREATE TABLE data (addr VARCHAR);
      CREATE MATERIALIZED VIEW decoded AS SELECT CAST(PARSE_JSON(addr) AS address) AS a FROM data;
      CREATE MATERIALIZED VIEW back AS SELECT CAST(a AS VARIANT) AS v FROM decoded;`);
    const c = p2.newCircuit();
    c.step([
      { table: 'data', op: 'insert', row: { ADDR: '{"city": "Boston", "street": "Main", "number": 10, "price": 1.5}' } },
      { table: 'data', op: 'insert', row: { ADDR: '{"CITY": "Paris"}' } },
      { table: 'data', op: 'insert', row: { ADDR: '[1, 2]' } },
    ]);
    expect(contents(c, 'decoded')).toEqual([{ A: null }, { A: { CITY: 'Boston', STREET: 'Main', NUMBER: 10, PRICE: '1.50' } }, { A: { CITY: 'Paris', STREET: null, NUMBER: null, PRICE: null } }]);
    expect(contents(c, 'back')).toEqual([{ V: null }, { V: { CITY: 'Boston', NUMBER: 10, PRICE: 1.5, STREET: 'Main' } }, { V: { CITY: 'Paris', NUMBER: null, PRICE: null, STREET: null } }]);
  });

  it("table.column.field names with a subscript after them (Feldera's t.c.f[2]), user and anonymous row types", () => {
    const c = program(`CREATE TYPE ints AS (xs INT ARRAY, n INT);
CREATE TABLE rt (id INT, a ints, b ROW(v VARCHAR ARRAY));
CREATE VIEW v AS SELECT id, rt.a.xs[2] AS x2, rt.b.v[1] AS v1, a.xs[3] AS x3, rt.a.n AS n FROM rt;`).newCircuit();
    c.step([{ table: 'rt', op: 'insert', row: { ID: 1, A: { XS: [10, 20], N: 7 }, B: { V: ['p', 'q'] } } as never }]);
    expect(contents(c, 'v')).toEqual([{ ID: 1, X2: 20, V1: 'p', X3: null, N: 7 }]);
    expect(errors('CREATE TABLE rt (id INT, b ROW(v INT ARRAY));\nCREATE VIEW v AS SELECT rt.nope.v[1] AS x FROM rt;')[0]!.message).toMatch(/nope/);
  });

  it('a JSON null in a VARIANT NOT NULL field is the VARIANT null, in a nullable one SQL NULL (as Feldera reads them)', () => {
    const c = program(`CREATE TABLE vt (id INT, r ROW(i1 VARIANT NULL, i2 VARIANT NOT NULL) ARRAY NOT NULL);
CREATE VIEW v AS SELECT id, TYPEOF(r[1].i2) AS t2, r[1].i1 IS NULL AS n1, r[1].i2 IS NULL AS n2, TYPEOF(r[2].i2) AS t22 FROM vt;`).newCircuit();
    c.step([
      {
        table: 'vt',
        op: 'insert',
        row: {
          ID: 1,
          R: [
            { i1: null, i2: null },
            { i1: '2', i2: '3' },
          ],
        } as never,
      },
    ]);
    expect(contents(c, 'v')).toEqual([{ ID: 1, T2: 'VARIANT', N1: true, N2: false, T22: 'VARCHAR' }]);
  });

  it('ROW(...) with expressions is a constructor, not a type', () => {
    const p2 = program(`CREATE TABLE t (a INT, b BOOLEAN);
      CREATE MATERIALIZED VIEW v AS SELECT ROW(NOT b, CASE WHEN a > 1 THEN 'big' ELSE 'small' END, a IS NULL, b AND TRUE) AS r FROM t;`);
    const c = p2.newCircuit();
    c.step([{ table: 't', op: 'insert', row: { A: 2, B: false } }]);
    expect(contents(c, 'v')).toEqual([{ R: { EXPR$0: true, EXPR$1: 'big', EXPR$2: false, EXPR$3: false } }]);
  });

  it('output names follow the program casing, field names too', () => {
    const lower = compile('CREATE TYPE t AS (f1 INT, "F2" STRING); CREATE TABLE x (c t); CREATE MATERIALIZED VIEW v AS SELECT c.f1, c FROM x;', { outputCase: 'lower' });
    if (!lower.ok) throw new Error(JSON.stringify(lower.errors));
    expect(lower.program.tables[0]!.columns[0]!.type).toBe('ROW("f1" INTEGER, "F2" VARCHAR)');
    const c = lower.program.newCircuit();
    c.step([{ table: 'x', op: 'insert', row: { c: lower.program.inputCodec('x')!.columns[0]!.fromJson({ F1: 1, F2: 'b' }) } }]);
    expect(c.contents('v').map((r) => r.row)).toEqual([{ f1: 1, c: { f1: 1, F2: 'b' } }]);
  });

  it('unknown, recursive and duplicate types and fields are compile errors at their line and column', () => {
    expect(errors('CREATE TABLE t (c nope);')).toEqual([{ message: "Unknown type 'nope'", line: 1, column: 17 }]);
    expect(errors('CREATE TYPE t AS (a INT,\n  b t);')).toEqual([{ message: "Unknown type 't'", line: 2, column: 5 }]);
    expect(errors('CREATE TYPE t AS (a INT);\nCREATE TYPE t AS (b INT);')).toEqual([{ message: "Duplicate declaration of type 't'", line: 2, column: 13 }]);
    expect(errors('CREATE TYPE t AS (a INT, A VARCHAR);')).toEqual([{ message: "Duplicate field 'A'", line: 1, column: 26 }]);
    expect(errors('CREATE TABLE t (c ROW(a INT, b unknown_t));')).toEqual([{ message: "Unknown type 'unknown_t'", line: 1, column: 32 }]);
    expect(errors('CREATE TYPE t AS (a INT;')[0]!.message).toMatch(/^CREATE TYPE: expected ',' or '\)'/);
    expect(errors('CREATE TABLE t (c ROW(a INT));\nCREATE VIEW v AS SELECT c.b FROM t;')[0]).toMatchObject({ message: expect.stringMatching(/Unknown field 'b'/), line: 2 });
    expect(errors('CREATE TABLE t (c INT);\nCREATE VIEW v AS SELECT (c).b FROM t;')[0]!.message).toMatch(/not a ROW/);
    expect(errors('CREATE TABLE t (c ROW(a INT));\nCREATE VIEW v AS SELECT CAST(c AS ROW(a INT, b INT)) FROM t;')[0]!.message).toMatch(/1 fields to 2/);
  });
});
