/**
 * `ops pipe ingest --wait` in-process against ops serve, which answers each ingress with a completion
 * token (both --pipeline-api modes): the command waits on /completion_status for every batch's token
 * (seen through a real counting proxy) and finishes with everything applied.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../src/context.js';
import { runPipeIngest } from '../../../src/commands/pipe/ingest.js';
import { createCompiled, snapshot, startSvc, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { startCountingProxy, type CountingProxy } from '../../helpers/counting-proxy.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

let proxy: CountingProxy;
const dir = tempDir('ops-ingest-tokens-');

beforeAll(async () => {
  proxy = await startCountingProxy();
});
afterAll(async () => {
  await proxy.close();
});

describe.each(['v0.24', 'current'] as const)('ops pipe ingest --wait against ops serve (--pipeline-api %s)', (api) => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: api });
    await createCompiled(svc, 'shop', 'CREATE TABLE orders (id INT NOT NULL, item VARCHAR);\nCREATE MATERIALIZED VIEW all_orders AS SELECT * FROM orders;');
    expect((await svc.call('POST', '/v0/pipelines/shop/start')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/shop')).json.deployment_status === 'Running', 'Running');
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  test('sends the batches, waits on each batch token with /completion_status, and reports them processed', async () => {
    const file = join(dir, `orders-${api}.ndjson`);
    writeFileSync(file, [1, 2, 3, 4, 5].map((i) => JSON.stringify({ id: i, item: `thing ${i}` })).join('\n') + '\n');
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-'), HTTP_PROXY: proxy.url };
    const io = memoryIo({ tty: false });
    const ctx = new Context({ json: true }, env, io);
    proxy.reset();
    await runPipeIngest({ name: 'shop', table: 'orders', file, wait: true, batchSize: '2' }, ctx);
    expect(JSON.parse(io.stdoutText())).toEqual({ pipeline: 'shop', table: 'orders', format: 'json', records: 5, batches: 3, processed: true });

    const ingress = proxy.requests.filter((r) => r.path.includes('/ingress/'));
    expect(ingress.map((r) => r.status)).toEqual([200, 200, 200]);
    const polls = proxy.requests.filter((r) => r.path.startsWith('/v0/pipelines/shop/completion_status?'));
    // one poll per batch: each token is complete when its batch is answered
    expect(polls.map((r) => r.status)).toEqual([200, 200, 200]);
    const tokens = polls.map((r) => new URL(r.path, 'http://x').searchParams.get('token'));
    expect(new Set(tokens).size).toBe(3);
    // every token the command waited on is complete with the step that applied its batch
    const steps = [];
    for (const t of tokens) {
      const s = await svc.call('GET', `/v0/pipelines/shop/completion_status?token=${t}`);
      expect(s.json.status).toBe('complete');
      steps.push(s.json.step);
    }
    expect(steps).toEqual([1, 2, 3]);
    const rows = (await snapshot(svc, 'shop', 'ALL_ORDERS')).json_data ?? [];
    expect(rows).toHaveLength(5);
  });
});
