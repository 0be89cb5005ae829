// A watch stream's snapshot (egress send_snapshot=true): the time until a client has the whole contents of
// a materialized table of ROWS rows, sent part by part as the socket takes them, against the same contents
// as one snapshot answer (mode=snapshot&query=table, one body: the baseline), measured in the same run,
// interleaved; both parsed by the client with JSON.parse. Target: about 1x or better (the stream starts
// sending before the whole snapshot is encoded). Imports the built code (npm run bench builds it).
import { pipelineHost } from './pipeline-host.mjs';

const QUICK = !!process.env.BENCH_QUICK;
const ROWS = QUICK ? 50_000 : 300_000;
const ROUNDS = QUICK ? 2 : 5;
const SQL = "CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR, x DOUBLE) WITH ('materialized' = 'true');";

const host = () => pipelineHost('sendsnap');

async function call(base, method, path, body, type = 'application/json') {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? {} : { 'content-type': type } });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** ms until the snapshot answer is in and parsed; checks its row count. */
async function oneBody(base) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v0/pipelines/p/egress/t?format=json&mode=snapshot&query=table`, { method: 'POST' });
  const body = JSON.parse(await res.text());
  if (body.json_data.length !== ROWS) throw new Error(`snapshot: ${body.json_data.length} rows`);
  return performance.now() - t0;
}

/** ms until the stream's snapshot frames hold every row, each frame parsed as it arrives. */
async function stream(base) {
  const t0 = performance.now();
  const ctl = new AbortController();
  const res = await fetch(`${base}/v0/pipelines/p/egress/t?format=json&send_snapshot=true&backpressure=true`, { method: 'POST', signal: ctl.signal });
  const dec = new TextDecoder();
  let buf = '';
  let rows = 0;
  let frames = 0;
  try {
    for await (const part of res.body) {
      buf += dec.decode(part, { stream: true });
      let i;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const f = JSON.parse(line);
        if (f.json_data) {
          if (f.snapshot !== true) throw new Error('a change frame before the snapshot ended');
          rows += f.json_data.length;
          frames++;
        }
      }
      if (rows >= ROWS) break;
    }
  } finally {
    ctl.abort();
  }
  if (rows !== ROWS) throw new Error(`stream: ${rows} rows`);
  return { ms: performance.now() - t0, frames };
}

const h = await host();
try {
  await call(h.base, 'PUT', '/v0/pipelines/p', JSON.stringify({ name: 'p', description: '', runtime_config: {}, program_config: {}, program_code: SQL }));
  while ((await call(h.base, 'GET', '/v0/pipelines/p')).program_status !== 'Success') await new Promise((r) => setTimeout(r, 10));
  await call(h.base, 'POST', '/v0/pipelines/p/start');
  while ((await call(h.base, 'GET', '/v0/pipelines/p')).deployment_status !== 'Running') await new Promise((r) => setTimeout(r, 10));
  let csv = '';
  for (let i = 0; i < ROWS; i++) csv += `${i},name-${i % 977}-of-the-row,${i / 7}\n`;
  await call(h.base, 'POST', '/v0/pipelines/p/ingress/t?format=csv', csv, 'text/csv');
  csv = '';
  await oneBody(h.base);
  await stream(h.base); // warm-up
  const base = [];
  const snap = [];
  let frames = 0;
  for (let r = 0; r < ROUNDS; r++) {
    base.push(await oneBody(h.base));
    const s = await stream(h.base);
    snap.push(s.ms);
    frames = s.frames;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const b = median(base);
  const s = median(snap);
  console.log(`${ROWS} rows, ${ROUNDS} rounds, medians: one snapshot body ${b.toFixed(0)} ms (baseline); send_snapshot stream ${s.toFixed(0)} ms in ${frames} frames`);
  console.log(`send_snapshot stream: ${(b / s).toFixed(2)}x the baseline's speed`);
} finally {
  await h.close();
}
