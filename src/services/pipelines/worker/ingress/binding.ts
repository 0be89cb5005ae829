/**
 * A table's input binding: column lookup, per-column value codecs and primary key, built once per
 * running program and shared by the JSON and CSV parsers. The values are read by the engine's own codec
 * (CompiledProgram.inputCodec): the type rules and their messages are the engine's, never copied here.
 */
import { EngineValueError, JsonNumberText, type ColumnCodec, type InputChange, type InputCodec, type JsonRow, type JsonValue, type RelationSchema, type RowBatch } from '../../../../engine/index.js';
import { ColumnIndex, engineName } from '../../shared/names.js';

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
  /** Per column, in column order: the engine's reader of its JSON values and CSV fields. */
  readonly codecs: ColumnCodec[];
  readonly nullable: boolean[];
  readonly keyCols: number[];
  readonly engineTable: string;
  /** A row from values in column order, as an object of one fixed shape (no spare property slots). */
  readonly makeRow: (vals: JsonValue[]) => JsonRow;

  /** `codec` is the program's inputCodec of this table. */
  constructor(
    readonly table: RelationSchema,
    codec: InputCodec,
  ) {
    this.index = new ColumnIndex(table.columns);
    this.names = table.columns.map((c) => c.name);
    this.engineTable = engineName(table);
    this.codecs = codec.columns;
    if (this.codecs.length !== this.names.length || this.codecs.some((c, i) => c.name !== this.names[i])) throw new Error(`the codec of table '${table.name}' does not match its columns`);
    this.nullable = table.columns.map((c) => c.nullable);
    this.makeRow = rowMaker(this.names);
    const pk = new Set(table.primaryKey);
    this.keyCols = table.columns.flatMap((c, i) => (pk.has(c.name) ? [i] : []));
  }

  get hasKey(): boolean {
    return this.keyCols.length > 0;
  }

  /** Input key -> column index (-1: unknown key), learned as keys are seen. */
  private readonly keyMap: Record<string, number> = Object.create(null);
  private keyMapSize = 0;
  private readonly vals: unknown[] = [];
  private seen: Uint8Array = new Uint8Array(0);

  /** The column an input key names (-1: none; such keys are ignored). */
  column(key: string): number {
    let i = this.keyMap[key];
    if (i !== undefined) return i;
    i = this.index.lookup(key) ?? -1;
    if (this.keyMapSize < 4096) {
      this.keyMap[key] = i;
      this.keyMapSize++;
    }
    return i;
  }

  /** The values a JSON row (object keyed by column name, or array in column order) gives, into vals/seen. */
  private gather(value: unknown): void {
    const n = this.names.length;
    const vals = this.vals;
    if (this.seen.length !== n) this.seen = new Uint8Array(n);
    const seen = this.seen;
    seen.fill(0);
    if (Array.isArray(value)) {
      // as Feldera's table deserializer reads a sequence: every column in order, elements past the last ignored
      if (value.length < n) throw new RowError(`invalid length ${value.length}, expected ${n} columns`);
      for (let i = 0; i < n; i++) {
        vals[i] = value[i];
        seen[i] = 1;
      }
    } else if (value !== null && typeof value === 'object' && !(value instanceof JsonNumberText)) {
      for (const key in value as Record<string, unknown>) {
        const i = this.column(key);
        if (i < 0) continue; // unknown fields are ignored, as Feldera
        vals[i] = (value as Record<string, unknown>)[key];
        seen[i] = 1;
      }
    } else {
      const what = value === null ? 'null' : typeof value === 'string' ? `string ${JSON.stringify(value)}` : value instanceof JsonNumberText || typeof value === 'bigint' ? 'number' : typeof value;
      throw new RowError(`invalid type: ${what}, expected a table row (an object or an array)`);
    }
  }

  /** Converts a JSON row (object keyed by column name, or array in column order) for one operation. */
  row(value: unknown, op: RowOp): JsonRow {
    this.gather(value);
    const n = this.names.length;
    const vals = this.vals;
    const seen = this.seen;
    const out: JsonRow = {};
    if (op === 'insert' || (op === 'delete' && !this.hasKey)) {
      for (let i = 0; i < n; i++) {
        out[this.names[i]!] = seen[i] === 1 ? this.convert(i, vals[i]) : this.missing(i);
      }
      return out;
    }
    // update (patch) and delete on a primary-key table: the key is required, other columns as given.
    for (const k of this.keyCols) {
      if (seen[k] === 0) throw new RowError(`missing primary key field \`${this.names[k]}\``, this.names[k]!);
    }
    for (let i = 0; i < n; i++) if (seen[i] === 1) out[this.names[i]!] = this.convert(i, vals[i]);
    return out;
  }

  /**
   * A full row (insert; delete on a table without a key) converted as row() does, written as the next row
   * of `batch`; on a RowError nothing of it stays in the batch.
   */
  rowInto(value: unknown, batch: RowBatch): void {
    this.gather(value);
    this.putRow(this.vals, this.seen, batch);
  }

  /**
   * The full row of the values `vals[i]` given where `seen[i]` is 1 (the others missing), converted as
   * row() does, as the next row of `batch`; on a RowError nothing of it stays in the batch.
   */
  putRow(vals: readonly unknown[], seen: Uint8Array, batch: RowBatch): void {
    const n = this.names.length;
    try {
      for (let i = 0; i < n; i++) {
        batch.push(seen[i] === 1 ? this.convert(i, vals[i]) : this.missing(i));
      }
    } catch (err) {
      batch.dropRow();
      throw err;
    }
    batch.endRow();
  }

  /**
   * The value of column `i` in a row that leaves it out: its DEFAULT, else NULL; a NOT NULL column without
   * a DEFAULT refuses the row (Feldera: "missing field").
   */
  missing(i: number): JsonValue {
    const d = this.codecs[i]!.missing;
    if (d !== null) return d.value;
    if (!this.nullable[i]) throw new RowError(`missing field \`${this.names[i]}\``, this.names[i]!);
    return null;
  }

  /** The value `v` of column `i` by the column's codec; a bad one is a RowError naming the column. */
  convert(i: number, v: unknown): JsonValue {
    try {
      return this.codecs[i]!.fromJson(v as JsonValue);
    } catch (err) {
      if (err instanceof EngineValueError) throw new RowError(`error parsing field '${this.names[i]}': ${err.message}`, this.names[i]!);
      throw err;
    }
  }

  /** The engine change for one operation on this table. */
  change(op: RowOp, row: JsonRow, weight = 1): InputChange {
    const table = this.engineTable;
    if (op === 'update') return { table, op: 'update', row };
    if (op === 'insert' && this.hasKey) return { table, op: 'upsert', row };
    return weight === 1 ? { table, op, row } : { table, op, row, weight };
  }
}

/**
 * A row builder for these column names: an object literal with the names as keys is allocated at its
 * exact size (an object filled key by key keeps spare slots: about 16 bytes a row more).
 */
function rowMaker(names: string[]): (vals: JsonValue[]) => JsonRow {
  if (names.length === 0 || names.length > 64 || names.includes('__proto__')) {
    return (vals) => {
      const row: JsonRow = {};
      names.forEach((n, i) => (row[n] = vals[i]!));
      return row;
    };
  }
  const body = `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`;
  return new Function('v', body) as (vals: JsonValue[]) => JsonRow;
}
