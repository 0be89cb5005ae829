// The transaction bound (transaction-memory.ts) against what a pipeline can really apply: in a pipeline of
// 128 MiB, how many rows a transaction takes before it answers 413 TransactionTooLarge (and that its commit
// then succeeds), as a ratio against the baseline measured in the same run, the most rows that one step
// (one ingress request: the same step a commit is) applies in a fresh pipeline of the same size without
// running out of memory (found by bisection, to 5%). Below 1 means the bound is safe; the further below,
// the more it refuses that would have fit. A ratio above 1 (or a commit that fails) is a bound that lets
// a transaction fail its pipeline: the estimate in transaction-memory.ts must grow.
// Imports the built code (npm run bench builds it).
import { pipelineHost } from './pipeline-host.mjs';

const QUICK = !!process.env.BENCH_QUICK;
const MEMORY_MB = 128;
const REQUEST_ROWS = 25_000;
const SCHEMAS = [
  { name: 'one INTEGER', sql: 'CREATE TABLE t (x INTEGER);', row: (i) => `${i}\n` },
  {
    name: '4 columns, keyed, a grouped view',
    sql: `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER NOT NULL, amount DOUBLE, label VARCHAR);
CREATE MATERIALIZED VIEW v AS SELECT grp, COUNT(*) AS n, SUM(amount) AS total FROM t GROUP BY grp;`,
    row: (i) => `${i},${i % 100},${i / 4},item-${i}\n`,
  },
].slice(0, QUICK ? 1 : 2);

const host = () => pipelineHost('txnbound');

async function call(base, method, path, body, type = 'application/json') {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? {} : { 'content-type': type } });
  const text = await res.text();
  return { status: res.status, json: text === '' ? null : JSON.parse(text) };
}

async function until(fn) {
  while (!(await fn())) await new Promise((r) => setTimeout(r, 50));
}

let seq = 0;
/** A fresh running pipeline of MEMORY_MB for `schema`; answers its name. */
async function pipeline(base, schema) {
  const name = `p${++seq}`;
  await call(
    base,
    'PUT',
    `/v0/pipelines/${name}`,
    JSON.stringify({ name, description: '', runtime_config: { resources: { memory_mb_max: MEMORY_MB } }, program_config: {}, program_code: schema.sql }),
  );
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).json.program_status === 'Success');
  await call(base, 'POST', `/v0/pipelines/${name}/start`);
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).json.deployment_status === 'Running');
  return name;
}

async function remove(base, name) {
  await call(base, 'POST', `/v0/pipelines/${name}/shutdown`);
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).json.deployment_status === 'Shutdown');
  await call(base, 'DELETE', `/v0/pipelines/${name}`);
}

function body(schema, from, rows) {
  let s = '';
  for (let i = from; i < from + rows; i++) s += schema.row(i);
  return s;
}

/** Does one request of `rows` rows apply in a fresh pipeline (200), or run it out of memory? */
async function stepFits(base, schema, rows) {
  const name = await pipeline(base, schema);
  const r = await call(base, 'POST', `/v0/pipelines/${name}/ingress/t?format=csv`, body(schema, 0, rows), 'text/csv');
  if (r.status !== 200 && r.json?.error_code !== 'RuntimeError.OutOfMemory') throw new Error(`step of ${rows}: ${r.status} ${JSON.stringify(r.json)}`);
  await remove(base, name);
  return r.status === 200;
}

/** The most rows one step applies, to 5%. */
async function mostRowsOfAStep(base, schema) {
  let lo = REQUEST_ROWS;
  let hi = lo;
  while (await stepFits(base, schema, hi)) [lo, hi] = [hi, hi * 2];
  while (hi - lo > lo * 0.05) {
    const mid = Math.round((lo + hi) / 2);
    if (await stepFits(base, schema, mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Rows a transaction takes before its 413; throws if its commit then fails. */
async function rowsATransactionTakes(base, schema) {
  const name = await pipeline(base, schema);
  await call(base, 'POST', `/v0/pipelines/${name}/start_transaction`);
  let held = 0;
  for (;;) {
    const r = await call(base, 'POST', `/v0/pipelines/${name}/ingress/t?format=csv`, body(schema, held, REQUEST_ROWS), 'text/csv');
    if (r.status === 413 && r.json.error_code === 'TransactionTooLarge') break;
    if (r.status !== 200) throw new Error(`transaction request: ${r.status} ${JSON.stringify(r.json)}`);
    held += REQUEST_ROWS;
  }
  const t0 = performance.now();
  const c = await call(base, 'POST', `/v0/pipelines/${name}/commit_transaction`);
  const ms = performance.now() - t0;
  if (c.status !== 200) throw new Error(`the commit of ${held} rows failed: ${c.status} ${JSON.stringify(c.json)}`);
  await remove(base, name);
  return { held, ms };
}

const h = await host();
try {
  console.log(`pipelines of ${MEMORY_MB} MiB, requests of ${REQUEST_ROWS} CSV rows:`);
  for (const schema of SCHEMAS) {
    const most = await mostRowsOfAStep(h.base, schema);
    const { held, ms } = await rowsATransactionTakes(h.base, schema);
    console.log(`  ${schema.name}:`);
    console.log(`    most rows one step applies (baseline): ${most}`);
    console.log(`    rows a transaction takes before 413:   ${held} = ${(held / most).toFixed(2)}x the baseline (its commit succeeded, ${Math.round(ms)} ms)`);
  }
} finally {
  await h.close();
}
