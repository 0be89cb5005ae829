// Webhooks, measured in one run against baselines from the same run:
// 1. verified requests/s of `ops hook serve` (signature check, durable de-duplication, NDJSON line)
//    against a bare node:http server that only reads the body and answers 200 (target >= 0.6x);
// 2. deliveries/s from the notification service (outbox in SQLite, worker, signed POSTs) to a local
//    receiver (target >= 1,000/s), also shown against plain signed POSTs from this process to the same
//    receiver with the same concurrency.
// Both servers run as separate node processes; the load comes from this process with undici.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { Pool } from 'undici';

const quick = Boolean(process.env.BENCH_QUICK);
const bin = fileURLToPath(new URL('../../bin/ops', import.meta.url));
const dist = (p) => new URL(`../../dist/${p}`, import.meta.url).href;
const SECRET = 'bench-secret';
const children = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

/**
 * Start `ops hook serve` with its stdout (the ready line, then one NDJSON line per event) going to
 * a file, as in `ops hook serve --json > events.ndjson`, and wait for the ready line there. The
 * load generator then does not also have to read the server's output.
 */
async function startToFile(args, env, file) {
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, args, { stdio: ['pipe', fd, 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  for (let i = 0; i < 600; i++) {
    const first = readFileSync(file, 'utf8').split('\n')[0];
    if (first) return { child, url: JSON.parse(first).url };
    if (child.exitCode !== null) throw new Error(`process exited early: ${args.join(' ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no ready line in 30 s');
}

/** Start a node process and wait for the first stdout line that parses as JSON with a url. */
function startProcess(args, env = {}) {
  // stdin is a pipe that closes when this process dies, however it dies: the bare server exits then
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      try {
        const v = JSON.parse(line);
        if (v.url) {
          rl.removeAllListeners('line');
          child.stdout.resume(); // keep draining (events are printed per request)
          rl.close();
          resolve({ child, url: v.url });
        }
      } catch {
        /* not yet */
      }
    });
    child.once('exit', (code) => reject(new Error(`process exited early (${code}): ${args.join(' ')}`)));
  });
}

const BARE = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => { Buffer.concat(chunks); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"received":true}'); });
});
s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: 'http://127.0.0.1:' + s.address().port + '/' })));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

function makeBodies(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const body = Buffer.from(
      JSON.stringify({
        id: `evt_${randomBytes(12).toString('hex')}`,
        type: 'payment.completed',
        timestamp: new Date().toISOString(),
        data: { id: `pay_${i}`, amount: 4200 + i, currency: 'EUR', orderId: `ord_${i}`, customerId: `cus_${i % 97}`, status: 'completed' },
      }),
    );
    out.push({ body, sig: createHmac('sha256', SECRET).update(body).digest('hex') });
  }
  return out;
}

/** Send all bodies with `concurrency` requests in flight; returns requests/s. Every answer must be 200. */
async function load(url, bodies, concurrency) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: concurrency, pipelining: 1 });
  let next = 0;
  let bad = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const { body, sig } = bodies[next++];
        const res = await pool.request({ path: u.pathname, method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signature': sig } });
        await res.body.dump();
        if (res.statusCode !== 200) bad++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  await pool.close();
  if (bad) throw new Error(`${bad} requests were not answered 200`);
  return bodies.length / secs;
}

async function receiverBench() {
  const n = quick ? 2_000 : 20_000;
  const concurrency = 16;
  const state = mkdtempSync(join(tmpdir(), 'ops-bench-hook-'));
  const bare = await startProcess(['-e', BARE]);
  const hook = await startToFile(
    [bin, 'hook', 'serve', '--port', '0', '--json', '--store', join(state, 'events.ndjson')],
    { OPS_HOOK_SECRET: SECRET, OPS_CONFIG_DIR: join(state, 'config') },
    join(state, 'stdout.ndjson'),
  );
  // warm up both (JIT, connections, SQLite pages)
  await load(bare.url, makeBodies(500), concurrency);
  await load(hook.url, makeBodies(500), concurrency);
  const best = { bare: 0, hook: 0 };
  const rounds = quick ? 1 : 3;
  for (let r = 0; r < rounds; r++) {
    best.bare = Math.max(best.bare, await load(bare.url, makeBodies(n), concurrency));
    best.hook = Math.max(best.hook, await load(hook.url, makeBodies(n), concurrency));
  }
  const ratio = best.hook / best.bare;
  const printed = readFileSync(join(state, 'stdout.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"event":"received"')).length;
  console.log(`receiver: ${n} signed requests x ${rounds} round(s), ${concurrency} in flight, best round (${printed} events printed by ops hook serve)`);
  console.log(`  bare node:http (read body, 200)   ${Math.round(best.bare).toString().padStart(7)} req/s  1.00x`);
  console.log(`  ops hook serve (verified, stored) ${Math.round(best.hook).toString().padStart(7)} req/s  ${ratio.toFixed(2)}x bare  (target >= 0.6x: ${ratio >= 0.6 ? 'met' : 'NOT met'})`);
  bare.child.kill();
  hook.child.kill();
}

async function deliveryBench() {
  const n = quick ? 2_000 : 20_000;
  const { EventBus } = await import(dist('services/events.js'));
  const service = (await import(dist('services/notifications/index.js'))).default;
  const receiver = await startProcess(['-e', BARE]);

  // baseline: signed POSTs straight from this process, same concurrency as one receiver lane (16)
  const baseline = await load(receiver.url, makeBodies(quick ? 1_000 : 5_000), 16);

  const dataDir = mkdtempSync(join(tmpdir(), 'ops-bench-notify-'));
  mkdirSync(join(dataDir, 'notifications'));
  const app = Fastify({ logger: false });
  const events = new EventBus();
  let handle;
  await app.register(
    async (scope) => {
      handle = await service.register(scope, {
        dataDir: join(dataDir, 'notifications'),
        options: { host: '127.0.0.1', port: 0, dataDir, retryScale: 1 },
        log: app.log,
        events,
        baseUrl: () => '',
      });
    },
    { prefix: '/notify' },
  );
  await app.ready();
  const key = (await handle.localCredentials()).notifyApiKey;
  const reg = await app.inject({ method: 'POST', url: '/notify/v1/webhooks', headers: { authorization: `Bearer ${key}` }, payload: { url: receiver.url, events: ['*'], secret: SECRET } });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  await handle.started();

  // Completion is polled through the API, filtered to pending deliveries and not too often, so that
  // the polling itself (the counts scan the outbox) costs the worker as little as possible.
  const delivered = () => app.inject({ method: 'GET', url: '/notify/v1/deliveries?status=pending&limit=1', headers: { authorization: `Bearer ${key}` } }).then((r) => r.json().counts);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    events.emit({ type: 'payment.completed', data: { id: `pay_${i}`, amount: i, orderId: `ord_${i}`, customerId: 'cus_1' } });
    if (i % 500 === 499) await new Promise((r) => setImmediate(r)); // let the worker run while events arrive
  }
  let counts;
  for (;;) {
    counts = await delivered();
    if (counts.delivered + counts.failed >= n) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const secs = (performance.now() - t0) / 1000;
  if (counts.failed) throw new Error(`${counts.failed} deliveries failed`);
  const rate = n / secs;
  console.log(`notification service: ${n} events published on the bus, each delivered (outbox, worker, signed POST)`);
  console.log(`  plain signed POSTs, 16 in flight  ${Math.round(baseline).toString().padStart(7)} req/s  1.00x`);
  console.log(`  deliveries (end to end)           ${Math.round(rate).toString().padStart(7)} /s     ${(rate / baseline).toFixed(2)}x plain  (target >= 1,000/s: ${rate >= 1000 ? 'met' : 'NOT met'})`);
  await app.close();
  await handle.close();
  receiver.child.kill();
}

// BENCH_PART=receiver or delivery runs only that part.
const part = process.env.BENCH_PART;
if (!part || part === 'receiver') await receiverBench();
if (!part || part === 'delivery') await deliveryBench();
process.exit(0);
