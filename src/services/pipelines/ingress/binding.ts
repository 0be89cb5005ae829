/**
 * A table's input binding: column lookup, per-column converters and primary key, built once per
 * running program and shared by the JSON and CSV parsers.
 */
import type { InputChange, JsonRow, JsonValue, RelationSchema } from '../../../engine/index.js';
import { ColumnIndex } from '../names.js';
import { csvConverter, jsonConverter, ValueError, type Converter } from './values.js';

export class RowError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export type RowOp = 'insert' | 'delete' | 'update';

export class TableBinding {
  readonly index: ColumnIndex;
  readonly names: string[];
  readonly json: Converter[];
  readonly csv: ((text: string, quoted: boolean) => JsonValue)[];
  readonly nullable: boolean[];
  readonly keyCols: number[];

  constructor(readonly table: RelationSchema) {
    this.index = new ColumnIndex(table.columns);
    this.names = table.columns.map((c) => c.name);
    this.json = table.columns.map((c) => jsonConverter(c.type, c.nullable));
    this.csv = table.columns.map((c) => csvConverter(c.type, c.nullable));
    this.nullable = table.columns.map((c) => c.nullable);
    const pk = new Set(table.primaryKey);
    this.keyCols = table.columns.flatMap((c, i) => (pk.has(c.name) ? [i] : []));
  }

  get hasKey(): boolean {
    return this.keyCols.length > 0;
  }

  /** Converts a JSON row (object keyed by column name, or array in column order) for one operation. */
  row(value: unknown, op: RowOp): JsonRow {
    const n = this.names.length;
    const vals: unknown[] = new Array(n);
    const present: boolean[] = new Array(n).fill(false);
    if (Array.isArray(value)) {
      if (value.length > n) throw new RowError(`invalid length ${value.length}, expected ${n} elements`);
      for (let i = 0; i < value.length; i++) {
        vals[i] = value[i];
        present[i] = true;
      }
    } else if (value !== null && typeof value === 'object') {
      for (const key in value as Record<string, unknown>) {
        const i = this.index.lookup(key);
        if (i === undefined) continue; // unknown fields are ignored, as Feldera
        vals[i] = (value as Record<string, unknown>)[key];
        present[i] = true;
      }
    } else {
      throw new RowError(`invalid type: ${value === null ? 'null' : typeof value === 'string' ? `string ${JSON.stringify(value)}` : typeof value}, expected a table row (an object or an array)`);
    }
    const out: JsonRow = {};
    if (op === 'insert' || (op === 'delete' && !this.hasKey)) {
      for (let i = 0; i < n; i++) {
        const name = this.names[i]!;
        if (!present[i] && !this.nullable[i]) throw new RowError(`missing field \`${name}\``, name);
        out[name] = this.convert(i, present[i] ? vals[i] : null);
      }
      return out;
    }
    // update (patch) and delete on a primary-key table: the key is required, other columns as given.
    for (const k of this.keyCols) {
      const name = this.names[k]!;
      if (!present[k]) throw new RowError(`missing primary key field \`${name}\``, name);
    }
    for (let i = 0; i < n; i++) if (present[i]) out[this.names[i]!] = this.convert(i, vals[i]);
    return out;
  }

  private convert(i: number, v: unknown): JsonValue {
    try {
      return this.json[i]!(v);
    } catch (err) {
      if (err instanceof ValueError) throw new RowError(`error parsing field '${this.names[i]}': ${err.message}`, this.names[i]!);
      throw err;
    }
  }

  /** The engine change for one operation on this table. */
  change(op: RowOp, row: JsonRow, weight = 1): InputChange {
    const table = this.table.name;
    if (op === 'update') return { table, op: 'update', row };
    if (op === 'insert' && this.hasKey) return { table, op: 'upsert', row };
    return weight === 1 ? { table, op, row } : { table, op, row, weight };
  }
}
