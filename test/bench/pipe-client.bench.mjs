// `ops pipe` client: the egress frame reader (chunk boundaries anywhere, keep-alives, UTF-8 split across
// chunks) against the naive baseline of splitting the whole body on "\r\n" and JSON.parse per line; and
// the ingest input path (NDJSON -> change events -> JSON-array batches) against JSON.parse + JSON.stringify
// per line. Both figures are ratios against their baseline measured in the same run. A third figure: frames
// whose every row holds a BIGINT beyond 2^53 (the reader's digit-exact path) against the same baseline
// (which rounds them). Imports dist/.
import { FrameReader } from '../../dist/clients/pipelines/frames.js';
import { batches, jsonEventGroups } from '../../dist/clients/pipelines/ingest-input.js';

const QUICK = !!process.env.BENCH_QUICK;
const FRAMES = QUICK ? 2_000 : 20_000;
const PER_FRAME = 50;
const CHUNK = 16 * 1024;
const ROWS = QUICK ? 50_000 : 500_000;

function best(fn, runs = 3) {
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

async function bestAsync(fn, runs = 3) {
  let t = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

// ---- egress frames ----
let text = '';
let seq = 0;
for (let f = 0; f < FRAMES; f++) {
  if (f % 10 === 9) text += `{"sequence_number":${seq++}}\r\n`;
  const changes = [];
  for (let i = 0; i < PER_FRAME; i++) changes.push({ [i % 3 ? 'insert' : 'delete']: { ID: f * PER_FRAME + i, NAME: `name-é-${i}`, TOTAL: `${i}.50` } });
  text += JSON.stringify({ sequence_number: seq++, json_data: changes }) + '\r\n';
}
const bytes = Buffer.from(text, 'utf8');
const chunks = [];
for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
const mb = bytes.length / 1e6;

let baselineChanges = 0;
const tBase = best(() => {
  baselineChanges = 0;
  const body = Buffer.concat(chunks).toString('utf8');
  for (const line of body.split('\r\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.json_data) baselineChanges += o.json_data.length;
  }
});
let readerChanges = 0;
const tReader = best(() => {
  readerChanges = 0;
  const r = new FrameReader();
  for (const c of chunks) for (const f of r.push(c)) readerChanges += f.changes.length;
  for (const f of r.end()) readerChanges += f.changes.length;
});
if (readerChanges !== baselineChanges) throw new Error(`frame reader saw ${readerChanges} changes, baseline ${baselineChanges}`);
console.log(`egress frames: ${mb.toFixed(1)} MB, ${readerChanges} changes in ${CHUNK / 1024} KiB chunks`);
console.log(`  split + JSON.parse baseline   ${(mb / (tBase / 1000)).toFixed(1)} MB/s`);
console.log(`  FrameReader (streaming)       ${(mb / (tReader / 1000)).toFixed(1)} MB/s  = ${(tBase / tReader).toFixed(2)}x the baseline's speed`);

// ---- egress frames with big numbers (every change holds a BIGINT beyond 2^53: the exact path) ----
const bigText = text.replace(/"ID":(\d+)/g, (_m, d) => `"ID":${9007199254740993n + BigInt(d)}`);
const bigChunks = [];
const bigBytes = Buffer.from(bigText, 'utf8');
for (let i = 0; i < bigBytes.length; i += CHUNK) bigChunks.push(bigBytes.subarray(i, i + CHUNK));
const bigMb = bigBytes.length / 1e6;
const tBigBase = best(() => {
  const body = Buffer.concat(bigChunks).toString('utf8');
  for (const line of body.split('\r\n')) if (line) JSON.parse(line);
});
let lastId = '';
const tBig = best(() => {
  const r = new FrameReader();
  for (const c of bigChunks) for (const f of r.push(c)) if (f.changes.length) lastId = String(Object.values(f.changes.at(-1))[0].ID);
  r.end();
});
if (lastId !== String(9007199254740993n + BigInt(FRAMES * PER_FRAME - 1))) throw new Error(`the frame reader lost digits: last ID ${lastId}`);
console.log(`egress frames with a BIGINT beyond 2^53 in every row: ${bigMb.toFixed(1)} MB`);
console.log(`  split + JSON.parse baseline (rounds them)  ${(bigMb / (tBigBase / 1000)).toFixed(1)} MB/s`);
console.log(`  FrameReader (digit-exact)                  ${(bigMb / (tBig / 1000)).toFixed(1)} MB/s  = ${(tBigBase / tBig).toFixed(2)}x the baseline's speed`);

// ---- ingest input ----
let nd = '';
for (let i = 0; i < ROWS; i++) nd += JSON.stringify({ id: i, customer: `c${i % 100}`, amount: (i % 1000) / 4 }) + '\n';
const ndBytes = Buffer.from(nd, 'utf8');
const ndChunks = [];
for (let i = 0; i < ndBytes.length; i += 64 * 1024) ndChunks.push(ndBytes.subarray(i, i + 64 * 1024));
async function* source() {
  for (const c of ndChunks) yield c;
}
const tIngestBase = best(() => {
  let parts = [];
  for (const line of nd.split('\n')) {
    if (!line) continue;
    parts.push(JSON.stringify({ insert: JSON.parse(line) }));
    if (parts.length === 1000) parts = [];
  }
});
let sent = 0;
const tIngest = await bestAsync(async () => {
  sent = 0;
  for await (const b of batches(jsonEventGroups(source()), 1000)) sent += b.records;
});
if (sent !== ROWS) throw new Error(`ingest input produced ${sent} records, expected ${ROWS}`);
console.log(`ingest input: ${ROWS} NDJSON rows -> batches of 1000 changes`);
console.log(`  JSON.parse + stringify per line baseline  ${(((ROWS / tIngestBase) * 1000) / 1e3).toFixed(0)}k rows/s`);
console.log(`  jsonEventGroups + batches (streaming)     ${(((ROWS / tIngest) * 1000) / 1e3).toFixed(0)}k rows/s  = ${(tIngestBase / tIngest).toFixed(2)}x the baseline's speed`);
