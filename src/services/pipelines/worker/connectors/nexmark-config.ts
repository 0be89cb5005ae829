/**
 * The `nexmark` transport's configuration, read and checked as Feldera reads it (feldera-types
 * transport/nexmark.rs, adapters transport/nexmark.rs): `{"table": "person"|"auction"|"bid", "options": {...}}`
 * on one connector per table, the three tables together, `options` on at most one of them (applying to all):
 *
 * | option                    | default     | meaning                                                    |
 * | `events`                  | 100,000,000 | events to generate, the three tables together; then end of input |
 * | `threads`                 | 4           | generator threads (here: events per round = threads × batch) |
 * | `batch_size_per_thread`   | 1,000       | events generated together, per thread                      |
 * | `max_step_size_per_thread`| 10,000      | records applied in one step at most, per thread             |
 *
 * Refused, each with a message naming the option: a missing or unknown `table`, an option that is not a
 * non-negative integer (serde's words), a zero `threads`/`batch_size_per_thread`/`max_step_size_per_thread`
 * (Feldera would wait for ever), an unknown key (Feldera ignores it; here a misspelt option is an error, not
 * 100M events), a table with two nexmark connectors, options on two connectors, a program with one or two of
 * the three tables, a format other than CSV (the generator's records are CSV lines in Feldera), a table with
 * fewer columns than the model has fields. Pure.
 */
import type { ConnectorDecl, JsonValue, RelationSchema } from '../../../../engine/index.js';
import { NEXMARK_FIELDS, NEXMARK_TABLES, type NexmarkTable } from './nexmark-events.js';

export interface NexmarkOptions {
  events: number;
  threads: number;
  batch_size_per_thread: number;
  max_step_size_per_thread: number;
}

export const NEXMARK_DEFAULTS: NexmarkOptions = { events: 100_000_000, threads: 4, batch_size_per_thread: 1_000, max_step_size_per_thread: 10_000 };

/** A bad nexmark configuration; `message` says what and where. */
export class NexmarkConfigError extends Error {}

/** serde's words for a JSON value of the wrong type. */
export function serdeType(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (Array.isArray(v)) return 'sequence';
  if (typeof v === 'object') return 'map';
  return typeof v;
}

function count(v: JsonValue | undefined, name: string, fallback: number, positive: boolean): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new NexmarkConfigError(`option '${name}': invalid type: ${serdeType(v)}, expected a non-negative integer`);
  if (!Number.isSafeInteger(n)) throw new NexmarkConfigError(`option '${name}': ${n} is larger than ${Number.MAX_SAFE_INTEGER}`);
  if (positive && n === 0) throw new NexmarkConfigError(`option '${name}' must be at least 1`);
  return n;
}

/** The options object of one connector's config, checked (defaults filled in). */
export function readNexmarkOptions(v: JsonValue | undefined): NexmarkOptions {
  if (v === undefined || v === null) return { ...NEXMARK_DEFAULTS };
  if (typeof v !== 'object' || Array.isArray(v)) throw new NexmarkConfigError(`'options': invalid type: ${serdeType(v)}, expected struct NexmarkInputOptions`);
  const o = v as Record<string, JsonValue>;
  for (const k of Object.keys(o)) {
    if (!(k in NEXMARK_DEFAULTS)) throw new NexmarkConfigError(`unknown option '${k}' in 'options', expected one of ${Object.keys(NEXMARK_DEFAULTS).join(', ')}`);
  }
  return {
    events: count(o.events, 'events', NEXMARK_DEFAULTS.events, false),
    threads: count(o.threads, 'threads', NEXMARK_DEFAULTS.threads, true),
    batch_size_per_thread: count(o.batch_size_per_thread, 'batch_size_per_thread', NEXMARK_DEFAULTS.batch_size_per_thread, true),
    max_step_size_per_thread: count(o.max_step_size_per_thread, 'max_step_size_per_thread', NEXMARK_DEFAULTS.max_step_size_per_thread, true),
  };
}

