/**
 * Today's egress `send_snapshot=true` on ops serve (in-process server, real HTTP, the pipeline's real
 * worker): the relation's contents first (frames marked "snapshot":true), then its changes ("snapshot":false);
 * taken at one point between steps, so a row ingested while the stream connects comes exactly once; a
 * big view in chunks of at most 10,000 records, sent part by part (a stream whose buffer is far smaller
 * than the snapshot still gets all of it); CSV; only the new stream gets its snapshot; while paused; and
 * Feldera's 400 for a relation that is not materialized.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { request } from 'node:http';
import { createCompiled, ingest, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, s VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE plain (id BIGINT NOT NULL);
CREATE TABLE big (id BIGINT NOT NULL, s VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE wide (id BIGINT NOT NULL, s VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE mid (id BIGINT NOT NULL) WITH ('materialized' = 'true');
CREATE TABLE d (id BIGINT NOT NULL, s VARCHAR);
CREATE MATERIALIZED VIEW dup AS SELECT s FROM d;
CREATE MATERIALIZED VIEW v AS SELECT id, s FROM t WHERE id % 2 = 0;
CREATE VIEW nv AS SELECT id FROM t;`;

type Frame = { sequence_number: number; snapshot?: boolean; json_data?: any[]; text_data?: string };

const frames = (r: WatchReader) => r.chunks as Frame[];
const dataFrames = (r: WatchReader) => frames(r).filter((f) => f.json_data !== undefined || f.text_data !== undefined);
const items = (fs: Frame[]) => fs.flatMap((f) => f.json_data ?? []);

async function outputs(svc: Svc, name: string): Promise<any[]> {
  return (await svc.call('GET', `/v0/pipelines/${name}/stats`)).json.outputs;
}

describe('egress send_snapshot=true', { timeout: 120_000 }, () => {
  let svc: Svc;
  beforeAll(async () => {
    // small watch buffers: the big snapshot below is many times bigger, and must still arrive whole
    svc = await startSvc({ pipelinesWatchMaxBytes: 64 * 1024, pipelinesWatchMaxChunks: 2 });
    await createCompiled(svc, 's', SQL);
    await startRunning(svc, 's');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('sends the contents first, then every later change; only to the stream that asked', async () => {
    const rows = [4, 2, 3, 8].map((id) => `{"insert":{"id":${id},"s":"r${id}"}}`).join('\n');
    expect((await ingest(svc, 's', 't', 'format=json', rows)).status).toBe(200);
    const plain = await WatchReader.open(svc, 's', 'v', 'format=json');
    const snap = await WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=true');
    expect(snap.status).toBe(200);
    await snap.until((r) => items(dataFrames(r)).length === 3, 'the snapshot');
    const first = dataFrames(snap);
    expect(first.every((f) => f.snapshot === true)).toBe(true);
    // in key order, as inserts
    expect(items(first)).toEqual([2, 4, 8].map((id) => ({ insert: { ID: id, S: `r${id}` } })));

    expect((await ingest(svc, 's', 't', 'format=json', '{"delete":{"id":4,"s":"r4"}}\n{"insert":{"id":6,"s":"r6"}}')).status).toBe(200);
    await snap.until((r) => items(dataFrames(r)).length === 5, 'the change');
    await plain.until((r) => r.items().length === 2, 'the change on the plain stream');
    const later = dataFrames(snap).slice(first.length);
    expect(later.every((f) => f.snapshot === false)).toBe(true);
    expect(items(later)).toEqual([{ delete: { ID: 4, S: 'r4' } }, { insert: { ID: 6, S: 'r6' } }]);
    // the plain stream got the change only, in v0.24's frames (no snapshot field)
    expect(plain.items()).toEqual(items(later));
    expect(frames(plain).every((f) => !('snapshot' in f))).toBe(true);
    // sequence numbers run on without a gap from the snapshot into the changes
    const seqs = frames(snap).map((f) => f.sequence_number);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const stats = await outputs(svc, 's');
    expect(stats.map((o) => o.config.send_snapshot).sort()).toEqual([false, true]);

    // a second stream opened now gets everything so far as its snapshot
    const again = await WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=true');
    await again.until((r) => items(dataFrames(r)).length === 3, 'the second snapshot');
    expect(items(dataFrames(again))).toEqual([2, 6, 8].map((id) => ({ insert: { ID: id, S: `r${id}` } })));
    for (const r of [plain, snap, again]) r.close();
    expect((await ingest(svc, 's', 't', 'format=json', '{"delete":{"id":2,"s":"r2"}}\n{"delete":{"id":3,"s":"r3"}}\n{"delete":{"id":6,"s":"r6"}}\n{"delete":{"id":8,"s":"r8"}}')).status).toBe(200);
    await waitFor(async () => (await outputs(svc, 's')).length === 0, 'the streams to be gone');
  });

  it('CSV: the contents as lines with weight 1, then the changes', async () => {
    expect((await ingest(svc, 's', 't', 'format=csv', '10,"a,b"\n12,y\n')).status).toBe(200);
    const snap = await WatchReader.open(svc, 's', 't', 'format=csv&send_snapshot=true&backpressure=true');
    await snap.until((r) => dataFrames(r).length >= 1, 'the snapshot');
    expect(dataFrames(snap).map(({ snapshot, text_data }) => ({ snapshot, text_data }))).toEqual([{ snapshot: true, text_data: '10,"a,b",1\n12,y,1\n' }]);
    expect((await ingest(svc, 's', 't', 'format=csv', '14,x\n')).status).toBe(200);
    await snap.until((r) => dataFrames(r).length >= 2, 'the change');
    const { snapshot, text_data } = dataFrames(snap)[1]!;
    expect({ snapshot, text_data }).toEqual({ snapshot: false, text_data: '14,x,1\n' });
    snap.close();
    expect((await ingest(svc, 's', 't', 'format=json', '{"delete":{"id":10,"s":"a,b"}}\n{"delete":{"id":12,"s":"y"}}\n{"delete":{"id":14,"s":"x"}}')).status).toBe(200);
  });

  it('a row held more than once: JSON repeats its insert, CSV writes its weight', async () => {
    expect((await ingest(svc, 's', 'd', 'format=csv', '1,b\n2,a\n3,b\n4,b\n')).status).toBe(200);
    const json = await WatchReader.open(svc, 's', 'dup', 'format=json&send_snapshot=true');
    const csv = await WatchReader.open(svc, 's', 'dup', 'format=csv&send_snapshot=true');
    await json.until((r) => items(dataFrames(r)).length === 4, 'the JSON snapshot');
    await csv.until((r) => dataFrames(r).length === 1, 'the CSV snapshot');
    expect(items(dataFrames(json))).toEqual([{ insert: { S: 'a' } }, { insert: { S: 'b' } }, { insert: { S: 'b' } }, { insert: { S: 'b' } }]);
    expect(dataFrames(csv)[0]!.text_data).toBe('a,1\nb,3\n');
    json.close();
    csv.close();
  });

  it('an empty relation: no snapshot frames, then the changes', async () => {
    const snap = await WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=true');
    expect((await ingest(svc, 's', 't', 'format=json', '{"insert":{"id":20,"s":"e"}}')).status).toBe(200);
    await snap.until((r) => items(dataFrames(r)).length === 1, 'the change');
    expect(dataFrames(snap).map(({ snapshot, json_data }) => ({ snapshot, json_data }))).toEqual([{ snapshot: false, json_data: [{ insert: { ID: 20, S: 'e' } }] }]);
    snap.close();
    expect((await ingest(svc, 's', 't', 'format=json', '{"delete":{"id":20,"s":"e"}}')).status).toBe(200);
  });

  it('a big view: chunks of at most 10,000 records, part by part through a buffer far smaller than the snapshot', async () => {
    const N = 25_000;
    let csv = '';
    for (let i = 0; i < N; i++) csv += `${1000 + 2 * i},row-${i}-${'x'.repeat(20)}\n`;
    expect((await ingest(svc, 's', 'big', 'format=csv', csv)).status).toBe(200);
    for (const format of ['json', 'csv'] as const) {
      // backpressure=true: a chunk that did not fit would end the stream, so whole means paced
      const snap = await WatchReader.open(svc, 's', 'big', `format=${format}&send_snapshot=true&backpressure=true`);
      const records = (f: Frame) => (f.json_data ? f.json_data.length : (f.text_data ?? '').split('\n').length - 1);
      await snap.until((r) => dataFrames(r).reduce((n, f) => n + records(f), 0) >= N, `the ${format} snapshot`);
      const got = dataFrames(snap);
      expect(got.length).toBe(3);
      expect(got.map(records)).toEqual([10_000, 10_000, 5_000]);
      expect(got.every((f) => f.snapshot === true)).toBe(true);
      // far above the stream's 64 KiB: sent only as the client took the parts before
      expect(got.reduce((n, f) => n + JSON.stringify(f).length, 0)).toBeGreaterThan(10 * 64 * 1024);
      const ids =
        format === 'json'
          ? items(got).map((i) => i.insert.ID)
          : got.flatMap((f) =>
              f
                .text_data!.trimEnd()
                .split('\n')
                .map((l) => Number(l.split(',')[0])),
            );
      expect(ids).toEqual(Array.from({ length: N }, (_, i) => 1000 + 2 * i));
      expect((await ingest(svc, 's', 'big', 'format=csv', '2,after\n')).status).toBe(200);
      await snap.until((r) => dataFrames(r).length === 4, 'the change after the snapshot');
      expect(dataFrames(snap)[3]!.snapshot).toBe(false);
      expect(snap.ended).toBe(false);
      snap.close();
      expect((await ingest(svc, 's', 'big', 'format=json', '{"delete":{"id":2,"s":"after"}}')).status).toBe(200);
    }
    // a client gone in the middle of a snapshot: its stream is removed, the pipeline goes on
    const gone = await WatchReader.open(svc, 's', 'big', 'format=json&send_snapshot=true');
    await gone.until((r) => dataFrames(r).length >= 1, 'the first part');
    gone.close();
    await waitFor(async () => (await outputs(svc, 's')).length === 0, 'the stream to be gone');
    expect((await ingest(svc, 's', 'big', 'format=json', '{"insert":{"id":4,"s":"on"}}')).status).toBe(200);
  });

  it('changes while the snapshot is still being sent (a client that stopped reading) follow it, each once', async () => {
    // ~15 MB of snapshot in parts of ~2.6 MB: far more than the socket buffers take while the client does not
    // read (the server's send buffer grows to 4 MB at most; a client that does not read keeps its receive
    // buffer small)
    const N = 60_000;
    const pad = 'p'.repeat(250);
    let csv = '';
    for (let i = 0; i < N; i++) csv += `${i},${pad}\n`;
    expect((await ingest(svc, 's', 'wide', 'format=csv', csv)).status).toBe(200);
    const url = new URL(`${svc.base}/v0/pipelines/s/egress/wide?format=csv&send_snapshot=true&backpressure=true`);
    let text = '';
    let ended = false;
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(url, { method: 'POST' }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    res.setEncoding('utf8');
    res.pause();
    onTestFinished(() => void res.destroy());
    // the first part went out; the socket is full and the rest is not yet asked for
    await waitFor(async () => {
      const o = (await outputs(svc, 's'))[0];
      return o && o.metrics.queued_batches > 0 ? o : undefined;
    }, 'the snapshot to stall');
    const before = (await outputs(svc, 's'))[0].metrics.transmitted_records;
    // the last part is asked for only once the first two (40,000 records) were all taken: it is still owed
    expect(before).toBeLessThan(40_000);
    expect((await ingest(svc, 's', 'wide', 'format=csv', `-1,early\n${N},late\n`)).status).toBe(200);
    expect((await ingest(svc, 's', 'wide', 'format=json', '{"delete":{"id":-1,"s":"early"}}')).status).toBe(200);
    res.on('data', (d: string) => (text += d));
    res.on('end', () => (ended = true));
    res.resume();
    // whole frames only (the last line may still be arriving; before the first one ends, none)
    const parsed = () =>
      text
        .slice(0, Math.max(0, text.lastIndexOf('\r\n')))
        .split('\r\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Frame);
    await waitFor(() => parsed().some((f) => f.text_data?.includes('-1,early,-1')), 'the changes after the snapshot', 60_000);
    const data = parsed().filter((f) => f.text_data !== undefined);
    const firstChange = data.findIndex((f) => f.snapshot === false);
    expect(data.slice(0, firstChange).every((f) => f.snapshot === true)).toBe(true);
    const snapshotIds = data.slice(0, firstChange).flatMap((f) =>
      f
        .text_data!.trimEnd()
        .split('\n')
        .map((l) => Number(l.split(',')[0])),
    );
    expect(snapshotIds).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(data.slice(firstChange).map((f) => f.text_data)).toEqual([`-1,early,1\n${N},late,1\n`, '-1,early,-1\n']);
    expect(ended).toBe(false);
    res.destroy();
    await waitFor(async () => (await outputs(svc, 's')).length === 0, 'the stream to be gone');
  });

  it("changes beyond the stream's bounds while its snapshot is stalled: dropped, a gap in the sequence numbers (backpressure=false)", async () => {
    // wide holds the 60,001 rows of the test above; this suite's streams hold at most 2 chunks
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(new URL(`${svc.base}/v0/pipelines/s/egress/wide?format=json&send_snapshot=true`), { method: 'POST' }, resolve);
      req.on('error', reject);
      req.end();
    });
    res.setEncoding('utf8');
    res.pause();
    onTestFinished(() => void res.destroy());
    await waitFor(async () => (await outputs(svc, 's'))[0]?.metrics.queued_batches > 0, 'the snapshot to stall');
    // three steps while the snapshot waits: two are kept, the third is beyond the bound
    for (const id of [-10, -20, -30]) expect((await ingest(svc, 's', 'wide', 'format=json', `{"insert":{"id":${id},"s":"c"}}`)).status).toBe(200);
    await waitFor(async () => (await outputs(svc, 's'))[0]?.metrics.dropped_batches === 1, 'the dropped chunk');
    let text = '';
    res.on('data', (d: string) => (text += d));
    res.resume();
    const parsed = () =>
      text
        .slice(0, Math.max(0, text.lastIndexOf('\r\n')))
        .split('\r\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Frame);
    await waitFor(() => items(parsed()).some((it) => it.insert?.ID === -20), 'the kept changes', 60_000);
    expect((await ingest(svc, 's', 'wide', 'format=json', '{"insert":{"id":-40,"s":"c"}}')).status).toBe(200);
    await waitFor(() => items(parsed()).some((it) => it.insert?.ID === -40), 'the next change', 60_000);
    const changes = parsed().filter((f) => f.json_data && f.snapshot === false);
    expect(changes.map((f) => f.json_data![0].insert.ID)).toEqual([-10, -20, -40]);
    const [a, b] = changes.map((f) => f.sequence_number);
    expect(b).toBe(a! + 1);
    // every number is there (keep-alives included) but the dropped chunk's, right after the kept ones
    const seqs = parsed().map((f) => f.sequence_number);
    const missing = Array.from({ length: Math.max(...seqs) + 1 }, (_, i) => i).filter((i) => !seqs.includes(i));
    expect(missing).toEqual([b! + 1]);
    expect(items(parsed().filter((f) => f.snapshot === true)).length).toBe(60_001);
    res.destroy();
    await waitFor(async () => (await outputs(svc, 's')).length === 0, 'the stream to be gone');
    expect((await ingest(svc, 's', 'wide', 'format=json', [-10, -20, -30, -40].map((id) => `{"delete":{"id":${id},"s":"c"}}`).join('\n'))).status).toBe(200);
  });

  it('a row ingested while the stream connects comes exactly once: in the snapshot or as a change', async () => {
    const sent: number[] = [];
    // another stream of the same view and format: the worker sends every step's changes to the host,
    // so changes already on their way when the new stream opens reach it too (they are in its snapshot)
    const other = await WatchReader.open(svc, 's', 'v', 'format=json');
    for (let i = 0; i < 40; i++) {
      const a = 100_000 + 4 * i;
      const b = a + 2;
      const [snap, ra, rb] = await Promise.all([
        WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=true'),
        ingest(svc, 's', 't', 'format=json', `{"insert":{"id":${a},"s":"a"}}`),
        ingest(svc, 's', 't', 'format=json', `{"insert":{"id":${b},"s":"b"}}`),
      ]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      sent.push(a, b);
      // a marker after both: once it is seen, everything before it has been
      const marker = 900_000 + 2 * i;
      expect((await ingest(svc, 's', 't', 'format=json', `{"insert":{"id":${marker},"s":"m"}}`)).status).toBe(200);
      sent.push(marker);
      await snap.until((r) => r.items().some((it) => it.insert?.ID === marker), `marker ${marker}`);
      const ids = snap.items().map((it) => it.insert.ID as number);
      expect(ids.slice().sort((x, y) => x - y)).toEqual(sent.slice().sort((x, y) => x - y));
      snap.close();
    }
    expect(other.items().length).toBe(sent.length);
    other.close();
  });

  it('a step being applied while the stream opens: its changes come once (in the snapshot), not again after it', async () => {
    // another stream of the same table: the worker sends the big step's changes to the host, which
    // gets them after the new stream opened (they were on their way), and must not pass them on
    const other = await WatchReader.open(svc, 's', 'mid', 'format=json');
    const N = 60_000;
    let csv = '';
    for (let i = 0; i < N; i++) csv += `${i}\n`;
    const big = ingest(svc, 's', 'mid', 'format=csv', csv);
    // the worker has the whole body and is parsing and applying it
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/s/stats')).json.inputs.some((i: any) => i.metrics.buffered_bytes > 0), 'the step under way', 60_000);
    const snap = await WatchReader.open(svc, 's', 'mid', 'format=json&send_snapshot=true');
    expect((await big).status).toBe(200);
    expect((await ingest(svc, 's', 'mid', 'format=json', `{"insert":{"id":${N}}}`)).status).toBe(200);
    await snap.until((r) => r.items().some((it) => it.insert?.ID === N), 'the change after the step', 60_000);
    // (the other stream, with this suite's small buffers, drops most of the big step's chunks: not checked)
    const ids = snap.items().map((it) => it.insert.ID as number);
    expect(ids.length).toBe(N + 1);
    expect(new Set(ids).size).toBe(N + 1);
    expect(dataFrames(snap).filter((f) => f.snapshot === true).length).toBe(Math.ceil(N / 10_000));
    for (const r of [snap, other]) r.close();
  });

  it('while paused: the snapshot comes without resuming', async () => {
    expect((await svc.call('POST', '/v0/pipelines/s/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/s')).json.deployment_status === 'Paused', 'Paused');
    const snap = await WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=true');
    await snap.until((r) => items(dataFrames(r)).length >= 1, 'the snapshot while paused');
    expect(dataFrames(snap).every((f) => f.snapshot === true)).toBe(true);
    expect(items(dataFrames(snap)).length).toBe(120); // the race test's rows
    snap.close();
    await startRunning(svc, 's');
  });

  it('the pipeline shuts down in the middle of a snapshot: the stream ends, nothing waits for it', async () => {
    const url = new URL(`${svc.base}/v0/pipelines/s/egress/wide?format=json&send_snapshot=true`);
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(url, { method: 'POST' }, resolve);
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    res.pause();
    onTestFinished(() => void res.destroy());
    res.on('error', () => {});
    const closed = new Promise<void>((r) => res.once('close', () => r()));
    await waitFor(async () => (await outputs(svc, 's'))[0]?.metrics.queued_batches > 0, 'the snapshot to stall');
    expect((await svc.call('POST', '/v0/pipelines/s/shutdown')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/s')).json.deployment_status === 'Shutdown', 'Shutdown');
    // the stream ended (a reader that did not take the rest was cut off after the drain time): reading on reaches its end
    res.on('data', () => {});
    res.resume();
    await closed;
    await startRunning(svc, 's');
  });

  it('a relation that is not materialized: 400 ConfigError.InvalidTransportConfig, as Feldera', async () => {
    for (const rel of ['nv', 'plain']) {
      const r = await WatchReader.open(svc, 's', rel, 'format=json&send_snapshot=true');
      expect(r.status).toBe(400);
      const body = JSON.parse(r.raw);
      expect(body.error_code).toBe('ConfigError.InvalidTransportConfig');
      expect(body.message).toMatch(/^invalid transport configuration for endpoint 'api-watch-.*': 'send_snapshot: true' requires a materialized output view; '.*' is not materialized/);
      expect(body.details.config_error.error).toBe("'send_snapshot: true' requires a materialized output view");
    }
    const bad = await WatchReader.open(svc, 's', 'v', 'format=json&send_snapshot=maybe');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.raw).error_code).toBe('InvalidQueryParameter');
    // without it the same view streams as before
    const ok = await WatchReader.open(svc, 's', 'nv', 'format=json&send_snapshot=false');
    expect(ok.status).toBe(200);
    ok.close();
    await waitFor(async () => (await outputs(svc, 's')).length === 0, 'the streams to be gone');
  });
});
