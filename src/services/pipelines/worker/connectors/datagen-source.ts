/**
 * A `datagen` connector as a streaming source (generated-input.ts), by Feldera's rules (crates/datagen):
 * plans run in order, each for `limit` rows (none: for ever), at `rate` rows per second (a token bucket of
 * one second; none: as fast as steps go), in steps of min(rate, 10,000, worker_chunk_size) rows. Row `idx`
 * (counted from 0 in each plan) is made from its own generator seeded with seed + idx (Feldera's SmallRng and
 * rand 0.8's distributions bit for bit, small-rng.ts: integers, lengths, picks and alphanumerics are Feldera's
 * own for a seed), so a seed gives the
 * same rows, and a position `{"seed", "plan", "row"}` resumes exactly. Without a seed a random one is drawn
 * at the start (and kept in the position).
 *
 * Values per strategy (the column's kind from datagen-config.ts):
 * - increment: numbers a + (idx × scale) mod (b − a) (no range: (idx × scale) mod the type's max);
 *   TIMESTAMP/TIME/DATE the same in ms/ms/days from the range's start (default 1970-01-01 .. 2100-01-01, a
 *   day, 1970-01-01 .. 2100-01-01); strings the text of idx × scale; booleans idx odd; arrays idx mod the
 *   length range elements, element j made with index j; with `values`: values[idx mod n].
 * - uniform: uniform in [a, b) (default: the type's range), × scale; strings of alphanumerics with a length
 *   uniform in [a, b) (default [0, 25)); with `values`: one of them.
 * - zipf: a + Zipf(b − a, e) − 1 (rank 1 most frequent); with `values`: values[Zipf(n, e) − 1].
 * - string strategies (word, name, email, ...): datagen-strings.ts.
 * `null_percentage` p: NULL with probability p/100; `values: []`: always NULL. The values go through the
 * table's codec like any input (so they fit the column or fail the pipeline naming it). ROW columns get
 * each field by its own settings (`fields`), MAP columns get {} and types datagen cannot make get NULL,
 * as Feldera's.
 */
import { randomBytes } from 'node:crypto';
import type { JsonValue } from '../../../../engine/index.js';
import type { ColumnKind, DatagenConfig, DatagenPlan, FieldSettings } from './datagen-config.js';
import { BYTE, columnKind } from './datagen-config.js';
import type { StringFaker } from './datagen-strings.js';
import type { SourceTarget, StepBuilder, StreamingSource } from './generated-input.js';
import { ZipfTable } from './seeded-random.js';
import { SmallRng } from './small-rng.js';

const TWO_32 = 4294967296;
const MAX_TIMESTAMP_MS = 4102444800000;
const MAX_DATE_DAYS = 54787;
const DAY_MS = 86_400_000;
const MAX_BATCH = 10_000;
const DEFAULT_STRING_RANGE: [number, number] = [0, 25];
const DEFAULT_LENGTH_RANGE: [number, number] = [0, 5];

/** A resume position (or none) read for this config; throws an Error saying what is wrong. */
function readPosition(position: JsonValue | undefined, plans: number): { seed: { lo: number; hi: number } | null; plan: number; row: number } {
  if (position === undefined || position === null) return { seed: null, plan: 0, row: 0 };
  const p = position as Record<string, JsonValue>;
  const ok = (v: JsonValue | undefined) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (typeof p !== 'object' || Array.isArray(p) || !ok(p.plan) || !ok(p.row) || typeof p.seed !== 'string' || !/^\d+$/.test(p.seed)) {
    throw new Error(`not a datagen position (expected {"seed": "digits", "plan": n, "row": n}): ${JSON.stringify(position)}`);
  }
  const seed = BigInt(p.seed);
  if ((p.plan as number) > plans) throw new Error(`the position's plan ${String(p.plan)} is beyond the ${plans} plans`);
  return { seed: { lo: Number(seed & 0xffffffffn), hi: Number((seed >> 32n) & 0xffffffffn) }, plan: p.plan as number, row: p.row as number };
}

/** Makes field values for one plan (zipf tables made once per field). */
class FieldMaker {
  private readonly zipfs = new Map<FieldSettings, Map<number, ZipfTable>>();

  constructor(
    private readonly rng: SmallRng,
    private readonly strings: StringFaker | null,
  ) {}

  private zipf(fs: FieldSettings, n: number): number {
    let byN = this.zipfs.get(fs);
    if (!byN) this.zipfs.set(fs, (byN = new Map()));
    let z = byN.get(n);
    if (!z) byN.set(n, (z = new ZipfTable(Math.max(1, n), fs.e)));
    return this.rng.zipf(z);
  }

