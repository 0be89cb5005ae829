// Bookmark service throughput and latency, with 100k links in the store (BENCH_QUICK: 5k), against a bare
// node:http server answering a prebuilt 25-link JSON page (the ceiling), measured in the same run.
// Each server runs in its own child process; the load comes from this process (undici, keep-alive).
//   1. GET /api/v2/links (25 per page) at 32 connections: requests/s, target >= 0.5x the ceiling
//   2. p50 latency of a link search over the whole store (one connection), target <= 20 ms
//   3. creates/s of POST /api/v2/links with metadata off at 32 connections, target >= 2,000/s
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const QUICK = !!process.env.BENCH_QUICK;
const N = QUICK ? 5_000 : 100_000;
const CONNECTIONS = 32;
const DURATION_MS = QUICK ? 1_000 : 3_000;
const dist = new URL('../../dist/services/', import.meta.url);

// ---------------------------------------------------------------- child: a server
if (process.argv[2] === 'serve') {
  const kind = process.argv[3];
  const { createServer } = await import('node:http');
  if (kind === 'ceiling') {
    const page = Buffer.from(process.argv[4]);
    const server = createServer((req, res) => {
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length }).end(page));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length }).end(page);
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  } else {
    const dataDir = process.argv[4];
    const { default: Fastify } = await import('fastify');
    const { EventBus } = await import(new URL('events.js', dist).href);
    const { default: bookmarks } = await import(new URL('bookmarks/index.js', dist).href);
    const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
    const options = { host: '127.0.0.1', port: 0, dataDir, apiRateLimit: '1000000000', fetchMetadata: false, linkCheck: false };
    let handle;
    await app.register(
      async (scope) => {
        handle = await bookmarks.register(scope, { dataDir: join(dataDir, 'bookmarks'), options, log: app.log, events: new EventBus(), baseUrl: () => '' });
      },
      { prefix: bookmarks.prefix },
    );
    app.server.keepAliveTimeout = 60_000;
    await app.listen({ host: '127.0.0.1', port: 0 });
    await handle.started?.();
    process.send({ port: app.server.address().port });
  }
  process.on('message', (m) => m === 'stop' && process.exit(0));
} else {
  await main();
}

function startChild(args) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['serve', ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, url: `http://127.0.0.1:${m.port}` }));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

async function stopChild(c) {
  c.child.removeAllListeners('exit');
  c.child.send('stop');
  await new Promise((r) => c.child.once('exit', r));
}

async function load(url, { method = 'GET', path, headers, body, connections = CONNECTIONS, durationMs = DURATION_MS }) {
  const { Pool } = await import('undici');
  const pool = new Pool(url, { connections, pipelining: 1 });
  let done = 0;
  let errors = 0;
  const latencies = [];
  const until = performance.now() + durationMs;
  let seq = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const n = seq++;
      const res = await pool.request({ method, path: typeof path === 'function' ? path(n) : path, headers, body: typeof body === 'function' ? body(n) : body });
      await res.body.dump();
      if (res.statusCode >= 400) errors++;
      latencies.push(performance.now() - t0);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const secs = (performance.now() - t0) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rps: done / secs, errors, p50: latencies[Math.floor(latencies.length / 2)] ?? NaN, n: done };
}

async function seed(dataDir) {
  const { openDb } = await import(new URL('bookmarks/store/db.js', dist).href);
  const { insertUser, createToken } = await import(new URL('bookmarks/store/users.js', dist).href);
  const { insertLink, attach } = await import(new URL('bookmarks/store/links.js', dist).href);
  const { insertCollection } = await import(new URL('bookmarks/store/collections.js', dist).href);
  const dir = join(dataDir, 'bookmarks');
  mkdirSync(dir, { recursive: true });
  const db = openDb(dir);
  const user = insertUser(db, 'bench', 'bench@example.com');
  const other = insertUser(db, 'other', 'other@example.com');
  const { token } = createToken(db, { userId: user.id, name: 'bench' });
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november'];
  db.transaction(() => {
    const tags = Array.from({ length: 50 }, (_, i) => insertCollection(db, 'tags', { user_id: user.id, name: `tag${i}`, visibility: 2 }));
    for (let i = 0; i < N; i++) {
      const w = words[i % words.length];
      const owner = i % 10 === 0 ? other.id : user.id;
      const link = insertLink(db, {
        user_id: owner,
        url: `https://${w}${i % 997}.example.com/articles/${i}/${words[(i * 7) % words.length]}`,
        title: `${w} ${words[(i * 3) % words.length]} article number ${i}`,
        description: i % 3 === 0 ? null : `A description of item ${i} about ${words[(i * 5) % words.length]}`,
        icon: 'link',
        visibility: (i % 3) + 1,
      });
      if (owner === user.id && i % 4 === 0) attach(db, 'tags', link.id, [tags[i % 50].id], 'replace');
    }
  })();
  db.close();
  return token;
}

