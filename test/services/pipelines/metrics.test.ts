/**
 * GET /v0/pipelines/{name}/metrics (Prometheus text and Feldera's JSON) and GET /v0/metrics on ops serve:
 * the output is parsed line by line with the exposition format's rules (parseExposition below), values
 * follow ingress and watch streams, label values that need escaping survive the round trip, a pipeline
 * that is not deployed and a bad format get Feldera's errors; unit tests of the formatter and of the
 * step-latency window.
 */
import { readProcessFigures } from '../../../src/services/pipelines/shared/process-figures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeFamilies, promName, renderJson, renderPrometheus, type MetricFamily } from '../../../src/services/pipelines/control/metrics-format.js';
import { latencyBucket, latencyBucketUpper, StepLatency, STEP_LATENCY_BUCKETS } from '../../../src/services/pipelines/shared/step-latency.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

// ---- a strict reader of the Prometheus text exposition format ------------------------------------------

interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface ParsedFamily {
  name: string;
  type: string;
  help: string | null;
  samples: ParsedSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(s: string, line: string): number {
  if (s === '+Inf' || s === 'Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (s === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s)) throw new Error(`bad value '${s}' in: ${line}`);
  return Number(s);
}

function unescapeHelp(s: string, line: string): string {
  return s.replace(/\\(.?)/g, (_m, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    throw new Error(`bad escape in HELP: ${line}`);
  });
}

/** Parses `name{a="x",b="y"} value`: label values may hold only the escapes \\ \" \n. */
function parseSampleLine(line: string): ParsedSample {
  let i = 0;
  while (i < line.length && line[i] !== '{' && line[i] !== ' ') i++;
  const name = line.slice(0, i);
  if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const eq = line.indexOf('=', i);
      if (eq < 0) throw new Error(`label without '=' in: ${line}`);
      const lname = line.slice(i, eq);
      if (!LABEL_NAME.test(lname)) throw new Error(`bad label name '${lname}' in: ${line}`);
      if (lname in labels) throw new Error(`repeated label '${lname}' in: ${line}`);
      i = eq + 1;
      if (line[i] !== '"') throw new Error(`label value not quoted in: ${line}`);
      i++;
      let value = '';
      for (;;) {
        const c = line[i];
        if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
        if (c === '"') break;
        if (c === '\\') {
          const e = line[i + 1];
          if (e === '\\') value += '\\';
          else if (e === '"') value += '"';
          else if (e === 'n') value += '\n';
          else throw new Error(`bad escape '\\${e}' in: ${line}`);
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      labels[lname] = value;
      i++; // closing quote
      if (line[i] === ',') i++;
      else if (line[i] !== '}') throw new Error(`expected ',' or '}' in: ${line}`);
    }
    i++;
  }
  if (line[i] !== ' ') throw new Error(`expected a space before the value in: ${line}`);
  const rest = line.slice(i + 1).split(' ');
  if (rest.length > 2 || rest[0] === '') throw new Error(`bad value part in: ${line}`);
  return { name, labels, value: parseValue(rest[0]!, line) };
}

/** The family a sample name belongs to: itself, or a histogram's base for _bucket/_sum/_count. */
function familyOf(name: string, families: Map<string, ParsedFamily>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      if (families.get(base)?.type === 'histogram') return base;
    }
  }
  return name;
}

