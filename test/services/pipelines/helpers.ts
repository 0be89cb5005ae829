/** Helpers for the pipeline service tests: a real loopback server, JSON calls, polling and watch readers. */
import { expect } from 'vitest';
import service from '../../../src/services/pipelines/index.js';
import { CompilerPool, DEFAULT_COMPILE_MEMORY_MB, DEFAULT_COMPILE_TIMEOUT_MS } from '../../../src/services/pipelines/control/compiler-pool.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import type { ServeOptions } from '../../../src/services/types.js';

export interface Svc {
  sa: ServiceApp;
  base: string;
  headers: Record<string, string>;
  call(method: string, path: string, body?: unknown, extra?: { headers?: Record<string, string>; raw?: string }): Promise<Res>;
  close(): Promise<void>;
}

export interface Res {
  status: number;
  text: string;
  json: any;
  headers: Headers;
}

let compiler: CompilerPool | undefined;

/**
 * The SQL compiler (a process of its own) shared by the servers this test process starts with the default
 * compile limits (ServeOptions pipelinesCompiler): a server per test otherwise starts a compiler process per
 * test (~0.3 s of CPU each). undefined where the options set compile limits: that server gets its own.
 */
export function sharedCompiler(options: Record<string, unknown>): CompilerPool | undefined {
  if (options.pipelinesCompileTimeoutMs !== undefined || options.pipelinesCompileMemoryMb !== undefined) return undefined;
  return (compiler ??= new CompilerPool({ timeoutMs: DEFAULT_COMPILE_TIMEOUT_MS, memoryMb: DEFAULT_COMPILE_MEMORY_MB }));
}

export async function startSvc(options: Partial<ServeOptions> = {}, shared: { dataDir?: string } = {}): Promise<Svc> {
  const sa = await buildServiceApp(service, { pipelinesKeepAliveMs: 300, pipelinesCompiler: sharedCompiler(options), ...options }, shared);
  const base = await sa.listen();
  const svc: Svc = {
    sa,
    base,
    headers: {},
    async call(method, path, body, extra = {}) {
      const headers: Record<string, string> = { ...svc.headers, ...(extra.headers ?? {}) };
      let payload: string | undefined;
      if (extra.raw !== undefined) payload = extra.raw;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(base + path, { method, headers, body: payload });
      const text = await res.text();
      let json: any;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json, headers: res.headers };
    },
    close: () => sa.close(),
  };
  return svc;
}

/** The first pause between polls of waitFor, its growth and its ceiling. */
const POLL_FIRST_MS = 5;
const POLL_GROWTH = 1.5;
const POLL_MAX_MS = 100;

/**
 * Polls `fn` until it answers something truthy. The pause between polls starts short and grows: most
 * conditions hold within a few polls, and a long wait (a compile, a pipeline's start on a loaded machine)
 * polls ~10 times a second rather than 40 (a poll is an HTTP request answered by the server in this
 * process: ~1 ms of CPU that the suite, CPU-bound on 2 cores, pays for every test).
 */
export async function waitFor<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let pause = POLL_FIRST_MS;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(POLL_MAX_MS, pause * POLL_GROWTH);
  }
}

export function pipelineBody(name: string, sql: string, extra: Record<string, unknown> = {}) {
  return { name, description: `test ${name}`, runtime_config: { workers: 4 }, program_config: {}, program_code: sql, ...extra };
}

/** PUT the pipeline, wait for Success (fails the test with the SQL errors otherwise). */
export async function createCompiled(svc: Svc, name: string, sql: string, extra: Record<string, unknown> = {}): Promise<any> {
  const put = await svc.call('PUT', `/v0/pipelines/${name}`, pipelineBody(name, sql, extra));
  expect([200, 201]).toContain(put.status);
  const p = await waitFor(async () => {
    const r = await svc.call('GET', `/v0/pipelines/${name}`);
    const s = r.json.program_status;
    return s === 'Pending' || s === 'CompilingSql' || s === 'CompilingRust' ? undefined : r.json;
  }, `compilation of ${name}`);
  expect(p.program_status).toBe('Success');
  return p;
}

