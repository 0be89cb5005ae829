/** The REST tutorial's own curl commands (curl sends form content types, no bodies on actions, -N streams). */
import { execa } from 'execa';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles, TUTORIAL_DATA, tutorialSql, type FileServer } from './fixtures.js';
import { startSvc, waitFor, type Svc } from './helpers.js';

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

const curl = async (...args: string[]) => (await execa('curl', args, { reject: false })).stdout;
const status = (out: string) => Number(/^HTTP\/1\.1 (\d+)/.exec(out)?.[1]);

describe('tutorial curl commands', () => {
  it('run unchanged against ops serve', async () => {
    const B = svc.base;
    expect(JSON.parse(await curl('-s', '-X', 'GET', `${B}/v0/programs`))).toEqual([]);
    const body = JSON.stringify({
      name: 'supply-chain',
      description: 'Supply Chain Tutorial',
      runtime_config: { workers: 4 },
      program_config: {},
      program_code: tutorialSql(files.url),
    });
    const put = await curl('-i', '-X', 'PUT', `${B}/v0/pipelines/supply-chain`, '-H', 'Content-Type: application/json', '-d', body);
    expect(status(put)).toBe(201);
    await waitFor(async () => JSON.parse(await curl('-s', `${B}/v0/pipelines/supply-chain`)).program_status === 'Success', 'Success');
    expect(status(await curl('-i', '-X', 'POST', `${B}/v0/pipelines/supply-chain/start`))).toBe(202);
    await waitFor(async () => JSON.parse(await curl('-s', 'GET', `${B}/v0/pipelines/supply-chain`)).deployment_status === 'Running', 'Running');
    await waitFor(async () => JSON.parse(await curl('-sX', 'GET', `${B}/v0/pipelines/supply-chain/stats`)).global_metrics.total_processed_records === 9, '9 records');
    const snap = JSON.parse(await curl('-s', '-X', 'POST', `${B}/v0/pipelines/supply-chain/egress/PREFERRED_VENDOR?format=json&mode=snapshot&query=quantiles`));
    expect(snap.json_data).toHaveLength(3);

    // curl -s -N ... | (watch) in the background, then ingest with -d (form content type)
    const dir = mkdtempSync(join(tmpdir(), 'ops-curl-'));
    const out = join(dir, 'watch.out');
    const watch = execa('curl', ['-s', '-N', '-X', 'POST', `${B}/v0/pipelines/supply-chain/egress/PREFERRED_VENDOR?format=json&mode=watch`, '-o', out], { reject: false });
    await waitFor(async () => JSON.parse(await curl('-s', `${B}/v0/pipelines/supply-chain/stats`)).outputs.length === 1, 'the watcher');
    const ing = await curl('-i', '-X', 'POST', `${B}/v0/pipelines/supply-chain/ingress/PRICE?format=json`, '-d', '{"insert": {"part": 2, "vendor": 2, "price": 12000}}');
    expect(status(ing)).toBe(200);
    expect(status(await curl('-i', '-X', 'POST', `${B}/v0/pipelines/supply-chain/shutdown`))).toBe(202);
    const w = await watch;
    expect(w.exitCode).toBe(0); // the stream ended cleanly at shutdown
    const chunks = readFileSync(out, 'utf8')
      .split('\r\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const items = chunks.flatMap((c) => c.json_data ?? []);
    expect(items).toContainEqual({ insert: { PART_ID: 2, PART_NAME: 'Warp Core', VENDOR_ID: 2, VENDOR_NAME: 'HyperDrive Innovations', PRICE: '12000' } });
    expect(items).toContainEqual({ delete: { PART_ID: 2, PART_NAME: 'Warp Core', VENDOR_ID: 1, VENDOR_NAME: 'Gravitech Dynamics', PRICE: '15000' } });
    await waitFor(async () => JSON.parse(await curl('-s', `${B}/v0/pipelines/supply-chain`)).deployment_status === 'Shutdown', 'Shutdown');
    expect(status(await curl('-i', '-X', 'DELETE', `${B}/v0/pipelines/supply-chain`))).toBe(200);
  });
});
