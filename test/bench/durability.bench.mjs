// Durable pipelines (docs/pipelines.md, "Durable pipelines"), three figures against baselines of the same run:
// 1. HTTP ingest with the input log on (the default) against the same pipeline with fault_tolerance
//    {model: "none"} (no log), interleaved rounds on one server: target >= 0.8x.
// 2. A checkpoint of a pipeline holding ROWS rows: its time and size, and the slowest /stats answer while it
//    is written (target: no answer later than 100 ms), against /stats latency with no checkpoint running.
// 3. A restart of the server with three pipelines holding ROWS rows together: time from the new server's
//    start until all three are Running with their contents, against the time the first start took to get
//    three empty pipelines Running.
// Imports the built code (npm run bench builds it). BENCH_QUICK=1: 100,000 rows instead of 1,000,000.
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../dist/services/events.js';
import service from '../../dist/services/pipelines/index.js';

const QUICK = !!process.env.BENCH_QUICK;
const ROWS = QUICK ? 100_000 : 1_000_000;
const BATCH = 20_000;
const SQL = `CREATE TABLE t (id BIGINT NOT NULL, grp INTEGER NOT NULL, amount DOUBLE, label VARCHAR) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT grp, COUNT(*) AS n, SUM(amount) AS total FROM t GROUP BY grp;`;

async function serve(dataDir) {
  const app = Fastify({ logger: false, forceCloseConnections: 'idle' });
  let handle;
  let baseUrl = '';
  await app.register(
    async (scope) => {
      handle = await service.register(scope, { dataDir, options: { host: '127.0.0.1', port: 0, dataDir }, log: app.log, events: new EventBus(), baseUrl: () => baseUrl });
    },
    { prefix: '/v0' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${app.server.address().port}`;
  await handle.started?.();
  return {
    base: baseUrl,
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

async function call(base, method, path, body) {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function until(fn) {
  for (;;) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function create(base, name, runtimeConfig = {}) {
  await call(base, 'PUT', `/v0/pipelines/${name}`, JSON.stringify({ name, description: '', runtime_config: runtimeConfig, program_config: {}, program_code: SQL }));
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).program_status === 'Success');
  await call(base, 'POST', `/v0/pipelines/${name}/start`);
  await running(base, name);
}

const running = (base, name) => until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).deployment_status === 'Running');

function body(from, n) {
  const rows = [];
  for (let id = from; id < from + n; id++) rows.push(`{"id":${id},"grp":${id % 16},"amount":${id / 2},"label":"item-${id}"}`);
  return `[${rows.join(',')}]`;
}

async function ingest(base, name, from, n) {
  const t0 = performance.now();
  for (let s = from; s < from + n; s += BATCH) await call(base, 'POST', `/v0/pipelines/${name}/ingress/t?format=json&array=true&update_format=raw`, body(s, Math.min(BATCH, from + n - s)));
  return n / ((performance.now() - t0) / 1000);
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : `${(x / 1e3).toFixed(0)}k`);

const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-durable-'));
try {
  // ---- 1. ingest with and without the input log ----
  let s = await serve(dataDir);
  await create(s.base, 'logged');
  await create(s.base, 'unlogged', { fault_tolerance: { model: 'none' } });
  const per = QUICK ? 40_000 : 200_000;
  const on = [];
  const off = [];
  for (let round = 0; round < 3; round++) {
    on.push(await ingest(s.base, 'logged', round * per, per));
    off.push(await ingest(s.base, 'unlogged', round * per, per));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`ingest over HTTP, ${per} rows a round, 3 interleaved rounds: input log on ${on.map(fmt).join(' / ')} rec/s, off ${off.map(fmt).join(' / ')} rec/s`);
  console.log(`  ratio on/off (medians): ${(median(on) / median(off)).toFixed(2)}x (target >= 0.8x)`);
  await call(s.base, 'POST', '/v0/pipelines/logged/stop?force=true');
  await call(s.base, 'POST', '/v0/pipelines/unlogged/stop?force=true');

  // ---- 2. a checkpoint of ROWS rows, /stats answered meanwhile ----
  await create(s.base, 'big');
  await ingest(s.base, 'big', 0, ROWS);
  const statsLatency = async (whileFn) => {
    const lat = [];
    while (whileFn()) {
      const t0 = performance.now();
      await call(s.base, 'GET', '/v0/pipelines/big/stats');
      lat.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 5));
    }
    return lat;
  };
  let quiet = true;
  const idle = statsLatency(() => quiet);
  await new Promise((r) => setTimeout(r, 500));
  quiet = false;
  const idleLat = await idle;
  let writing = true;
  const during = statsLatency(() => writing);
  const t0 = performance.now();
  const { checkpoint_sequence_number: seq } = await call(s.base, 'POST', '/v0/pipelines/big/checkpoint');
  await until(async () => (await call(s.base, 'GET', '/v0/pipelines/big/checkpoint_status')).success === seq);
  const cpMs = performance.now() - t0;
  writing = false;
  const duringLat = await during;
  const list = await call(s.base, 'GET', '/v0/pipelines/big/checkpoints');
  const size = list.at(-1).size;
  console.log(`checkpoint of ${ROWS} rows (table and view): ${cpMs.toFixed(0)} ms, ${(size / 2 ** 20).toFixed(1)} MiB (${(size / ROWS).toFixed(1)} bytes a row)`);
  console.log(
    `  /stats while it was written: ${duringLat.length} answers, slowest ${Math.max(...duringLat).toFixed(1)} ms (target <= 100 ms); with no checkpoint: slowest ${Math.max(...idleLat).toFixed(1)} ms of ${idleLat.length}`,
  );
  await call(s.base, 'POST', '/v0/pipelines/big/stop?force=true');

  // ---- 3. restart with three pipelines holding ROWS rows together ----
  const emptyStart = performance.now();
  for (const name of ['r1', 'r2', 'r3']) await create(s.base, name);
  const emptyMs = performance.now() - emptyStart;
  for (const [i, name] of ['r1', 'r2', 'r3'].entries()) await ingest(s.base, name, i * ROWS, Math.floor(ROWS / 3));
  await s.close(); // a graceful stop: each writes its checkpoint
  const restart = performance.now();
  s = await serve(dataDir);
  for (const name of ['r1', 'r2', 'r3']) await running(s.base, name);
  const restartMs = performance.now() - restart;
  const counts = [];
  for (const name of ['r1', 'r2', 'r3']) {
    const res = await fetch(`${s.base}/v0/pipelines/${name}/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM t')}&format=json`);
    counts.push(Object.values(JSON.parse((await res.text()).trim()))[0]);
  }
  console.log(`restart with 3 pipelines holding ${ROWS} rows together: all Running with their contents (${counts.join(' + ')} rows) ${restartMs.toFixed(0)} ms after the start`);
  console.log(`  against 3 empty pipelines created, compiled and started: ${emptyMs.toFixed(0)} ms (ratio ${(restartMs / emptyMs).toFixed(2)}x)`);
  await s.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
