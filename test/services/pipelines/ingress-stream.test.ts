/**
 * Ingress over HTTP in chunks: several MiB of CSV and NDJSON streamed in small chunks arrive exactly;
 * a body over the limit is refused whole with 413 (nothing applied); 100,000 nested JSON arrays are a
 * 400 naming the depth limit, and the server keeps answering.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/services/pipelines/shared/ingress-limits.js';
import { createCompiled, ingest, snapshot, startRunning, startSvc, type Svc } from './helpers.js';

let svc: Svc | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const SQL = `CREATE TABLE t (x BIGINT NOT NULL, s VARCHAR NOT NULL);
CREATE MATERIALIZED VIEW stats AS SELECT COUNT(*) AS n, SUM(x) AS sx, SUM(CHAR_LENGTH(s)) AS chars FROM t;`;

/** POSTs `chunks` as a streamed (chunked, no content-length) request body. */
async function post(s: Svc, path: string, chunks: Iterable<Uint8Array>, contentType: string): Promise<{ status: number; json: any }> {
  const it = chunks[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      const n = it.next();
      if (n.done) ctrl.close();
      else ctrl.enqueue(n.value);
    },
  });
  const res = await fetch(s.base + path, { method: 'POST', body, headers: { 'content-type': contentType }, duplex: 'half' } as RequestInit);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** `rows` rows of text, cut into chunks of `size` bytes (cuts fall inside rows and UTF-8 characters). */
function* chunked(rows: number, line: (i: number) => string, size: number): Generator<Uint8Array> {
  const enc = new TextEncoder();
  let rest = new Uint8Array(0);
  let text = '';
  const flush = function* (all: boolean) {
    const fresh = enc.encode(text);
    text = '';
    const bytes = new Uint8Array(rest.length + fresh.length);
    bytes.set(rest);
    bytes.set(fresh, rest.length);
    const keep = all ? bytes.length : bytes.length - (bytes.length % size);
    for (let o = 0; o < keep; o += size) yield bytes.slice(o, Math.min(o + size, keep));
    rest = bytes.slice(keep);
  };
  for (let i = 0; i < rows; i++) {
    text += line(i);
    if (text.length >= 4 * size) yield* flush(false);
  }
  yield* flush(true);
}

async function stats(s: Svc, name: string) {
  const snap = await snapshot(s, name, 'stats');
  return snap.json_data[0]?.insert ?? null;
}

describe('streamed ingress', () => {
  it('a CSV and an NDJSON body of several MiB, in 1,000-byte chunks, arrive exactly', async () => {
    svc = await startSvc();
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const ROWS = 120_000; // ~5 MiB in all (the 4 MiB checked below), in ~5,000 chunks
    const str = (i: number) => `r${i}é"${i % 7}`; // a quote and a 2-byte character in every row
    const csv = await post(
      svc,
      '/v0/pipelines/p/ingress/t?format=csv',
      chunked(ROWS, (i) => `${i},"${str(i).replace(/"/g, '""')}"\n`, 1000),
      'text/csv',
    );
    expect(csv.status, JSON.stringify(csv.json)).toBe(200);
    const json = await post(
      svc,
      '/v0/pipelines/p/ingress/t?format=json&update_format=raw',
      chunked(ROWS, (i) => JSON.stringify({ x: -i, s: str(i) }) + '\n', 1000),
      'application/json',
    );
    expect(json.status, JSON.stringify(json.json)).toBe(200);
    let chars = 0;
    for (let i = 0; i < ROWS; i++) chars += [...str(i)].length;
    // every row once from each body: x sums cancel out
    expect(await stats(svc, 'p')).toEqual({ N: 2 * ROWS, SX: 0, CHARS: 2 * chars });
    const pipeline = await svc.call('GET', '/v0/pipelines/p/stats');
    const bytes = pipeline.json.inputs.find((i: any) => i.endpoint_name.toLowerCase() === 'api-ingress-t')?.metrics.total_bytes;
    expect(bytes).toBeGreaterThan(4 * 1024 * 1024);
  }, 120_000);

  it('a body over the limit is refused whole with 413 naming the limit; nothing is applied', async () => {
    svc = await startSvc({ pipelinesIngressBodyLimit: 10_000 });
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    // streamed (no content-length): refused once the 10,001st byte comes
    const streamed = await post(
      svc,
      '/v0/pipelines/p/ingress/t?format=csv',
      chunked(5000, (i) => `${i},a\n`, 512),
      'text/csv',
    );
    expect(streamed.status).toBe(413);
    expect(streamed.json.message).toMatch(/limit of 10000 bytes/);
    expect(streamed.json.message).toMatch(/nothing from this request was applied/);
    // announced by content-length: refused before reading
    const whole = await ingest(svc, 'p', 't', 'format=csv', '1,a\n'.repeat(3000));
    expect(whole.status).toBe(413);
    expect(whole.json.error_code).toBe('PayloadTooLarge');
    expect(await stats(svc, 'p')).toEqual({ N: 0, SX: null, CHARS: null });
    // under the limit: applied
    expect((await ingest(svc, 'p', 't', 'format=csv', '1,a\n2,bb\n')).status).toBe(200);
    expect(await stats(svc, 'p')).toEqual({ N: 2, SX: 3, CHARS: 3 });
  });

  it('a client that goes on sending after its 413 gets the answer, and the connection is closed once it has sent the limit again', async () => {
    svc = await startSvc({ pipelinesIngressBodyLimit: 10_000 });
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const { port } = new URL(svc.base);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => {});
    const auth = Object.entries(svc.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    // announces 100 MB, then keeps sending
    socket.write(`POST /v0/pipelines/p/ingress/t?format=csv HTTP/1.1\r\nhost: x\r\ncontent-type: text/csv\r\n${auth}content-length: 100000000\r\n\r\n`);
    let sent = 0;
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    const line = Buffer.from('1,a\n'.repeat(1024));
    const CAP = 64 * 1024 * 1024;
    while (!isClosed && sent < CAP) {
      sent += line.length;
      if (!socket.write(line)) await Promise.race([new Promise((r) => socket.once('drain', r)), closed]);
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('PayloadTooLarge');
    // closed after about the limit more (10,000 bytes, plus what the sockets' buffers held), long before 64 MiB
    expect(sent).toBeLessThan(CAP);
    expect(await stats(svc, 'p')).toEqual({ N: 0, SX: null, CHARS: null });
  });

  it('100,000 nested JSON arrays are a 400 naming the depth limit; nothing is applied', async () => {
    svc = await startSvc();
    await createCompiled(svc, 'p', SQL);
    await startRunning(svc, 'p');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const query of ['format=json&update_format=raw', 'format=json&update_format=insert_delete&array=true']) {
      const good = query.includes('array') ? '[{"insert": {"x": 1, "s": "a"}}]' : '{"x": 1, "s": "a"}';
      const r = await ingest(svc, 'p', 't', query, `${good}\n${deep}\n`);
      expect(r.status, r.text.slice(0, 300)).toBe(400);
      expect(r.json.error_code).toBe('ParseErrors');
      expect(r.json.message).toContain(`nested deeper than the limit of ${MAX_JSON_DEPTH} levels`);
    }
    expect(await stats(svc, 'p')).toEqual({ N: 0, SX: null, CHARS: null });
    expect((await svc.call('GET', '/v0/pipelines/p')).status).toBe(200);
  });
});
