// Watch streams that are never read do not slow the pipeline: the time from an ingress request to its
// changes arriving on a watch stream that is read, with STALLED other watch streams open and never
// read (their per-stream buffers already full, so each step's chunk is dropped for them), against the
// same pipeline with no stalled streams (the baseline), measured in the same run, interleaved.
// Target: about 1x. Imports the built code (npm run bench builds it).
import { pipelineHost } from './pipeline-host.mjs';
import { connect } from 'node:net';

const QUICK = !!process.env.BENCH_QUICK;
const STALLED = QUICK ? 20 : 100;
const SAMPLES = QUICK ? 20 : 60;
const ROUNDS = QUICK ? 1 : 3;
const ROWS = 200; // per step, about 400 KB of output
const SQL = 'CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR);\nCREATE VIEW v AS SELECT id, s FROM t;';
const PAD = 'x'.repeat(2000);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const host = () => pipelineHost('slow', { pipelinesWatchMaxBytes: 256 * 1024 }); // a small per-stream buffer: the stalled streams are full after a few steps

async function call(base, method, path, body) {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function setup(base, name) {
  await call(base, 'PUT', `/v0/pipelines/${name}`, JSON.stringify({ name, description: '', runtime_config: {}, program_config: {}, program_code: SQL }));
  while ((await call(base, 'GET', `/v0/pipelines/${name}`)).program_status !== 'Success') await new Promise((r) => setTimeout(r, 10));
  await call(base, 'POST', `/v0/pipelines/${name}/start`);
  while ((await call(base, 'GET', `/v0/pipelines/${name}`)).deployment_status !== 'Running') await new Promise((r) => setTimeout(r, 10));
}

/** A watch stream that is never read past its response head. */
async function stalledWatch(base, name) {
  const url = new URL(base);
  const sock = connect({ host: url.hostname, port: Number(url.port) });
  await new Promise((r) => sock.once('connect', r));
  sock.write(`POST /v0/pipelines/${name}/egress/v?format=json HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 0\r\n\r\n`);
  await new Promise((r) => sock.once('data', r));
  sock.pause();
  sock.on('error', () => {});
  return sock;
}

/** A watch stream that is read: resolves `arrived(k)` once step k's rows came. */
async function fastWatch(base, name) {
  const res = await fetch(`${base}/v0/pipelines/${name}/egress/v?format=json`, { method: 'POST' });
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let rows = 0;
  let waiting = null;
  let buf = '';
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line) rows += (JSON.parse(line).json_data ?? []).length;
      }
      waiting?.();
    }
  })();
  return {
    async until(n) {
      while (rows < n) await new Promise((r) => (waiting = r));
    },
  };
}

/** Milliseconds from sending each step to its rows arriving on the read stream. */
async function stepTimes(base, name, fast, from, count) {
  const times = [];
  for (let k = from; k < from + count; k++) {
    const body = JSON.stringify(Array.from({ length: ROWS }, (_, i) => ({ id: k * ROWS + i, s: PAD })));
    const t0 = performance.now();
    await call(base, 'POST', `/v0/pipelines/${name}/ingress/t?format=json&update_format=raw&array=true`, body);
    await fast.until((k + 1) * ROWS);
    times.push(performance.now() - t0);
  }
  return times;
}

const server = await host();
try {
  const plain = [];
  const withStalled = [];
  let dropped = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const a = `plain${round}`;
    const b = `stalled${round}`;
    await setup(server.base, a);
    await setup(server.base, b);
    const fastA = await fastWatch(server.base, a);
    const fastB = await fastWatch(server.base, b);
    const socks = [];
    for (let i = 0; i < STALLED; i++) socks.push(await stalledWatch(server.base, b));
    // fill the stalled streams' kernel and per-stream buffers (about 8 MB each), and warm up both
    const WARM = 20;
    await stepTimes(server.base, a, fastA, 0, WARM);
    await stepTimes(server.base, b, fastB, 0, WARM);
    // measured, interleaved in blocks so that both see the same conditions
    for (let block = 0; block < 4; block++) {
      const from = WARM + (block * SAMPLES) / 4;
      plain.push(...(await stepTimes(server.base, a, fastA, from, SAMPLES / 4)));
      withStalled.push(...(await stepTimes(server.base, b, fastB, from, SAMPLES / 4)));
    }
    const stats = await call(server.base, 'GET', `/v0/pipelines/${b}/stats`);
    dropped += stats.outputs.reduce((n, o) => n + o.metrics.dropped_batches, 0);
    await call(server.base, 'POST', `/v0/pipelines/${a}/shutdown`);
    await call(server.base, 'POST', `/v0/pipelines/${b}/shutdown`);
    for (const s of socks) s.destroy();
  }
  const p50a = pct(plain, 50);
  const p50b = pct(withStalled, 50);
  console.log(`step of ${ROWS} rows (~400 KB of output): ingress request -> its rows on a watch stream that is read (${ROUNDS} rounds x ${SAMPLES} steps)`);
  console.log(`no stalled streams          p50 ${p50a.toFixed(1)} ms  p90 ${pct(plain, 90).toFixed(1)} ms  (baseline)`);
  console.log(
    `${String(STALLED).padStart(3)} streams never read      p50 ${p50b.toFixed(1)} ms  p90 ${pct(withStalled, 90).toFixed(1)} ms  ${(p50b / p50a).toFixed(2)}x the baseline (target about 1x; ${dropped} chunks dropped for the stalled streams)`,
  );
} finally {
  await server.close();
}
