// Nexmark over HTTP (issue 30, item 4): what a pipeline costs per event when its rows come over HTTP, against
// the engine stepping the same rows in-process.
//
// The events: N Nexmark events (the connector's generator, src/services/pipelines/connectors/nexmark-events.ts),
// generated before anything is measured, in rounds of CHUNK events; each round's rows of each table are one
// request body as Feldera's Python SDK sends a list of rows (`input_json`: format=json, update_format=raw,
// array=true, one JSON object per row keyed by column name, timestamps as 'YYYY-MM-DD HH:MM:SS.mmm' text).
// Served: `ops serve` in its own process (default settings: a durable pipeline, its input log synced per
// request), the tables of test/fixtures/nexmark/tables.sql and one query, the bodies POSTed to
// /v0/pipelines/{name}/ingress/{table} one after the other. CPU: the pipeline's process (its stats'
// cpu_msecs) and the server's process (/proc/PID/stat utime+stime), from the first request to the last
// answer. In-process: the same program stepped with the same rows, one step per request body (as the
// pipeline steps each request), the rows already in the engine's form (parsing excluded, as in
// nexmark.bench.mjs); only the steps timed. Printed per query: events per CPU-second each way and the
// ratios (pipeline process alone, and pipeline + server), then the medians. Goal: median of pipeline +
// server at most 1.5x over q0, q1, q2, q3, q10, q15.
// Also printed first: the CPU per event of parsing the bodies alone (the worker's parser, no step).
// Each side is the best of NEXMARK_REPEAT runs (2; 1 with BENCH_QUICK): the machine is shared. Also printed:
// CPU per event of the pipeline's worker thread, of its process's other threads (its main thread, the relay, and
// the rest by thread name: V8's helpers for GC and compiling are named "node"), and of the server.
// N: 20,000 with BENCH_QUICK, else 100,000 (NEXMARK_EVENTS); CHUNK 10,000 events (NEXMARK_CHUNK);
// NEXMARK_FORMAT=json (default), parquet or both: the bodies as JSON arrays, or as one Parquet file each (Snappy,
// written by parquet-wasm from apache-arrow tables: BIGINT Int64, VARCHAR Utf8, TIMESTAMP(3) Timestamp(ms), as
// Feldera documents its Parquet input), POSTed with format=parquet.
// NEXMARK_QUERIES=q0,q3 picks queries; NEXMARK_FT=none runs the pipelines without their input log. NEXMARK_PROFILE=dir: the pipelines' worker threads write CPU profiles there.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compile } from '../../dist/engine/index.js';
import { StepBuilder } from '../../dist/services/pipelines/worker/connectors/generated-input.js';
import { NEXMARK_FIELDS, NexmarkEvents } from '../../dist/services/pipelines/worker/connectors/nexmark-events.js';
import { TableBinding } from '../../dist/services/pipelines/worker/ingress/binding.js';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

const QUICK = !!process.env.BENCH_QUICK;
const N = Number(process.env.NEXMARK_EVENTS ?? (QUICK ? 20_000 : 100_000));
const CHUNK = Number(process.env.NEXMARK_CHUNK ?? 10_000);
const REPEAT = Number(process.env.NEXMARK_REPEAT ?? (QUICK ? 1 : 2));
const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, '../fixtures/nexmark');
const BIN = join(HERE, '../../bin/ops');
const QUERIES = (process.env.NEXMARK_QUERIES ?? 'q0,q1,q2,q3,q10,q15').split(',');
const TABLES = ['person', 'auction', 'bid'];
const TIMESTAMPS = { person: [6], auction: [5, 6], bid: [5] };
const CLK_TCK = 100;
const PARSE_EVENTS = 200_000;
const FORMATS = (process.env.NEXMARK_FORMAT ?? 'json') === 'both' ? ['json', 'parquet'] : [process.env.NEXMARK_FORMAT ?? 'json'];
const INGRESS_QUERY = { json: 'format=json&update_format=raw&array=true', parquet: 'format=parquet' };

/** The events, generated once: per round, per table, its rows as the generator gives them. */
function generate() {
  const gen = new NexmarkEvents();
  const rounds = [];
  for (let from = 0; from < N; from += CHUNK) {
    const round = { person: [], auction: [], bid: [] };
    for (let id = from; id < Math.min(N, from + CHUNK); id++) {
      const e = gen.event(id);
      round[e.table].push(e.values);
    }
    rounds.push(round);
  }
  return rounds;
}

const timestampText = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

/** A round's rows of one table as the request body a client sends: a JSON array of objects. */
function body(table, rows) {
  const names = NEXMARK_FIELDS[table].map((f) => f.toLowerCase());
  const ts = TIMESTAMPS[table];
  const objects = rows.map((values) => {
    const o = {};
    names.forEach((n, i) => (o[n] = ts.includes(i) ? timestampText(values[i]) : values[i]));
    return o;
  });
  return Buffer.from(JSON.stringify(objects));
}