  value(kind: ColumnKind, fs: FieldSettings, idx: number): JsonValue {
    const rng = this.rng;
    if (fs.nullPercentage !== null && fs.nullPercentage > 0 && rng.range(1, 101) <= fs.nullPercentage) return null;
    if (fs.values !== null && (NUMERIC_OR_VALUES.has(fs.strategy) || kind.kind !== 'string')) {
      const n = fs.values.length;
      if (n === 0) return null;
      if (fs.strategy === 'uniform') return fs.values[rng.below(n)]!;
      if (fs.strategy === 'zipf') return fs.values[this.zipf(fs, n) - 1]!;
      return fs.values[idx % n]!;
    }
    switch (kind.kind) {
      case 'int':
        return this.integer(kind, fs, idx);
      case 'float':
      case 'decimal': {
        const [a, b] = fs.range ?? (kind.kind === 'decimal' ? decimalRange(kind.precision, kind.scale) : [-Number.MAX_VALUE / 2, Number.MAX_VALUE / 2]);
        let v: number;
        if (fs.strategy === 'uniform') v = (a + rng.float() * (b - a)) * fs.scale;
        else if (fs.strategy === 'zipf') v = a + this.zipf(fs, Math.min(b - a, Number.MAX_SAFE_INTEGER)) - 1;
        else v = fs.range ? a + ((idx * fs.scale) % (b - a)) : (idx * fs.scale) % b;
        return kind.kind === 'decimal' ? v.toFixed(kind.scale) : v;
      }
      case 'boolean':
        if (fs.strategy === 'uniform') return rng.below(2) === 1;
        if (fs.strategy === 'zipf') return this.zipf(fs, 2) === 1;
        return idx % 2 === 1;
      case 'timestamp':
        return this.offset(fs, idx, [0, MAX_TIMESTAMP_MS], true);
      case 'time':
        return timeText(this.offset(fs, idx, [0, DAY_MS], false));
      case 'date':
        return dateText(this.offset(fs, idx, [0, MAX_DATE_DAYS], false));
      case 'string': {
        const [a, b] = fs.range ?? DEFAULT_STRING_RANGE;
        if (fs.strategy === 'increment') return String(idx * fs.scale);
        if (fs.strategy === 'uniform') return rng.alnum(rng.range(a, b));
        if (fs.strategy === 'zipf') return rng.alnum(this.zipf(fs, b) - 1);
        return this.strings!.make(fs.strategy, rng, a, b);
      }
      case 'array':
      case 'binary': {
        const element: ColumnKind = kind.kind === 'array' ? kind.element : BYTE;
        const [a, b] = fs.range ?? DEFAULT_LENGTH_RANGE;
        const len = fs.strategy === 'uniform' ? rng.range(a, b) * Math.max(1, fs.scale) : fs.strategy === 'zipf' ? this.zipf(fs, b - a) - 1 : a + ((idx * Math.max(1, fs.scale)) % (b - a));
        const out: JsonValue[] = [];
        for (let j = 0; j < len; j++) out.push(this.value(element, fs.value!, j));
        return out;
      }
      case 'map':
        return {};
      case 'row': {
        // each field made as a column of its own would be, with the same row index
        const out: Record<string, JsonValue> = {};
        kind.fields.forEach((f, i) => (out[f.name] = this.value(f.kind, fs.fields![i]!, idx)));
        return out;
      }
      case 'other':
        return null;
    }
  }

  /** Feldera's generate_integer, in i64 (exact: bigints), a number when it is within ±2^53. */
  private integer(kind: Extract<ColumnKind, { kind: 'int' }>, fs: FieldSettings, idx: number): JsonValue {
    const [a, b] = fs.intRange ?? [kind.min, kind.max];
    const scale = BigInt(fs.scale);
    let v: bigint;
    if (fs.strategy === 'uniform') v = this.rng.bigRange(a, b) * scale;
    else if (fs.strategy === 'zipf') return fs.intRange ? Number(a) + this.zipf(fs, Number(b - a)) - 1 : this.zipf(fs, Number(kind.max)) - 1;
    else v = fs.intRange ? a + ((BigInt(idx) * scale) % (b - a)) : (BigInt(idx) * scale) % kind.max;
    // a scale can push a value out of the type: it wraps as Feldera's modulo does
    if (v > kind.max || v < kind.min) v %= kind.max;
    return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
  }

  /** A TIMESTAMP (ms), TIME (ms) or DATE (days) value in [min, max) by the strategy. */
  private offset(fs: FieldSettings, idx: number, defaults: [number, number], absoluteUniform: boolean): number {
    const [a, b] = fs.range ?? defaults;
    if (fs.strategy === 'uniform') {
      const v = this.rng.range(a, b);
      // Feldera scales a uniform timestamp's absolute milliseconds
      return absoluteUniform ? v * fs.scale : a + (((v - a) * fs.scale) % (b - a));
    }
    if (fs.strategy === 'zipf') return a + this.zipf(fs, b - a) - 1;
    return a + ((((idx * fs.scale) % (b - a)) + (b - a)) % (b - a));
  }
}

