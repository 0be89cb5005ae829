// Transactions (/start_transaction, /commit_transaction): the same CSV requests ingested into a keyed table
// with a grouped view, once as a step each (the baseline) and once held in one transaction and committed as
// one step. Reports the whole time of each as a ratio against the baseline, where the transaction's time
// goes (the requests, which are checked and held, and the commit's one step), and the pipeline worker's
// memory (stats' rss_bytes) with everything held, and after the commit, against the baseline's after the
// same input.
// Imports the built code (npm run bench builds it).
import { pipelineHost } from './pipeline-host.mjs';

const QUICK = !!process.env.BENCH_QUICK;
const REQUESTS = 20;
const ROWS_PER_REQUEST = QUICK ? 2_000 : 20_000;
const ROUNDS = QUICK ? 1 : 3;
const SQL = `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER NOT NULL, amount DOUBLE, label VARCHAR);
CREATE MATERIALIZED VIEW v AS SELECT grp, COUNT(*) AS n, SUM(amount) AS total FROM t GROUP BY grp;`;

const host = () => pipelineHost('txn');

async function call(base, method, path, body, type = 'application/json') {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? {} : { 'content-type': type } });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

async function until(fn) {
  while (!(await fn())) await new Promise((r) => setTimeout(r, 50));
}

const bodies = Array.from({ length: REQUESTS }, (_, k) => {
  let s = '';
  for (let i = 0; i < ROWS_PER_REQUEST; i++) {
    const id = k * ROWS_PER_REQUEST + i;
    s += `${id},${id % 100},${id / 4},item-${id}\n`;
  }
  return s;
});

async function run(base, name, transaction) {
  await call(base, 'PUT', `/v0/pipelines/${name}`, JSON.stringify({ name, description: '', runtime_config: {}, program_config: {}, program_code: SQL }));
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).program_status === 'Success');
  await call(base, 'POST', `/v0/pipelines/${name}/start`);
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).deployment_status === 'Running');
  const t0 = performance.now();
  if (transaction) await call(base, 'POST', `/v0/pipelines/${name}/start_transaction`);
  for (const b of bodies) await call(base, 'POST', `/v0/pipelines/${name}/ingress/t?format=csv`, b, 'text/csv');
  const t1 = performance.now();
  const held = (await call(base, 'GET', `/v0/pipelines/${name}/stats`)).global_metrics;
  if (transaction) await call(base, 'POST', `/v0/pipelines/${name}/commit_transaction`);
  const t2 = performance.now();
  const g = (await call(base, 'GET', `/v0/pipelines/${name}/stats`)).global_metrics;
  if (g.total_processed_records !== REQUESTS * ROWS_PER_REQUEST) throw new Error(`${name}: processed ${g.total_processed_records}`);
  if (g.total_completed_steps !== (transaction ? 1 : REQUESTS)) throw new Error(`${name}: ${g.total_completed_steps} steps`);
  await call(base, 'POST', `/v0/pipelines/${name}/shutdown`);
  await until(async () => (await call(base, 'GET', `/v0/pipelines/${name}`)).deployment_status === 'Shutdown');
  await call(base, 'DELETE', `/v0/pipelines/${name}`);
  return { requestsMs: t1 - t0, commitMs: t2 - t1, totalMs: t2 - t0, rssAtEndOfInput: held.rss_bytes, rssAfter: g.rss_bytes };
}

const h = await host();
const best = (xs, k) => Math.min(...xs.map((x) => x[k]));
try {
  const steps = [];
  const txns = [];
  for (let r = 0; r < ROUNDS; r++) {
    steps.push(await run(h.base, `steps${r}`, false));
    txns.push(await run(h.base, `txn${r}`, true));
  }
  const rows = REQUESTS * ROWS_PER_REQUEST;
  const base = best(steps, 'totalMs');
  const total = best(txns, 'totalMs');
  console.log(`${REQUESTS} CSV requests of ${ROWS_PER_REQUEST} rows (${rows} rows), best of ${ROUNDS}:`);
  console.log(`  a step per request (baseline): ${base.toFixed(0)} ms (${((rows / base) * 1000).toFixed(0)} rows/s)`);
  console.log(`  one transaction:               ${total.toFixed(0)} ms = ${(total / base).toFixed(2)}x the baseline's time`);
  console.log(`    requests checked and held:   ${best(txns, 'requestsMs').toFixed(0)} ms; commit (one step): ${best(txns, 'commitMs').toFixed(0)} ms`);
  const rssSteps = best(steps, 'rssAtEndOfInput');
  const rssTxn = best(txns, 'rssAtEndOfInput');
  console.log(`  worker memory at the end of the input: ${(rssTxn / 2 ** 20).toFixed(0)} MiB held vs ${(rssSteps / 2 ** 20).toFixed(0)} MiB applied = ${(rssTxn / rssSteps).toFixed(2)}x`);
  const afterSteps = best(steps, 'rssAfter');
  const afterTxn = best(txns, 'rssAfter');
  console.log(`  after the commit: ${(afterTxn / 2 ** 20).toFixed(0)} MiB vs ${(afterSteps / 2 ** 20).toFixed(0)} MiB = ${(afterTxn / afterSteps).toFixed(2)}x`);
} finally {
  await h.close();
}
