/** A column of every SQL type the engine has, a row of their values in the engine's JSON output form, a row of NULLs. */
import type { ColumnSchema } from '../../../../src/engine/index.js';

export const col = (name: string, type: string, nullable = true): ColumnSchema => ({ name, type, nullable, caseSensitive: false });

/** One column of each SQL type (the engine's type text, as a query's columns carry it). */
export const EVERY_TYPE: ColumnSchema[] = [
  col('bo', 'BOOLEAN'),
  col('ti', 'TINYINT'),
  col('si', 'SMALLINT'),
  col('i', 'INTEGER', false),
  col('bi', 'BIGINT'),
  col('uti', 'UTINYINT'),
  col('usi', 'USMALLINT'),
  col('ui', 'UINTEGER'),
  col('ubi', 'UBIGINT'),
  col('r', 'REAL'),
  col('d', 'DOUBLE'),
  col('dec', 'DECIMAL(10, 2)'),
  col('big', 'DECIMAL(38, 10)'),
  col('vc', 'VARCHAR'),
  col('ch', 'CHAR(3)'),
  col('bin', 'VARBINARY'),
  col('dt', 'DATE'),
  col('tm', 'TIME'),
  col('ts', 'TIMESTAMP'),
  col('arr', 'INTEGER ARRAY'),
  col('m', 'MAP<VARCHAR, INTEGER>'),
  col('mi', 'MAP<INTEGER, VARCHAR>'),
  col('row', 'ROW("a" INTEGER, "b" VARCHAR NOT NULL)'),
  col('v', 'VARIANT'),
  col('uu', 'UUID'),
  col('n', 'NULL'),
];

/** The engine's JSON output form of a row of every type, and a row of NULLs (where nullable). */
export const FULL_ROW = {
  bo: true,
  ti: -128,
  si: 32767,
  i: -7,
  bi: 9007199254740993n,
  uti: 255,
  usi: 65535,
  ui: 4294967295,
  ubi: 18446744073709551615n,
  r: 1.5,
  d: -2.25,
  dec: '-12345678.90',
  big: '1234567890123456789012345678.0123456789',
  vc: 'héllo',
  ch: 'ab ',
  bin: [0, 1, 255],
  dt: '2024-02-29',
  tm: '13:14:15.123456789',
  ts: '2024-01-02 03:04:05.678',
  arr: [1, null, 3],
  m: { a: 1, b: null },
  mi: { '-1': 'x', '2': 'y' },
  row: { a: null, b: 'z' },
  v: { k: [1, 'two'] },
  uu: '123e4567-e89b-12d3-a456-426655440000',
  n: null,
};
export const NULL_ROW = Object.fromEntries(EVERY_TYPE.map((c) => [c.name, c.nullable ? null : 0]));