/** Parses a whole exposition, enforcing: HELP/TYPE before samples, one TYPE per family, families not interleaved, histogram rules. */
function parseExposition(text: string): Map<string, ParsedFamily> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, ParsedFamily>();
  const closed = new Set<string>();
  let current: string | null = null;
  const enter = (name: string) => {
    if (current === name) return;
    if (closed.has(name)) throw new Error(`family '${name}' is interleaved with another`);
    if (current !== null) closed.add(current);
    current = name;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (!m) continue; // a plain comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string | undefined];
      if (!METRIC_NAME.test(name)) throw new Error(`bad name in: ${line}`);
      enter(name);
      const fam = families.get(name) ?? { name, type: 'untyped', help: null, samples: [] };
      families.set(name, fam);
      if (fam.samples.length > 0) throw new Error(`${kind} after samples of '${name}'`);
      if (kind === 'HELP') {
        if (fam.help !== null) throw new Error(`second HELP for '${name}'`);
        fam.help = unescapeHelp(rest ?? '', line);
      } else {
        if ((fam as ParsedFamily & { typed?: boolean }).typed) throw new Error(`second TYPE for '${name}'`);
        if (!TYPES.has(rest ?? '')) throw new Error(`bad type in: ${line}`);
        fam.type = rest!;
        (fam as ParsedFamily & { typed?: boolean }).typed = true;
      }
      continue;
    }
    const s = parseSampleLine(line);
    const fname = familyOf(s.name, families);
    enter(fname);
    const fam = families.get(fname) ?? { name: fname, type: 'untyped', help: null, samples: [] };
    families.set(fname, fam);
    if (fam.type === 'histogram' && s.name === fname) throw new Error(`histogram '${fname}' sample without _bucket/_sum/_count`);
    if (fam.type === 'histogram' && s.name.endsWith('_bucket') && !('le' in s.labels)) throw new Error(`bucket without le: ${line}`);
    fam.samples.push(s);
  }
  // histograms: per label set, ascending le with non-decreasing counts ending at +Inf = _count; a _sum
  for (const fam of families.values()) {
    if (fam.type !== 'histogram') continue;
    const groups = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
    for (const s of fam.samples) {
      const { le, ...rest } = s.labels;
      const key = JSON.stringify(rest);
      const g = groups.get(key) ?? { buckets: [] };
      groups.set(key, g);
      if (s.name.endsWith('_bucket')) g.buckets.push([parseValue(le!, s.name), s.value]);
      else if (s.name.endsWith('_sum')) g.sum = s.value;
      else g.count = s.value;
    }
    for (const [key, g] of groups) {
      if (g.sum === undefined || g.count === undefined) throw new Error(`histogram ${fam.name}${key} lacks _sum or _count`);
      const last = g.buckets[g.buckets.length - 1];
      if (!last || last[0] !== Infinity) throw new Error(`histogram ${fam.name}${key} lacks le="+Inf"`);
      if (last[1] !== g.count) throw new Error(`histogram ${fam.name}${key}: +Inf bucket ${last[1]} != _count ${g.count}`);
      for (let i = 1; i < g.buckets.length; i++) {
        if (!(g.buckets[i]![0] > g.buckets[i - 1]![0])) throw new Error(`histogram ${fam.name}${key}: le not ascending`);
        if (g.buckets[i]![1] < g.buckets[i - 1]![1]) throw new Error(`histogram ${fam.name}${key}: counts decrease`);
      }
    }
  }
  return families;
}

/** The value of `family` for the sample whose labels include `labels`. */
function valueOf(families: Map<string, ParsedFamily>, family: string, labels: Record<string, string> = {}, sampleName = family): number {
  const fam = families.get(family);
  if (!fam) throw new Error(`no family ${family}`);
  const hits = fam.samples.filter((s) => s.name === sampleName && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length !== 1) throw new Error(`${hits.length} samples of ${sampleName} with ${JSON.stringify(labels)}`);
  return hits[0]!.value;
}

// ---- unit: the formatter ---------------------------------------------------------------------------------

const FAMILIES: MetricFamily[] = [
  {
    name: 'jobs_done_total',
    type: 'counter',
    help: 'Jobs done.\nSecond line with a \\ backslash.',
    samples: [
      { labels: [['queue', 'a "quoted" \\ name\nwith a newline']], value: 12 },
      { labels: [['queue', 'plain']], value: 0.25 },
    ],
  },
  { name: 'temperature', type: 'gauge', help: '', samples: [{ labels: [], value: NaN }] },
  { name: 'connectors', type: 'gauge', help: 'No endpoints yet.', samples: [] },
  {
    name: 'wait_seconds',
    type: 'histogram',
    help: 'Waits.',
    samples: [
      {
        labels: [['stage', 'x']],
        histogram: {
          buckets: [
            { le: 0.1, count: 2 },
            { le: 0.5, count: 2 },
            { le: 1, count: 5 },
            { le: Infinity, count: 6 },
          ],
          sum: 3.5,
          count: 6,
        },
      },
      // no +Inf bucket given: the formatter adds it
      { labels: [['stage', 'y']], histogram: { buckets: [{ le: 1, count: 1 }], sum: 0.5, count: 3 } },
    ],
  },
];