/** One connector's config: its table and its options (null when it gives none). */
export function readNexmarkConfig(config: Record<string, JsonValue> | undefined): { table: NexmarkTable; options: NexmarkOptions | null } {
  const c = config ?? {};
  for (const k of Object.keys(c)) if (k !== 'table' && k !== 'options') throw new NexmarkConfigError(`unknown field '${k}', expected 'table' or 'options'`);
  if (c.table === undefined) throw new NexmarkConfigError("missing field 'table' (one of person, auction, bid)");
  if (typeof c.table !== 'string' || !NEXMARK_TABLES.includes(c.table as NexmarkTable)) {
    throw new NexmarkConfigError(`'table': unknown variant ${typeof c.table === 'string' ? `\`${c.table}\`` : serdeType(c.table)}, expected one of \`bid\`, \`auction\`, \`person\``);
  }
  return { table: c.table as NexmarkTable, options: c.options === undefined || c.options === null ? null : readNexmarkOptions(c.options) };
}

/** Where each nexmark table's events go: the relation and the connector's index in its list. */
export interface NexmarkPlan {
  options: NexmarkOptions;
  targets: Record<NexmarkTable, { relation: RelationSchema; index: number }>;
}

export interface PlanError {
  relation: RelationSchema;
  message: string;
}

/**
 * The program's nexmark connectors as one generator (null: the program has none), or the errors that keep
 * them from running. Every error names the relation and the connector.
 */
export function planNexmark(tables: readonly RelationSchema[]): { plan: NexmarkPlan | null; errors: PlanError[] } {
  const errors: PlanError[] = [];
  const targets: Partial<NexmarkPlan['targets']> = {};
  let options: NexmarkOptions | null = null;
  let optionsFrom: RelationSchema | null = null;
  let any: RelationSchema | null = null;
  for (const rel of tables) {
    rel.connectors.forEach((decl: ConnectorDecl, index) => {
      if (decl?.transport?.name !== 'nexmark') return;
      any ??= rel;
      const where = `relation '${rel.name}', connector ${decl.name ? `'${decl.name}'` : `#${index + 1}`}`;
      const fail = (message: string) => errors.push({ relation: rel, message: `${where}: nexmark: ${message}` });
      let read;
      try {
        read = readNexmarkConfig(decl.transport.config);
      } catch (err) {
        if (!(err instanceof NexmarkConfigError)) throw err;
        return fail(err.message);
      }
      const format = decl.format?.name;
      if (format !== undefined && format !== 'csv') return fail(`format '${format}' cannot read the generator's records; use {"name": "csv"} as Feldera's table.sql does`);
      const fields = NEXMARK_FIELDS[read.table];
      if (rel.columns.length < fields.length) {
        return fail(`the '${read.table}' events have ${fields.length} fields (${fields.join(', ')}), in that order; table '${rel.name}' has only ${rel.columns.length} columns`);
      }
      if (targets[read.table]) return fail(`more than one Nexmark input connector for ${read.table} (the other is on '${targets[read.table]!.relation.name}')`);
      targets[read.table] = { relation: rel, index };
      if (read.options) {
        if (options) return fail(`can't configure Nexmark options from two different connectors (also on '${optionsFrom!.name}')`);
        options = read.options;
        optionsFrom = rel;
      }
    });
  }
  if (!any) return { plan: null, errors };
  const missing = NEXMARK_TABLES.filter((t) => !targets[t]);
  if (missing.length > 0 && errors.length === 0) {
    errors.push({
      relation: any,
      message: `nexmark: the connector must be used exactly three times, once for each of the tables person, auction and bid; no connector generates ${missing.map((t) => `'${t}'`).join(', ')}`,
    });
  }
  if (errors.length > 0) return { plan: null, errors };
  return { plan: { options: options ?? { ...NEXMARK_DEFAULTS }, targets: targets as NexmarkPlan['targets'] }, errors };
}