/** A round's rows of one table as one Parquet file. */
function parquetBody(table, rows) {
  const require = createRequire(import.meta.url);
  const A = require('apache-arrow');
  const pq = require('parquet-wasm');
  const names = NEXMARK_FIELDS[table].map((f) => f.toLowerCase());
  const ts = TIMESTAMPS[table];
  const columns = {};
  names.forEach((n, i) => {
    if (ts.includes(i)) columns[n] = A.makeVector(A.makeData({ type: new A.TimestampMillisecond(), length: rows.length, data: BigInt64Array.from(rows, (v) => BigInt(v[i])) }));
    else if (typeof rows[0][i] === 'number') columns[n] = A.makeVector(BigInt64Array.from(rows, (v) => BigInt(v[i])));
    else
      columns[n] = A.vectorFromArray(
        rows.map((v) => v[i]),
        new A.Utf8(),
      );
  });
  const ipc = A.tableToIPC(new A.Table(columns), 'stream');
  return Buffer.from(pq.writeParquet(pq.Table.fromIPCStream(ipc), new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build()));
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** The same rows stepped in-process, one step per request body; only the steps timed. */
function inProcess(sql, rounds) {
  const r = compile(sql);
  if (!r.ok) return { error: r.errors[0]?.message };
  const program = r.program;
  const circuit = program.newCircuit();
  const target = (name) => {
    const t = program.tables.find((x) => x.name.toLowerCase() === name);
    return { endpoint: name, binding: new TableBinding(t, program.inputCodec(t.name)) };
  };
  const targets = TABLES.map(target);
  const steps = [];
  for (const round of rounds)
    TABLES.forEach((table, t) => {
      if (round[table].length === 0) return;
      const step = new StepBuilder(targets);
      for (const values of round[table]) step.row(t, values);
      steps.push(step.parsed().input);
    });
  // best of REPEAT runs, each on a new circuit (the machine is shared: the least disturbed run counts)
  let best = Infinity;
  for (let run = 0; run < REPEAT; run++) {
    const c = run === 0 ? circuit : program.newCircuit();
    let cpu = 0;
    for (const input of steps) {
      const t = cpuSeconds();
      c.step(input);
      cpu += cpuSeconds() - t;
    }
    best = Math.min(best, cpu);
  }
  return { rate: N / best };
}

/**
 * The request bodies parsed alone, as the pipeline's worker parses them (the JSON parser fed pieces of
 * PARSE_PIECE_BYTES, into each table's binding), no step: CPU seconds per event, best of two runs. In a
 * worker thread of its own (its own heap, as a pipeline's worker has), on at most the first PARSE_EVENTS
 * events' bodies; this process waits meanwhile, so its CPU is the worker's.
 */
async function parseOnly(sql, format) {
  const bodies = bodiesOf[format];
  const some = bodies.slice(0, Math.ceil(Math.min(N, PARSE_EVENTS) / CHUNK) * TABLES.length);
  const events = Math.min(N, PARSE_EVENTS);
  const worker = new Worker(new URL(import.meta.url), { workerData: { parseOnly: { sql, bodies: some, tables: TABLES, format } } });
  const seconds = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return seconds / events;
}

/** parseOnly's worker: parses the bodies twice, posts the best run's CPU seconds. */
async function parseInWorker({ sql, bodies: some, tables, format }) {
  const { newIngressParser } = await import('../../dist/services/pipelines/worker/ingress/stream.js');
  const { PARSE_PIECE_BYTES } = await import('../../dist/services/pipelines/worker/ingest-job.js');
  const { releaseBatches } = await import('../../dist/services/pipelines/worker/ingress/parser.js');
  const program = compile(sql).program;
  const bindings = new Map(
    tables.map((name) => {
      const t = program.tables.find((x) => x.name.toLowerCase() === name);
      return [name, new TableBinding(t, program.inputCodec(t.name))];
    }),
  );
  let best = Infinity;
  for (let run = 0; run < 2; run++) {
    const t = cpuSeconds();
    for (const [table, data] of some) {
      const parser = newIngressParser(format, bindings.get(table), { updateFormat: 'raw', array: true });
      for (let at = 0; at < data.length; at += PARSE_PIECE_BYTES) parser.push(data.subarray(at, Math.min(data.length, at + PARSE_PIECE_BYTES)));
      const parsed = parser.end();
      if (parsed.errors.length) throw new Error(`parse errors in a ${table} body: ${parsed.errors[0].description}`);
      releaseBatches(parsed.input); // as the pipeline's runtime does once its step has read them
    }
    best = Math.min(best, cpuSeconds() - t);
  }
  parentPort.postMessage(best);
}

/** `ops serve` in its own process, on a fresh data directory. */
async function startServer() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-nexmark-http-'));
  const env = { ...process.env, OPS_DATA_DIR: dataDir };
  // each pipeline's worker thread writes a .cpuprofile there at its stop (worker/cpu-profile.ts)
  if (process.env.NEXMARK_PROFILE) env.OPS_PIPELINE_CPU_PROFILE = process.env.NEXMARK_PROFILE;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`ops serve exited with ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line)));
  });
  return {
    base: ready.url,
    pid: ready.pid ?? child.pid,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system) of a /proc stat line. */
function statCpu(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CPU seconds of a process so far, from /proc. */
const processCpu = (pid) => statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** CPU seconds so far of each thread of each child process of the server: Map pid -> Map tid -> seconds. */
function childThreads(serverPid) {
  const out = new Map();
  const children = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, 'utf8').trim().split(' ').filter(Boolean);
  for (const pid of children) {
    const threads = new Map();
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        threads.set(tid, { cpu: statCpu(stat), name: tid === pid ? 'main (relay)' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
      }
    } catch {
      continue; // the process ended meanwhile
    }
    out.set(pid, threads);
  }
  return out;
}

/**
 * Where the pipeline's process spent its CPU between two childThreads readings: the child that used the
 * most is the pipeline's; its busiest thread is the pipeline's worker (parse, log, step), the rest is V8's
 * helper threads (garbage collection, compilation) and the relay thread.
 */
function pipelineThreads(before, after) {
  let best = null;
  for (const [pid, threads] of after) {
    const was = before.get(pid) ?? new Map();
    const deltas = [...threads].map(([tid, t]) => ({ name: t.name, cpu: t.cpu - (was.get(tid)?.cpu ?? 0) }));
    const total = deltas.reduce((a, b) => a + b.cpu, 0);
    if (!best || total > best.total) best = { total, deltas };
  }
  if (!best) return null;
  const worker = Math.max(0, ...best.deltas.map((d) => d.cpu));
  // the other threads' CPU by thread name: the process's main thread (the relay), the others (V8's helpers, libuv's) as named
  const byName = {};
  for (const d of best.deltas) if (d.cpu !== worker) byName[d.name] = (byName[d.name] ?? 0) + d.cpu;
  return { worker, others: best.total - worker, byName };
}

async function call(base, method, path, body, contentType = 'application/json') {
  const res = await fetch(base + path, {
    method,
    headers: body ? { 'content-type': contentType } : {},
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function served(server, name, sql, bodies, format) {
  const { base } = server;
  await call(base, 'PUT', `/v0/pipelines/${name}`, {
    name,
    description: '',
    runtime_config: { workers: 2, ...(process.env.NEXMARK_FT ? { fault_tolerance: { model: process.env.NEXMARK_FT } } : {}) },
    program_config: {},
    program_code: sql,
  });
  for (;;) {
    const p = (await call(base, 'GET', `/v0/pipelines/${name}`)).json;
    if (p.program_status === 'Success') break;
    if (typeof p.program_status === 'object') return { error: p.program_status.SqlError?.[0]?.message ?? JSON.stringify(p.program_status) };
    await sleep(50);
  }
  await call(base, 'POST', `/v0/pipelines/${name}/start`);
  for (;;) {
    const p = (await call(base, 'GET', `/v0/pipelines/${name}`)).json;
    if (p.deployment_status === 'Running') break;
    if (p.deployment_status === 'Failed') return { error: p.deployment_error?.message };
    await sleep(50);
  }
  await sleep(200);
  const before = (await call(base, 'GET', `/v0/pipelines/${name}/stats`)).json.global_metrics;
  const serverBefore = processCpu(server.pid);
  const threadsBefore = childThreads(server.pid);
  const t0 = performance.now();
  for (const [table, data] of bodies) {
    const res = await call(base, 'POST', `/v0/pipelines/${name}/ingress/${table}?${INGRESS_QUERY[format]}`, data, format === 'parquet' ? 'application/octet-stream' : 'application/json');
    if (res.status !== 200) return { error: `ingress ${table}: ${res.status} ${res.text.slice(0, 300)}` };
  }
  let g;
  for (;;) {
    g = (await call(base, 'GET', `/v0/pipelines/${name}/stats`)).json.global_metrics;
    if (g.total_processed_records - before.total_processed_records >= N) break;
    await sleep(20);
  }
  const wall = performance.now() - t0;
  const serverCpu = processCpu(server.pid) - serverBefore;
  const threads = pipelineThreads(threadsBefore, childThreads(server.pid));
  // stopped gracefully when profiling: the process then exits on its own and writes its profiles
  await call(base, 'POST', `/v0/pipelines/${name}/stop${process.env.NEXMARK_PROFILE ? '' : '?force=true'}`);
  while ((await call(base, 'GET', `/v0/pipelines/${name}`)).json.deployment_status !== 'Shutdown') await sleep(50);
  const pipelineCpu = (g.cpu_msecs - before.cpu_msecs) / 1000;
  return { pipeline: N / pipelineCpu, total: N / (pipelineCpu + serverCpu), wall, rss: g.rss_bytes, threads, serverCpu };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? s[Math.floor(m)] : (s[m - 1] + s[m]) / 2;
};
const k = (x) => `${(x / 1000).toFixed(1)}k`;

if (!isMainThread) {
  await parseInWorker(workerData.parseOnly);
  process.exit(0);
}

const rounds = generate();
const bodiesOf = {};
for (const format of FORMATS) {
  const bodies = (bodiesOf[format] = []);
  let bytes = 0;
  for (const round of rounds)
    for (const table of TABLES)
      if (round[table].length > 0) {
        const b = format === 'parquet' ? parquetBody(table, round[table]) : body(table, round[table]);
        bytes += b.byteLength;
        bodies.push([table, b]);
      }
  console.log(
    `nexmark over HTTP (${format}): ${N.toLocaleString('en-US')} events in ${bodies.length} requests (rounds of ${CHUNK.toLocaleString('en-US')} events, one body per table; ${format === 'json' ? 'JSON raw arrays' : 'Parquet files'}, ${(bytes / 1048576).toFixed(1)} MiB); events per CPU-second`,
  );
}
const tables = readFileSync(join(FIXTURES, 'tables.sql'), 'utf8');
for (const format of FORMATS)
  console.log(
    `  parsing the ${format} bodies alone (the worker's parser, no step): ${((await parseOnly(tables, format)) * 1e6).toFixed(2)} CPU us/event (the first ${Math.min(N, PARSE_EVENTS).toLocaleString('en-US')} events)`,
  );
const server = await startServer();
try {
  const pipelineRatios = Object.fromEntries(FORMATS.map((f) => [f, []]));
  const totalRatios = Object.fromEntries(FORMATS.map((f) => [f, []]));
  for (const q of QUERIES) {
    const sql = `${tables}\n${readFileSync(join(FIXTURES, `${q}.sql`), 'utf8')}`;
    const local = inProcess(sql, rounds);
    if (local.error) {
      console.log(`  ${q.padEnd(4)} does not compile: ${local.error.split('\n')[0].slice(0, 140)}`);
      continue;
    }
    console.log(`  ${q.padEnd(4)} in-process ${k(local.rate).padStart(7)}/cpu-s (engine ${(1e6 / local.rate).toFixed(2)} CPU us/event)`);
    for (const format of FORMATS) {
      let s = null;
      for (let run = 0; run < REPEAT; run++) {
        const r = await served(server, `nxh${q}${format}${run}`, sql, bodiesOf[format], format);
        if (r.error || !s || r.pipeline > s.pipeline) s = r;
        if (r.error) break;
      }
      if (s.error) {
        console.log(`       ${format}: ops serve failed: ${s.error.slice(0, 200)}`);
        continue;
      }
      const rp = local.rate / s.pipeline;
      const rt = local.rate / s.total;
      pipelineRatios[format].push(rp);
      totalRatios[format].push(rt);
      const us = (seconds) => ((seconds * 1e6) / N).toFixed(2);
      const named = s.threads
        ? Object.entries(s.threads.byName)
            .filter(([, cpu]) => cpu > 0)
            .map(([name, cpu]) => `${name} ${us(cpu)}`)
            .join(', ')
        : '';
      const where = s.threads ? `pipeline worker thread ${us(s.threads.worker)}, its other threads ${us(s.threads.others)} (${named}), ` : '';
      console.log(
        `       ${format.padEnd(7)} pipeline ${k(s.pipeline).padStart(7)}/cpu-s (${rp.toFixed(2)}x)   pipeline+server ${k(s.total).padStart(7)}/cpu-s (${rt.toFixed(2)}x)   wall ${(s.wall / 1000).toFixed(1)} s, RSS ${(s.rss / 1048576).toFixed(0)} MiB`,
      );
      console.log(`               CPU us/event: ${where}server ${us(s.serverCpu)}`);
    }
  }
  for (const format of FORMATS)
    if (totalRatios[format].length)
      console.log(
        `  ${format}: median over ${totalRatios[format].length} queries: the pipeline's process costs ${median(pipelineRatios[format]).toFixed(2)}x the engine's CPU per event, pipeline + server ${median(totalRatios[format]).toFixed(2)}x (goal: at most 1.5x)`,
      );
} finally {
  await server.close();
}
