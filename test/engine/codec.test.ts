/** CompiledProgram.inputCodec: the engine's own per-column input rules (JSON and CSV) for the pipeline ingress. */
import { describe, expect, it } from 'vitest';
import { compile, EngineValueError } from '../../src/engine/index.js';

const r = compile(`CREATE TABLE t (id INT NOT NULL, d DECIMAL(6, 2), ts TIMESTAMP, tags VARCHAR ARRAY, m MAP<VARCHAR, INT>, v VARIANT, b VARBINARY, ok BOOLEAN);
  CREATE VIEW w AS SELECT * FROM t;`);
if (!r.ok) throw new Error(JSON.stringify(r.errors));
const program = r.program;

describe('inputCodec', () => {
  it('describes the columns and normalises JSON values to the output form', () => {
    const c = program.inputCodec('T')!;
    expect(c.columns.map((x) => [x.name, x.type, x.nullable])).toEqual([
      ['ID', 'INTEGER', false],
      ['D', 'DECIMAL(6, 2)', true],
      ['TS', 'TIMESTAMP', true],
      ['TAGS', 'VARCHAR ARRAY', true],
      ['M', 'MAP<VARCHAR, INTEGER>', true],
      ['V', 'VARIANT', true],
      ['B', 'VARBINARY', true],
      ['OK', 'BOOLEAN', true],
    ]);
    const [id, d, ts, tags, m, v, b] = c.columns;
    expect(id!.fromJson(7)).toBe(7);
    expect(d!.fromJson(1.5)).toBe('1.50');
    expect(d!.fromJson('3')).toBe('3.00');
    expect(ts!.fromJson('2024-01-02T03:04:05Z')).toBe('2024-01-02 03:04:05');
    expect(tags!.fromJson(['a', null])).toEqual(['a', null]);
    expect(m!.fromJson({ b: 2, a: 1 })).toEqual({ a: 1, b: 2 });
    expect(v!.fromJson({ z: [1, { y: null }] })).toEqual({ z: [1, { y: null }] });
    expect(b!.fromJson('0AFF')).toEqual([10, 255]);
    expect(d!.fromJson(null)).toBeNull();
  });

  it('reads CSV fields, an empty field being NULL', () => {
    const [id, d, ts, tags, m, v, , ok] = program.inputCodec('t')!.columns;
    expect(id!.fromCsv('42')).toBe(42);
    expect(d!.fromCsv('2.5')).toBe('2.50');
    expect(ts!.fromCsv('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
    expect(tags!.fromCsv('["x"]')).toEqual(['x']);
    expect(m!.fromCsv('{"k": 1}')).toEqual({ k: 1 });
    expect(v!.fromCsv('[true]')).toEqual([true]);
    expect(ok!.fromCsv('true')).toBe(true);
    expect(d!.fromCsv('')).toBeNull();
  });

  it('refuses values that do not fit, with serde-like messages', () => {
    const [id, d, , tags, m, , b, ok] = program.inputCodec('t')!.columns;
    expect(() => id!.fromJson('x')).toThrow(EngineValueError);
    expect(() => id!.fromJson('x')).toThrow('invalid type: string "x", expected i32');
    expect(() => id!.fromJson(null)).toThrow(/NOT NULL column ID/);
    expect(() => id!.fromJson(2 ** 31)).toThrow(/invalid value: integer `2147483648`, expected i32/);
    expect(() => d!.fromJson(12345.6)).toThrow(/does not fit in DECIMAL\(6, 2\)/);
    expect(() => tags!.fromJson('a')).toThrow(/expected an array/);
    expect(() => m!.fromJson([1])).toThrow(/expected a map/);
    expect(() => b!.fromJson('xyz')).toThrow(/expected an array of bytes or a hex string/);
    expect(() => ok!.fromCsv('yes')).toThrow(/`true` or `false`/);
    expect(() => id!.fromCsv('1.5')).toThrow(/invalid digit/);
  });

  it('is undefined for views and unknown tables; values it returns are accepted by a circuit', () => {
    expect(program.inputCodec('w')).toBeUndefined();
    expect(program.inputCodec('nope')).toBeUndefined();
    const cols = program.inputCodec('t')!.columns;
    const raw = [1, 2, '2024-01-02T03:04:05Z', ['a'], { b: 2, a: 1 }, { k: 'v' }, [1, 2], false];
    const row = Object.fromEntries(cols.map((c, i) => [c.name, c.fromJson(raw[i] as never)]));
    const c = program.newCircuit();
    c.step([{ table: 't', op: 'insert', row }]);
    expect(c.contents('w')[0]!.row).toEqual(row);
  });
});