export async function startRunning(svc: Svc, name: string): Promise<void> {
  const r = await svc.call('POST', `/v0/pipelines/${name}/start`);
  expect(r.status).toBe(202);
  await waitFor(async () => (await svc.call('GET', `/v0/pipelines/${name}`)).json.deployment_status === 'Running', `${name} Running`);
}

export async function shutdown(svc: Svc, name: string): Promise<void> {
  const r = await svc.call('POST', `/v0/pipelines/${name}/shutdown`);
  expect(r.status).toBe(202);
  await waitFor(async () => (await svc.call('GET', `/v0/pipelines/${name}`)).json.deployment_status === 'Shutdown', `${name} Shutdown`);
}

export async function ingest(svc: Svc, name: string, table: string, query: string, body: string): Promise<Res> {
  return svc.call('POST', `/v0/pipelines/${name}/ingress/${table}?${query}`, undefined, {
    raw: body,
    headers: { 'content-type': query.includes('format=csv') ? 'text/csv' : 'application/json' },
  });
}

export async function snapshot(svc: Svc, name: string, rel: string, format = 'json'): Promise<any> {
  const r = await svc.call('POST', `/v0/pipelines/${name}/egress/${rel}?format=${format}&mode=snapshot&query=quantiles`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

/** Sorts JSON values for multiset comparison. */
export function bag<T>(xs: T[]): T[] {
  return [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
}

export interface Chunk {
  sequence_number: number;
  json_data?: any[];
  text_data?: string;
}

/** Reads a watch stream: chunks as they arrive, split on newlines. */
export class WatchReader {
  readonly chunks: Chunk[] = [];
  ended = false;
  status = 0;
  private controller = new AbortController();
  private waiters: (() => void)[] = [];
  raw = '';

  /** `body`: a connector configuration sent as JSON (today's egress), with no query parameters unless given. */
  static async open(svc: Svc, pipeline: string, view: string, query = 'format=json', body?: unknown): Promise<WatchReader> {
    const w = new WatchReader();
    const res = await fetch(`${svc.base}/v0/pipelines/${pipeline}/egress/${view}${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: body === undefined ? svc.headers : { ...svc.headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: w.controller.signal,
    });
    w.status = res.status;
    if (res.status !== 200) {
      w.raw = await res.text();
      w.ended = true;
      return w;
    }
    void w.pump(res.body!);
    return w;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    // the pieces of the line not yet ended: a newline is looked for in each new piece only (searching the
    // whole pending text at each piece went over a 500 kB chunk line again and again)
    let pending: string[] = [];
    try {
      for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
        const s = dec.decode(part, { stream: true });
        this.raw += s;
        let start = 0;
        let i: number;
        while ((i = s.indexOf('\n', start)) >= 0) {
          pending.push(s.slice(start, i));
          const line = pending.join('').trim();
          pending = [];
          start = i + 1;
          if (line) this.chunks.push(JSON.parse(line));
        }
        if (start < s.length) pending.push(s.slice(start));
        this.wake();
      }
    } catch {
      // aborted
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** All data items received so far. */
  items(): any[] {
    return this.chunks.flatMap((c) => c.json_data ?? []);
  }

  async until(pred: (r: WatchReader) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!pred(this)) {
      if (this.ended && !pred(this)) throw new Error(`stream ended while waiting for ${what}; got ${this.raw.slice(0, 500)}`);
      const left = until - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.raw.slice(0, 500)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  close(): void {
    this.controller.abort();
  }
}

/** The whole `ops serve` (bookmarks, pipelines, notifications) on 127.0.0.1 in-process, as a Svc. */
export async function startWholeServer(options: Record<string, unknown> = {}): Promise<Svc> {
  const { startServer } = await import('../../../src/services/server.js');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'ops-whole-')),
    pipelinesKeepAliveMs: 300,
    pipelinesCompiler: sharedCompiler(options),
    ...options,
  });
  const svc: Svc = {
    sa: undefined as never,
    base: server.url,
    headers: {},
    async call(method, path, body, extra = {}) {
      const headers: Record<string, string> = { ...svc.headers, ...(extra.headers ?? {}) };
      let payload: string | undefined;
      if (extra.raw !== undefined) payload = extra.raw;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(server.url + path, { method, headers, body: payload });
      const text = await res.text();
      let json: any;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json, headers: res.headers };
    },
    close: () => server.close(),
  };
  return svc;
}
