/**
 * Renders metric families to the two formats of Feldera's `GET /metrics`: the Prometheus text exposition
 * format (`text/plain`) and Feldera's own JSON (`[{key, type, description?, values: [{labels, value}]}]`).
 * Pure: no I/O, no clock; what to report is the caller's (pipelines/control/metrics.ts).
 *
 * Contract:
 * - A family is written once, in the order given: `# HELP` (when there is help text), `# TYPE`, then its
 *   samples. A family without samples still gets its HELP and TYPE (as Feldera writes per-connector families
 *   of a pipeline without connectors). Families are separated by a blank line, which the format ignores.
 * - Metric and label names become Prometheus identifiers as Feldera makes them: every character that is not
 *   an ASCII letter or digit becomes `_`, runs of `_` collapse to one, a leading digit gets a `_` before it,
 *   and an empty name is `unnamed`.
 * - Label values escape `\` `"` and newline (`\\` `\"` `\n`); HELP text escapes `\` and newline. Labels keep
 *   the order given.
 * - Values: integers and decimals as JavaScript writes them (shortest round trip), NaN as `NaN`, infinities
 *   as `+Inf` / `-Inf`.
 * - Histograms: buckets are cumulative counts by upper bound, ascending, the last one `+Inf` (added when
 *   missing, with the total count). Prometheus: one `_bucket` line per bucket with the `le` label last, then
 *   `_sum` and `_count`. JSON (Feldera's shape): per-bucket (not cumulative) counts, buckets with no samples
 *   left out, each `{gt?: previous bound, le?: bound, count}` (no `le` on the infinite bucket), then `sum` and
 *   `count`. JSON numbers that JSON cannot hold (NaN, infinities) are the strings `nan`, `inf`, `-inf`.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** Labels in the order they are written. */
export type Labels = readonly (readonly [name: string, value: string])[];

export interface HistogramBucket {
  /** Upper bound (inclusive); Infinity for the last bucket. */
  le: number;
  /** Samples at or below `le` (cumulative). */
  count: number;
}

export interface HistogramValue {
  buckets: readonly HistogramBucket[];
  sum: number;
  count: number;
}

export type Sample = { labels: Labels; value: number } | { labels: Labels; histogram: HistogramValue };

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: readonly Sample[];
}

/** One family of Feldera's JSON format. */
export interface JsonFamily {
  key: string;
  type: MetricType;
  description?: string;
  values: { labels: Record<string, string>; value: number | string | JsonHistogram }[];
}

export interface JsonHistogram {
  buckets: { gt?: number | string; le?: number | string; count: number | string }[];
  sum: number | string;
  count: number | string;
}

/** A Prometheus metric or label name made of a free-form name (Feldera's rule, see the header). */
export function promName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9]/g, '_').replace(/_+/g, '_');
  if (s === '') return 'unnamed';
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\\' ? '\\\\' : c === '"' ? '\\"' : '\\n'));
}

function escapeHelp(help: string): string {
  return help.replace(/[\\\n]/g, (c) => (c === '\\' ? '\\\\' : '\\n'));
}

function promNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

function jsonNumber(v: number): number | string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v;
}

/** The buckets with the final +Inf bucket present. */
function withInf(h: HistogramValue): HistogramBucket[] {
  const b = [...h.buckets];
  if (b.length === 0 || b[b.length - 1]!.le !== Infinity) b.push({ le: Infinity, count: h.count });
  return b;
}

function labelText(labels: Labels): string {
  if (labels.length === 0) return '';
  return `{${labels.map(([n, v]) => `${promName(n)}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/** The Prometheus text exposition format of `families`. */
export function renderPrometheus(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  for (const f of families) {
    const name = promName(f.name);
    if (out.length > 0) out.push('\n');
    if (f.help !== '') out.push(`# HELP ${name} ${escapeHelp(f.help)}\n`);
    out.push(`# TYPE ${name} ${f.type}\n`);
    for (const s of f.samples) {
      if ('value' in s) {
        out.push(`${name}${labelText(s.labels)} ${promNumber(s.value)}\n`);
        continue;
      }
      for (const b of withInf(s.histogram)) out.push(`${name}_bucket${labelText([...s.labels, ['le', promNumber(b.le)]])} ${promNumber(b.count)}\n`);
      out.push(`${name}_sum${labelText(s.labels)} ${promNumber(s.histogram.sum)}\n`);
      out.push(`${name}_count${labelText(s.labels)} ${promNumber(s.histogram.count)}\n`);
    }
  }
  return out.join('');
}

function jsonHistogram(h: HistogramValue): JsonHistogram {
  const buckets: JsonHistogram['buckets'] = [];
  let prev: HistogramBucket | null = null;
  for (const b of withInf(h)) {
    const count = prev ? b.count - prev.count : b.count;
    if (count !== 0) {
      buckets.push({
        ...(prev ? { gt: jsonNumber(prev.le) } : {}),
        ...(Number.isFinite(b.le) ? { le: b.le } : {}),
        count: jsonNumber(count),
      });
    }
    prev = b;
  }
  return { buckets, sum: jsonNumber(h.sum), count: jsonNumber(h.count) };
}

/** Feldera's JSON format of `families` (serialise with JSON.stringify). */
export function renderJson(families: readonly MetricFamily[]): JsonFamily[] {
  return families.map((f) => {
    const fam: JsonFamily = { key: promName(f.name), type: f.type, values: [] };
    if (f.help !== '') fam.description = f.help;
    fam.values = f.samples.map((s) => ({
      labels: Object.fromEntries(s.labels.map(([n, v]) => [n, v])),
      value: 'value' in s ? jsonNumber(s.value) : jsonHistogram(s.histogram),
    }));
    // key order as Feldera writes it: key, type, description, values
    return fam.description === undefined ? { key: fam.key, type: fam.type, values: fam.values } : { key: fam.key, type: fam.type, description: fam.description, values: fam.values };
  });
}

/**
 * Several sources' families as one list, each family once (the first source's help and type) with the
 * samples of every source: one valid exposition for several pipelines, where concatenating their outputs
 * would repeat every TYPE line.
 */
export function mergeFamilies(lists: readonly (readonly MetricFamily[])[]): MetricFamily[] {
  const byName = new Map<string, { help: string; type: MetricType; samples: Sample[]; name: string }>();
  for (const list of lists) {
    for (const f of list) {
      const key = promName(f.name);
      const have = byName.get(key);
      if (have) have.samples.push(...f.samples);
      else byName.set(key, { name: f.name, help: f.help, type: f.type, samples: [...f.samples] });
    }
  }
  return [...byName.values()];
}