async function main() {
  console.log(`${N.toLocaleString('en-US')} links in the store, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per measurement`);
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-bm-bench-'));
  const t0 = performance.now();
  const token = await seed(dataDir);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };

  const svc = await startChild(['bookmarks', dataDir]);
  // the ceiling answers exactly the page the service answers
  const pageRes = await fetch(`${svc.url}/api/v2/links?per_page=25`, { headers: auth });
  const page = await pageRes.text();
  if (pageRes.status !== 200) throw new Error(`GET /api/v2/links answered ${pageRes.status}: ${page}`);
  const ceil = await startChild(['ceiling', page]);
  const results = [];
  try {
    // warm both
    await load(ceil.url, { path: '/', durationMs: 300 });
    await load(svc.url, { path: '/api/v2/links?per_page=25', headers: auth, durationMs: 300 });

    // 1. list throughput: rounds of ceiling then service, back to back so both see the same machine noise;
    //    the figure is the median of the per-round ratios
    const rounds = QUICK ? 2 : 4;
    const ratios = [];
    const ceilings = [];
    const lists = [];
    for (let r = 0; r < rounds; r++) {
      const c = await load(ceil.url, { path: '/' });
      const sv = await load(svc.url, { path: '/api/v2/links?per_page=25', headers: auth });
      if (sv.errors) throw new Error('GET /api/v2/links answered errors');
      ceilings.push(c.rps);
      lists.push(sv.rps);
      ratios.push(sv.rps / c.rps);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const listRatio = median(ratios);
    const listRps = median(lists);
    const ceilingRps = median(ceilings);
    results.push([
      'GET /api/v2/links (25/page)',
      `${Math.round(listRps).toLocaleString('en-US')} req/s`,
      `${listRatio.toFixed(2)}x the ceiling (${Math.round(ceilingRps).toLocaleString('en-US')} req/s; median of ${rounds} rounds, ratios ${ratios.map((x) => x.toFixed(2)).join(' ')})`,
      listRatio >= 0.5,
      'target >= 0.5x',
    ]);

    // 2. search latency over the whole store, one request at a time
    const terms = ['alpha1', 'november', 'articles/4242/', 'echo99', 'nothing-matches-this', 'golf 12', 'kilo', 'lima7'];
    // the first search loads the in-memory search index (once per process): not part of the latency
    const t0 = performance.now();
    await fetch(`${svc.url}/api/v2/search/links?query=warm`, { headers: auth }).then((r) => r.text());
    console.log(`first search (loads the search index): ${(performance.now() - t0).toFixed(0)} ms`);
    const base = await load(ceil.url, { path: '/', connections: 1, durationMs: QUICK ? 500 : 2_000 });
    const search = await load(svc.url, {
      path: (n) => `/api/v2/search/links?query=${encodeURIComponent(terms[n % terms.length])}&search_title=1&per_page=25`,
      headers: auth,
      connections: 1,
      durationMs: QUICK ? 1_000 : 4_000,
    });
    if (search.errors) throw new Error('search answered errors');
    results.push([
      'search over all links, p50',
      `${search.p50.toFixed(2)} ms`,
      `${(search.p50 / base.p50).toFixed(1)}x a bare round trip (${base.p50.toFixed(3)} ms)`,
      search.p50 <= 20,
      'target <= 20 ms',
    ]);

    // 3. creates (metadata off)
    const cp = await load(ceil.url, { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{"url":"https://x.example"}' });
    const run = Date.now();
    const cr = await load(svc.url, {
      method: 'POST',
      path: '/api/v2/links',
      headers: { ...auth, 'content-type': 'application/json' },
      body: (n) => JSON.stringify({ url: `https://new${run}.example.org/item/${n}`, title: `new ${n}`, description: 'bench', visibility: 2 }),
    });
    if (cr.errors) throw new Error(`${cr.errors} creates failed`);
    results.push([
      'creates (metadata off)',
      `${Math.round(cr.rps).toLocaleString('en-US')} /s`,
      `${(cr.rps / cp.rps).toFixed(2)}x the ceiling's POST (${Math.round(cp.rps).toLocaleString('en-US')} req/s)`,
      cr.rps >= 2000,
      'target >= 2,000/s',
    ]);
  } finally {
    await stopChild(ceil);
    await stopChild(svc);
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const [name, figure, ratio, met, target] of results) console.log(`${name.padEnd(30)} ${figure.padStart(14)}  ${ratio}  (${target}: ${met ? 'met' : 'NOT met'})`);
}
