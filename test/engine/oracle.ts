/** PGlite as the SQL oracle: load table contents, read view contents, normalise values for multiset comparison. */
import type { PGlite } from '@electric-sql/pglite';
import { newPglite } from './pglite.js';

export type Model = Record<string, Array<Record<string, unknown>>>;

export function norm(v: unknown, typeId?: number): string {
  if (v === null || v === undefined) return 'NULL';
  if (v instanceof Date) {
    const iso = v.toISOString();
    if (typeId === 1082) return iso.slice(0, 10);
    return iso
      .replace('T', ' ')
      .replace(/\.000Z$/, '')
      .replace(/Z$/, '');
  }
  if (typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v))) {
    const n = Number(v);
    // below 1e-12 is rounding noise of a difference of sums (COVAR_POP of a constant column: Postgres's
    // Youngs-Cramer update leaves 1.1e-16 where the engine's sums cancel to 0); the corpus's values are all
    // far from it (small integers, quarters, two-digit decimals)
    if (n === 0 || Math.abs(n) < 1e-12) return '0';
    return String(Number(n.toPrecision(10)));
  }
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/.test(v)) return v;
  if (Array.isArray(v)) return '[' + v.map((x) => norm(x)).join(',') + ']';
  return JSON.stringify(v);
}

export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
}

export class Oracle {
  db!: PGlite;
  async init(ddl: string): Promise<void> {
    this.db = await newPglite();
    await this.db.exec(ddl);
  }
  async load(model: Model, columns: Record<string, string[]>): Promise<void> {
    let sql = '';
    for (const [t, rows] of Object.entries(model)) {
      sql += `DELETE FROM ${t};\n`;
      const cols = columns[t]!;
      if (rows.length) sql += `INSERT INTO ${t} (${cols.join(', ')}) VALUES ${rows.map((r) => '(' + cols.map((c) => sqlLiteral(r[c])).join(', ') + ')').join(', ')};\n`;
    }
    await this.db.exec(sql);
  }
  /** Contents of each view as sorted lists of normalised row strings. */
  async contents(views: string[]): Promise<Map<string, string[]>> {
    const res = await this.db.exec(views.map((v) => `SELECT * FROM ${v};`).join('\n'));
    const out = new Map<string, string[]>();
    views.forEach((v, i) => {
      const r = res[i]!;
      const types = r.fields.map((f) => f.dataTypeID);
      const names = r.fields.map((f) => f.name);
      out.set(v, r.rows.map((row) => names.map((n, j) => norm((row as Record<string, unknown>)[n], types[j])).join(' | ')).sort());
    });
    return out;
  }
}