describe('metrics formatter', () => {
  it('writes a valid exposition: HELP/TYPE first, escapes, histograms with le="+Inf"', () => {
    const text = renderPrometheus(FAMILIES);
    const fams = parseExposition(text);
    expect([...fams.keys()]).toEqual(['jobs_done_total', 'temperature', 'connectors', 'wait_seconds']);
    expect(fams.get('jobs_done_total')).toMatchObject({ type: 'counter', help: 'Jobs done.\nSecond line with a \\ backslash.' });
    expect(valueOf(fams, 'jobs_done_total', { queue: 'a "quoted" \\ name\nwith a newline' })).toBe(12);
    expect(valueOf(fams, 'jobs_done_total', { queue: 'plain' })).toBe(0.25);
    expect(fams.get('temperature')!.help).toBeNull();
    expect(Number.isNaN(valueOf(fams, 'temperature'))).toBe(true);
    expect(fams.get('connectors')).toMatchObject({ type: 'gauge', samples: [] });
    expect(valueOf(fams, 'wait_seconds', { stage: 'x', le: '+Inf' }, 'wait_seconds_bucket')).toBe(6);
    expect(valueOf(fams, 'wait_seconds', { stage: 'x', le: '0.5' }, 'wait_seconds_bucket')).toBe(2);
    expect(valueOf(fams, 'wait_seconds', { stage: 'y', le: '+Inf' }, 'wait_seconds_bucket')).toBe(3);
    expect(valueOf(fams, 'wait_seconds', { stage: 'x' }, 'wait_seconds_sum')).toBe(3.5);
    // the le label comes last, after the sample's own labels
    expect(text).toContain('wait_seconds_bucket{stage="x",le="0.1"} 2\n');
    // no raw newline inside a label value or a HELP text: every line is a comment, a sample or blank
    for (const line of text.split('\n')) expect(line === '' || line.startsWith('# ') || /^[a-z_]+(\{.*\})? \S+$/.test(line)).toBe(true);
  });

  it('the parser used here refuses what the format forbids', () => {
    expect(() => parseExposition('# TYPE a counter\na 1\n# TYPE a counter\n')).toThrow(/TYPE/);
    expect(() => parseExposition('# TYPE a counter\na 1\n# TYPE b gauge\nb 1\na 2\n')).toThrow(/interleaved/);
    expect(() => parseExposition('a{x="\\t"} 1\n')).toThrow(/escape/);
    expect(() => parseExposition('# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n')).toThrow(/\+Inf/);
    expect(() => parseExposition('a 1\n# HELP a late\n')).toThrow(/after samples/);
  });

  it('JSON in Feldera shape: key, type, description, values; histograms per bucket without empty buckets', () => {
    const json = JSON.parse(JSON.stringify(renderJson(FAMILIES)));
    expect(json[0]).toEqual({
      key: 'jobs_done_total',
      type: 'counter',
      description: 'Jobs done.\nSecond line with a \\ backslash.',
      values: [
        { labels: { queue: 'a "quoted" \\ name\nwith a newline' }, value: 12 },
        { labels: { queue: 'plain' }, value: 0.25 },
      ],
    });
    expect(Object.keys(json[1])).toEqual(['key', 'type', 'values']); // no help: no description
    expect(json[1].values[0].value).toBe('nan');
    expect(json[2].values).toEqual([]);
    expect(json[3].values[0]).toEqual({
      labels: { stage: 'x' },
      value: {
        buckets: [
          { le: 0.1, count: 2 },
          { gt: 0.5, le: 1, count: 3 },
          { gt: 1, count: 1 },
        ],
        sum: 3.5,
        count: 6,
      },
    });
    expect(json[3].values[1].value.buckets).toEqual([
      { le: 1, count: 1 },
      { gt: 1, count: 2 },
    ]);
  });

  it('names become Prometheus identifiers; merged lists hold each family once', () => {
    expect(promName('a.b--c')).toBe('a_b_c');
    expect(promName('9lives')).toBe('_9lives');
    expect(promName('')).toBe('unnamed');
    const merged = mergeFamilies([FAMILIES, FAMILIES.slice(0, 1)]);
    expect(merged.map((f) => f.name)).toEqual(['jobs_done_total', 'temperature', 'connectors', 'wait_seconds']);
    expect(merged[0]!.samples).toHaveLength(4);
  });
});

