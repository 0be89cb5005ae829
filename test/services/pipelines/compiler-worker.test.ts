/**
 * The SQL compiler in its worker thread: a program that breaks the WASM parser does not break the next
 * one, a compile over the time limit is a SqlError naming the limit, and compiling 2,000 chained views
 * leaves the event loop free (/health answers while it runs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import { CompilerPool } from '../../../src/services/pipelines/control/compiler-pool.js';
import { createCompiled, ingest, pipelineBody, snapshot, startRunning, startSvc, waitFor, type Svc } from './helpers.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let svc: Svc | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await svc?.close();
  await server?.close();
  svc = undefined;
  server = undefined;
});

async function compiled(s: Svc, name: string, sql: string): Promise<any> {
  const put = await s.call('PUT', `/v0/pipelines/${name}`, pipelineBody(name, sql));
  expect([200, 201]).toContain(put.status);
  return waitFor(
    async () => {
      const r = await s.call('GET', `/v0/pipelines/${name}`);
      const st = r.json.program_status;
      return st === 'Pending' || st === 'CompilingSql' || st === 'CompilingRust' ? undefined : r.json;
    },
    `compilation of ${name}`,
    60_000,
  );
}

function chainedViews(n: number): string {
  const parts = ['CREATE TABLE t (x INT);', 'CREATE VIEW v0 AS SELECT x FROM t;'];
  for (let i = 1; i < n; i++) parts.push(`CREATE VIEW v${i} AS SELECT x + 1 AS x FROM v${i - 1};`);
  return parts.join('\n');
}

const deepSum = (terms: number) => `CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT ${Array.from({ length: terms }, () => 'x').join('+')} AS s FROM t;`;

describe('the compiler worker', () => {
  it('a program that breaks the parser is a SqlError with a position, and the next program compiles and runs', async () => {
    svc = await startSvc();
    const bad = await compiled(svc, 'deep', deepSum(800));
    if (bad.program_status !== 'Success') {
      // the parser cannot take it: a clean SQL error with line and column, nothing worse
      const errs = bad.program_status.SqlError;
      expect(errs, JSON.stringify(bad.program_status)).toBeDefined();
      expect(errs[0].start_line_number).toBe(2);
      expect(errs[0].start_column).toBeGreaterThan(1);
      expect(errs[0].message).toMatch(/nested too deeply/);
    }
    await createCompiled(svc, 'fine', 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x * 2 AS y FROM t;');
    await startRunning(svc, 'fine');
    expect((await ingest(svc, 'fine', 't', 'format=csv', '1\n2\n')).status).toBe(200);
    const snap = await snapshot(svc, 'fine', 'v');
    expect(snap.json_data.map((r: any) => r.insert.Y).sort()).toEqual([2, 4]);
    // and a syntax error still points at its line and column
    const syntax = await compiled(svc, 'syntax', 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELEC x FROM t;');
    expect(syntax.program_status.SqlError[0]).toMatchObject({ start_line_number: 2, error_type: 'Error parsing SQL' });
  });

  it('a broken parser is replaced by a fresh worker', async () => {
    const pool = new CompilerPool({ timeoutMs: 60_000, memoryMb: 512 });
    try {
      const first = await pool.compile(deepSum(1000), 'upper');
      const started = pool.workersStarted;
      const next = await pool.compile('CREATE TABLE t (x INT); CREATE VIEW v AS SELECT x FROM t;', 'upper');
      expect(next).toMatchObject({ ok: true });
      // only a failure that left the parser broken costs a new worker
      expect(started).toBe(1);
      expect(pool.workersStarted).toBe(first.ok ? 1 : 2);
      await pool.compile('CREATE TABLE u (y INT);', 'upper');
      expect(pool.workersStarted).toBe(first.ok ? 1 : 2);
    } finally {
      await pool.close();
    }
  });

  it('a program over the heap limit is a SqlError naming it; the next program gets a fresh worker', async () => {
    const pool = new CompilerPool({ timeoutMs: 120_000, memoryMb: 16 });
    try {
      const cols = Array.from({ length: 200 }, (_, i) => `x + ${i} AS c${i}`).join(', ');
      const big = ['CREATE TABLE t (x INT);', ...Array.from({ length: 300 }, (_, i) => `CREATE VIEW v${i} AS SELECT ${cols} FROM t;`)].join('\n');
      const out = await pool.compile(big, 'upper');
      expect(out).toMatchObject({ ok: false, messages: [{ message: expect.stringMatching(/memory limit of 16 MB/) }] });
      expect(await pool.compile('CREATE TABLE t (x INT);', 'upper')).toMatchObject({ ok: true });
      expect(pool.workersStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('a compile whose result is no longer wanted is ended when the next program comes', async () => {
    const pool = new CompilerPool({ timeoutMs: 300_000, memoryMb: 512 });
    try {
      let stale = false;
      // long enough to be still compiling whatever the machine (2,000 views take ~1 s since compiling is linear)
      const first = pool.compile(chainedViews(8000), 'upper', () => stale);
      await waitFor(() => pool.compiling, 'the worker up and compiling');
      stale = true;
      const second = await pool.compile('CREATE TABLE t (x INT);', 'upper');
      expect(await first).toEqual({ ok: false, systemError: 'The compilation was cancelled' });
      expect(second).toMatchObject({ ok: true });
      expect(pool.workersStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('a compiler shared by servers (a test knob) compiles for each, is not closed with one, and drops its cancelled jobs', async () => {
    const pool = new CompilerPool({ timeoutMs: 60_000, memoryMb: 512 });
    const a = await startSvc({ pipelinesCompiler: pool });
    const b = await startSvc({ pipelinesCompiler: pool });
    try {
      await createCompiled(a, 'first', 'CREATE TABLE t (x INT);');
      // a compile still running when its server closes: cancelled with the server, its result dropped
      const put = await a.call('PUT', '/v0/pipelines/long', pipelineBody('long', chainedViews(8000)));
      expect(put.status).toBe(201);
      await waitFor(() => pool.compiling, 'the long compile under way');
      await a.close();
      // the other server's programs compile on the same worker's successor (the cancelled job ended it)
      await createCompiled(b, 'second', 'CREATE TABLE u (y INT);\nCREATE VIEW v AS SELECT y FROM u;');
      expect(pool.workersStarted).toBe(2);
      await createCompiled(b, 'third', 'CREATE TABLE w (z INT);');
      expect(pool.workersStarted).toBe(2);
    } finally {
      await b.close();
      await pool.close();
    }
  });

  it('a compile over the time limit is a SqlError naming the limit; the next program compiles', async () => {
    // The limit sits far from both programs: a one-table program compiles in milliseconds (a 40 ms limit was
    // exceeded by it on a loaded 2-core machine), 12,000 chained views take seconds even on a fast one
    // (compiling is linear: 2,000 take ~1 s). The compile is ended at the limit, so it costs no more.
    svc = await startSvc({ pipelinesCompileTimeoutMs: 1000 });
    const slow = await compiled(svc, 'slow', chainedViews(12_000));
    const errs = slow.program_status.SqlError;
    expect(errs, JSON.stringify(slow.program_status).slice(0, 300)).toHaveLength(1);
    expect(errs[0].message).toMatch(/time limit of 1 s/);
    const ok = await compiled(svc, 'quick', 'CREATE TABLE t (x INT);');
    expect(ok.program_status).toBe('Success');
  });

  it('compiling 2,000 chained views leaves /health answering', async () => {
    server = await startServer({ host: '127.0.0.1', port: 0, dataDir: mkdtempSync(join(tmpdir(), 'ops-compile-')) });
    const url = server.url;
    // the compiler's process started and warm first (under vitest its first start also builds the JS copy of
    // src/ it runs from, in this process: services/workers/js-sources.ts), so that what is measured is a compile
    await fetch(`${url}/v0/pipelines/warm`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pipelineBody('warm', 'CREATE TABLE t (x INT);')) });
    await waitFor(async () => ((await (await fetch(`${url}/v0/pipelines/warm`)).json()) as any).program_status === 'Success', 'the warm-up program compiled', 120_000);
    // What the test stands for: the compile runs off the server's event loop. So /health answers arrive while
    // the program is still compiling (were the compile on the event loop, a /health call would wait behind the
    // whole compile and find it finished), and the loop never stalls for a good part of the compile (as it
    // would for a synchronous parse or compile, even one done while the PUT is answered). The server runs in
    // this process, so a stall delays the poller too, wherever it falls: the gaps between /health answers
    // show it. The longest gap is bounded by a third of the compile's own duration, which a loaded machine
    // stretches as much, not by a fixed figure (250 ms was exceeded with 355 ms on a loaded 2-core machine).
    // Here: compile ~2.9 s, longest gap 170-260 ms; with a synchronous compile added in the PUT, 2.7 s of 5 s.
    const POLL_MS = 50;
    const gaps: number[] = [];
    let answeredWhileCompiling = 0;
    let status: any = 'Pending';
    let putDone = false;
    const compileStarted = performance.now();
    let lastAnswer = compileStarted;
    const poller = (async () => {
      const until = Date.now() + 280_000;
      while (Date.now() < until) {
        const h = await fetch(`${url}/health`);
        expect(h.status).toBe(200);
        await h.text();
        gaps.push(performance.now() - lastAnswer);
        lastAnswer = performance.now();
        if (!putDone) {
          await new Promise((r) => setTimeout(r, POLL_MS));
          continue;
        }
        status = ((await (await fetch(`${url}/v0/pipelines/chain`)).json()) as any).program_status;
        if (status !== 'Pending' && status !== 'CompilingSql' && status !== 'CompilingRust') return;
        if (status !== 'Pending') answeredWhileCompiling++; // this /health answer came before the compile ended
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    })();
    const put = await fetch(`${url}/v0/pipelines/chain`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pipelineBody('chain', chainedViews(2000))),
    });
    putDone = true;
    expect([200, 201]).toContain(put.status);
    await poller;
    const compileMs = performance.now() - compileStarted;
    console.log(`compile of 2,000 views: ${compileMs.toFixed(0)} ms, ${answeredWhileCompiling} /health answers during it, longest gap between answers ${Math.max(...gaps).toFixed(0)} ms`);
    expect(status).toBe('Success');
    expect(answeredWhileCompiling).toBeGreaterThan(3);
    expect(Math.max(...gaps)).toBeLessThan(compileMs / 3);
  }, 300_000);
});
