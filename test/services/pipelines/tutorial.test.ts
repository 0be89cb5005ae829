/** The v0.24 REST tutorial (supply chain), step by step, as its curl calls make them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles, TUTORIAL_DATA, tutorialSql, type FileServer } from './fixtures.js';
import { bag, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
let files: FileServer;
beforeAll(async () => {
  svc = await startSvc();
  files = await serveFiles(TUTORIAL_DATA);
});
afterAll(async () => {
  await svc.close();
  await files.close();
});

const PREFERRED = [
  { PART_ID: 1, PART_NAME: 'Flux Capacitor', VENDOR_ID: 2, VENDOR_NAME: 'HyperDrive Innovations', PRICE: '10000' },
  { PART_ID: 2, PART_NAME: 'Warp Core', VENDOR_ID: 1, VENDOR_NAME: 'Gravitech Dynamics', PRICE: '15000' },
  { PART_ID: 3, PART_NAME: 'Kyber Crystal', VENDOR_ID: 3, VENDOR_NAME: 'DarkMatter Devices', PRICE: '9000' },
];

describe('REST tutorial flow', () => {
  it('create, poll compile, start, stats, snapshot, watch, ingest, shutdown, delete', async () => {
    // Setup check
    expect((await svc.call('GET', '/v0/programs')).json).toEqual([]);

    // Step 1: create (jq builds the body; curl sends it as JSON)
    const put = await svc.call('PUT', '/v0/pipelines/supply-chain', {
      name: 'supply-chain',
      description: 'Supply Chain Tutorial',
      runtime_config: { workers: 4 },
      program_config: {},
      program_code: tutorialSql(files.url),
    });
    expect(put.status).toBe(201);
    expect(put.json).toMatchObject({ id: expect.any(String), program_version: 1, version: 1 });
    const compiled = await waitFor(async () => {
      const s = (await svc.call('GET', '/v0/pipelines/supply-chain')).json.program_status;
      return s === 'Success' || typeof s === 'object' ? s : undefined;
    }, 'compilation');
    expect(compiled).toBe('Success');

    // Step 2: start (curl -X POST with no body)
    const start = await fetch(`${svc.base}/v0/pipelines/supply-chain/start`, { method: 'POST' });
    expect(start.status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/supply-chain')).json.deployment_status === 'Running', 'Running');

    // Step 3: stats
    const stats = await waitFor(async () => {
      const s = (await svc.call('GET', '/v0/pipelines/supply-chain/stats')).json;
      return s.global_metrics.total_processed_records === 9 ? s : undefined;
    }, 'connector data processed');
    expect(stats.global_metrics).toMatchObject({ total_input_records: 9, total_processed_records: 9, pipeline_complete: true });
    expect(stats.inputs.map((i: any) => i.endpoint_name)).toEqual(['PART.unnamed-0', 'PRICE.unnamed-0', 'VENDOR.unnamed-0']);
    for (const i of stats.inputs) expect(i.metrics).toMatchObject({ total_records: 3, end_of_input: true });

    // Step 4: snapshot of the materialized view, upper-case names, DECIMAL as strings
    const snap = await fetch(`${svc.base}/v0/pipelines/supply-chain/egress/PREFERRED_VENDOR?format=json&mode=snapshot&query=quantiles`, {
      method: 'POST',
    });
    expect(snap.status).toBe(200);
    const body = (await snap.json()) as any;
    expect(body.sequence_number).toBe(0);
    expect(body.json_data).toEqual(PREFERRED.map((r) => ({ insert: r })));

    // ... and watch it
    const watch = await WatchReader.open(svc, 'supply-chain', 'PREFERRED_VENDOR', 'format=json&mode=watch');
    expect(watch.status).toBe(200);

    // Step 5: ingress (curl -d sends application/x-www-form-urlencoded)
    const ing = await fetch(`${svc.base}/v0/pipelines/supply-chain/ingress/PRICE?format=json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '{"insert": {"part": 2, "vendor": 2, "price": 12000}}',
    });
    expect(ing.status).toBe(200);
    await watch.until((w) => w.items().length >= 2, 'the change on the watch stream');
    expect(bag(watch.items())).toEqual(bag([{ insert: { PART_ID: 2, PART_NAME: 'Warp Core', VENDOR_ID: 2, VENDOR_NAME: 'HyperDrive Innovations', PRICE: '12000' } }, { delete: PREFERRED[1] }]));
    const dataChunks = watch.chunks.filter((c) => c.json_data);
    expect(dataChunks).toHaveLength(1);

    // Keep-alives: empty objects with the next sequence numbers
    await watch.until((w) => w.chunks.some((c) => !c.json_data && c.sequence_number > dataChunks[0]!.sequence_number), 'a keep-alive');
    const seqs = watch.chunks.map((c) => c.sequence_number);
    expect(seqs).toEqual(seqs.map((_, i) => i));

    // Stats add up
    const stats2 = (await svc.call('GET', '/v0/pipelines/supply-chain/stats')).json;
    expect(stats2.global_metrics).toMatchObject({ total_input_records: 10, total_processed_records: 10 });
    expect(stats2.outputs).toHaveLength(1);
    expect(stats2.outputs[0].endpoint_name).toMatch(/^api-watch-PREFERRED_VENDOR-/);
    expect(stats2.outputs[0].metrics.transmitted_records).toBe(2);

    // Step 6: shutdown ends the watch stream cleanly, then delete
    const sd = await fetch(`${svc.base}/v0/pipelines/supply-chain/shutdown`, { method: 'POST' });
    expect(sd.status).toBe(202);
    await watch.until((w) => w.ended, 'the end of the watch stream');
    expect(watch.raw.endsWith('\r\n')).toBe(true);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/supply-chain')).json.deployment_status === 'Shutdown', 'Shutdown');
    const del = await fetch(`${svc.base}/v0/pipelines/supply-chain`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await svc.call('GET', '/v0/pipelines')).json).toEqual([]);
  });
});