describe('step latency window', () => {
  it("Feldera's exponential buckets", () => {
    expect([0, 9, 10, 19, 20, 99, 100, 999, 1000, 1_234_567].map(latencyBucket)).toEqual([0, 9, 10, 10, 11, 18, 19, 27, 28, 55]);
    expect([0, 9, 10, 18, 19, 27, 90].map(latencyBucketUpper)).toEqual([0, 9, 19, 99, 199, 999, 9_999_999_999]);
    expect(latencyBucketUpper(STEP_LATENCY_BUCKETS - 1)).toBe(Infinity);
    expect(latencyBucket(1e12)).toBe(STEP_LATENCY_BUCKETS - 1);
    // every value falls in the bucket whose bounds hold it
    for (const v of [0, 5, 15, 150, 4321, 99_999, 7_654_321]) {
      const b = latencyBucket(v);
      expect(v).toBeLessThanOrEqual(latencyBucketUpper(b));
      if (b > 0) expect(v).toBeGreaterThan(latencyBucketUpper(b - 1));
    }
  });

  it('keeps the last N steps within the time window of the newest', () => {
    const h = new StepLatency(3, 1000);
    h.record(0.005, 0); // 5 µs
    h.record(0.05, 10); // 50 µs
    h.record(2, 20); // 2000 µs
    let s = h.snapshot();
    expect(s.counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(s.sum).toBe(2055);
    h.record(0.001, 30); // 1 µs: the oldest (5 µs) leaves, at most 3 kept
    s = h.snapshot();
    expect(s.counts[5]).toBe(0);
    expect(s.counts[1]).toBe(1);
    expect(s.sum).toBe(2051);
    h.record(0.1, 1025); // 100 µs, 1 s after 20: the samples at 10 and 20 fall out, 30 stays
    s = h.snapshot();
    expect(s.counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(s.sum).toBe(101);
  });
});

// ---- in-process server ---------------------------------------------------------------------------------

const SQL = 'CREATE TABLE t (x INT);\nCREATE TABLE "we""ird\\name" (y INT);\nCREATE VIEW v AS SELECT x FROM t;\n';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

async function metrics(name: string, query = ''): Promise<Map<string, ParsedFamily>> {
  const r = await svc.call('GET', `/v0/pipelines/${name}/metrics${query}`);
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('content-type')).toBe('text/plain');
  return parseExposition(r.text);
}

describe('GET /v0/pipelines/{name}/metrics', () => {
  it('Prometheus and JSON report the pipeline, its ingress, its watch streams and its steps', async () => {
    const p = await createCompiled(svc, 'met-one', SQL);
    await startRunning(svc, 'met-one');
    const labels = { pipeline: `pipeline-${p.pipeline_id ?? p.id}`, pipeline_name: 'met-one' };

    const watch = await WatchReader.open(svc, 'met-one', 'v');
    expect(watch.status).toBe(200);
    expect((await ingest(svc, 'met-one', 't', 'format=csv', '1\n2\n3\n')).status).toBe(200);
    expect((await ingest(svc, 'met-one', 't', 'format=csv', '4\n')).status).toBe(200);
    expect((await ingest(svc, 'met-one', '%22we%22%22ird%5Cname%22', 'format=csv', '7\n8\n')).status).toBe(200);
    await watch.until((w) => w.items().length === 4, 'four rows on the watch stream');
    const stats = await waitFor(async () => {
      const s = (await svc.call('GET', '/v0/pipelines/met-one/stats')).json;
      return s.outputs[0]?.metrics.transmitted_records === 4 ? s : undefined;
    }, 'the watch stream counted in stats');

    const fams = await metrics('met-one');
    expect(valueOf(fams, 'records_input_total', labels)).toBe(6);
    expect(valueOf(fams, 'records_processed_total', labels)).toBe(6);
    expect(valueOf(fams, 'records_input_bytes_total', labels)).toBe(12);
    expect(valueOf(fams, 'records_input_buffered', labels)).toBe(0);
    expect(valueOf(fams, 'dbsp_steps_total', labels)).toBe(3);
    expect(valueOf(fams, 'pipeline_complete', labels)).toBe(stats.global_metrics.pipeline_complete ? 1 : 0);
    expect(valueOf(fams, 'pipeline_start_time_seconds', labels)).toBe(stats.global_metrics.initial_start_time);
    expect(valueOf(fams, 'process_resident_memory_bytes', labels)).toBeGreaterThan(0);
    expect(valueOf(fams, 'max_rss_bytes', labels)).toBe(stats.global_metrics.memory_limit_bytes);
    expect(valueOf(fams, 'memory_pressure', labels)).toBe(0);
    // the pipeline process's own figures, read from its /proc (Linux): its worker, relay and V8's threads, its
    // files (IPC channel, stderr, ...), its limit on them (inherited from the server: this process's)
    expect(valueOf(fams, 'process_threads', labels)).toBeGreaterThanOrEqual(2);
    expect(valueOf(fams, 'process_open_fds', labels)).toBeGreaterThan(2);
    expect(valueOf(fams, 'process_max_fds', labels)).toBe(readProcessFigures().max_fds);
    expect(valueOf(fams, 'process_virtual_memory_bytes', labels)).toBeGreaterThan(valueOf(fams, 'process_resident_memory_bytes', labels)!);
    expect(fams.get('process_open_fds')!.type).toBe('gauge');
    // every step the engine took is in the latency histogram
    expect(fams.get('dbsp_step_latency_seconds')!.type).toBe('histogram');
    expect(valueOf(fams, 'dbsp_step_latency_seconds', { ...labels, le: '+Inf' }, 'dbsp_step_latency_seconds_bucket')).toBe(3);
    expect(valueOf(fams, 'dbsp_step_latency_seconds', labels, 'dbsp_step_latency_seconds_count')).toBe(3);
    expect(valueOf(fams, 'dbsp_step_latency_seconds', labels, 'dbsp_step_latency_seconds_sum')).toBeGreaterThan(0);
    // types as Feldera declares them
    expect(fams.get('records_input_total')!.type).toBe('counter');
    expect(fams.get('records_input_buffered')!.type).toBe('gauge');
    expect(fams.get('dbsp_steps_total')!.help).toBe('Total number of DBSP steps executed.');
    // made-up zeros are left out
    for (const absent of ['storage_usage_bytes', 'feldera_checkpoint_delay_seconds', 'compaction_stall_duration_seconds']) expect(fams.has(absent)).toBe(false);

    // per connector: inputs by endpoint name, one of which needs escaping; the watch stream as an output
    const inputT = stats.inputs.find((i: { config: { stream: string } }) => i.config.stream === 'T').endpoint_name;
    const inputWeird = stats.inputs.find((i: { config: { stream: string } }) => i.config.stream === 'we"ird\\name').endpoint_name;
    expect(inputWeird).toContain('we"ird\\name');
    expect(valueOf(fams, 'input_connector_records_total', { ...labels, endpoint: inputT })).toBe(4);
    expect(valueOf(fams, 'input_connector_bytes_total', { ...labels, endpoint: inputT })).toBe(8);
    expect(valueOf(fams, 'input_connector_records_total', { ...labels, endpoint: inputWeird })).toBe(2);
    expect(valueOf(fams, 'input_connector_running', { ...labels, endpoint: inputWeird })).toBe(1);
    expect(valueOf(fams, 'input_connector_errors_parse_total', { ...labels, endpoint: inputT })).toBe(0);
    const out = stats.outputs[0].endpoint_name;
    expect(valueOf(fams, 'output_connector_records_total', { ...labels, endpoint: out })).toBe(4);
    expect(valueOf(fams, 'output_connector_bytes_total', { ...labels, endpoint: out })).toBe(stats.outputs[0].metrics.transmitted_bytes);
    expect(valueOf(fams, 'output_connector_bytes_total', { ...labels, endpoint: out })).toBeGreaterThan(0);

    // JSON: the same figures in Feldera's JSON shape
    const r = await svc.call('GET', '/v0/pipelines/met-one/metrics?format=json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    const byKey = new Map<string, any>(r.json.map((f: any) => [f.key, f]));
    expect([...byKey.keys()]).toEqual([...fams.keys()]);
    expect(byKey.get('records_input_total')).toMatchObject({ type: 'counter', description: expect.any(String), values: [{ labels, value: 6 }] });
    const lat = byKey.get('dbsp_step_latency_seconds').values[0].value;
    expect(lat.count).toBe(3);
    expect(lat.buckets.reduce((a: number, b: { count: number }) => a + b.count, 0)).toBe(3);
    const weird = byKey.get('input_connector_records_total').values.find((v: any) => v.labels.endpoint === inputWeird);
    expect(weird).toEqual({ labels: { ...labels, endpoint: inputWeird }, value: 2 });

    // a rejected request counts as a parse error, not as records
    expect((await ingest(svc, 'met-one', 't', 'format=csv', 'nope\n')).status).toBe(400);
    const after = await metrics('met-one', '?format=prometheus');
    expect(valueOf(after, 'input_connector_errors_parse_total', { ...labels, endpoint: inputT })).toBe(1);
    expect(valueOf(after, 'records_input_total', labels)).toBe(6);
    watch.close();
    await shutdown(svc, 'met-one');
  });

  it('a pipeline that is not deployed: 503 PipelineInteractionNotDeployed; unknown: 404', async () => {
    await createCompiled(svc, 'met-off', SQL);
    const r = await svc.call('GET', '/v0/pipelines/met-off/metrics');
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ error_code: 'PipelineInteractionNotDeployed', details: { pipeline_name: 'met-off', status: 'stopped' } });
    const u = await svc.call('GET', '/v0/pipelines/met-nope/metrics?format=json');
    expect(u.status).toBe(404);
    expect(u.json.error_code).toBe('UnknownPipelineName');
  });

  it("an unknown or repeated format: 400 with the manager's message, before the pipeline is looked up", async () => {
    for (const [query, reason] of [
      ['format=xml', 'unknown variant `xml`, expected `prometheus` or `json`'],
      ['format=', 'unknown variant ``, expected `prometheus` or `json`'],
      ['format=JSON', 'unknown variant `JSON`, expected `prometheus` or `json`'],
      ['format=json&format=json', 'duplicate field `format`'],
    ]) {
      const r = await svc.call('GET', `/v0/pipelines/met-nope/metrics?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.message).toBe(`Query deserialize error: ${reason}`);
    }
  });

  it('GET /v0/metrics: every running pipeline, each family once', async () => {
    await createCompiled(svc, 'met-a', SQL);
    await createCompiled(svc, 'met-b', SQL);
    await startRunning(svc, 'met-a');
    await startRunning(svc, 'met-b');
    expect((await ingest(svc, 'met-b', 't', 'format=csv', '1\n')).status).toBe(200);
    const r = await svc.call('GET', '/v0/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain');
    const fams = parseExposition(r.text);
    expect(valueOf(fams, 'records_input_total', { pipeline_name: 'met-a' })).toBe(0);
    expect(valueOf(fams, 'records_input_total', { pipeline_name: 'met-b' })).toBe(1);
    // met-off is not deployed: not there
    expect(
      fams
        .get('records_input_total')!
        .samples.map((s) => s.labels.pipeline_name)
        .sort(),
    ).toEqual(['met-a', 'met-b']);
    await shutdown(svc, 'met-a');
    await shutdown(svc, 'met-b');
  });
});