const NUMERIC_OR_VALUES = new Set(['increment', 'uniform', 'zipf']);

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function decimalRange(precision: number, scale: number): [number, number] {
  const max = Math.pow(10, Math.min(15, precision - scale)) - 1;
  return [-max, max];
}

function timeText(ms: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const frac = ms % 1000;
  return `${pad(h)}:${pad(m)}:${pad(s)}${frac ? `.${pad(frac, 3)}` : ''}`;
}

function dateText(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

export class DatagenSource implements StreamingSource {
  readonly targets: SourceTarget[];
  private readonly seed: { lo: number; hi: number };
  private readonly rng = new SmallRng();
  /** The seed as one number: row idx's generator is seeded with seed + idx (wrapping at 2^64). */
  private readonly seedValue: bigint;
  private readonly kinds: ColumnKind[];
  private readonly makers: FieldMaker;
  private readonly values: JsonValue[];
  /** Where generation stands, and where the last applied step ended. */
  private plan: number;
  private row: number;
  private appliedPlan: number;
  private appliedRow: number;
  /** The rate limit's bucket (rows that may be made now) and when it was last filled. */
  private tokens = 0;
  private filledAt = 0;
  private bucketPlan = -1;

  constructor(
    target: SourceTarget,
    private readonly config: DatagenConfig,
    position?: JsonValue,
    strings: StringFaker | null = null,
  ) {
    this.targets = [target];
    const start = readPosition(position, config.plans.length);
    this.seed = start.seed ?? config.seed ?? randomSeed();
    this.seedValue = (BigInt(this.seed.hi) << 32n) | BigInt(this.seed.lo);
    this.plan = this.appliedPlan = start.plan;
    this.row = this.appliedRow = start.row;
    this.kinds = target.binding.table.columns.map((c) => columnKind(c.type));
    this.values = new Array(this.kinds.length);
    this.makers = new FieldMaker(this.rng, strings);
    this.skipEmptyPlans();
  }

  private get current(): DatagenPlan | undefined {
    return this.config.plans[this.plan];
  }

  get stepRecords(): number {
    const p = this.current;
    if (!p) return 1;
    return Math.max(1, Math.min(p.rate ?? MAX_BATCH, MAX_BATCH, p.workerChunkSize ?? MAX_BATCH));
  }

  get finished(): boolean {
    return this.plan >= this.config.plans.length;
  }

  private skipEmptyPlans(): void {
    while (!this.finished && this.current!.limit !== null && this.row >= this.current!.limit!) {
      this.plan++;
      this.row = 0;
    }
  }

  private refill(): void {
    const p = this.current;
    if (!p || p.rate === null) return;
    const now = performance.now();
    if (this.bucketPlan !== this.plan) {
      this.bucketPlan = this.plan;
      this.tokens = p.rate;
      this.filledAt = now;
      return;
    }
    this.tokens = Math.min(p.rate, this.tokens + ((now - this.filledAt) * p.rate) / 1000);
    this.filledAt = now;
  }

  waitMs(): number {
    const p = this.current;
    if (!p || p.rate === null) return 0;
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / p.rate);
  }

  generate(step: StepBuilder, max: number): number {
    const p = this.current;
    if (!p) return 0;
    let n = Math.min(max, this.stepRecords);
    if (p.limit !== null) n = Math.min(n, p.limit - this.row);
    if (p.rate !== null) {
      this.refill();
      n = Math.min(n, Math.floor(this.tokens));
      this.tokens -= Math.max(0, n);
    }
    for (let i = 0; i < n; i++) {
      const idx = this.row + i;
      // seed + idx, wrapping at 2^64, in 32-bit halves
      const lo = this.seed.lo + (idx % TWO_32);
      this.rng.reseedHalves(this.seed.hi + Math.floor(idx / TWO_32) + (lo >= TWO_32 ? 1 : 0), lo);
      for (let c = 0; c < this.kinds.length; c++) this.values[c] = this.makers.value(this.kinds[c]!, p.fields[c]!, idx);
      step.row(0, this.values);
    }
    this.row += Math.max(0, n);
    this.skipEmptyPlans();
    return Math.max(0, n);
  }

  position(): JsonValue {
    return { seed: this.seedValue.toString(), plan: this.appliedPlan, row: this.appliedRow };
  }

  commit(): void {
    this.appliedPlan = this.plan;
    this.appliedRow = this.row;
  }

  rewind(): void {
    this.plan = this.appliedPlan;
    this.row = this.appliedRow;
  }
}

function randomSeed(): { lo: number; hi: number } {
  const b = randomBytes(8);
  return { lo: b.readUInt32LE(0), hi: b.readUInt32LE(4) };
}
