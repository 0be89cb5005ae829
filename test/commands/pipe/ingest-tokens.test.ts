/**
 * `ops pipe ingest --wait` in-process against ops serve, which answers each ingress with a completion
 * token (both --pipeline-api modes): the command waits on /completion_status for the last batch's token,
 * which covers every batch before it (seen through a real counting proxy), and finishes with everything
 * applied.
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

  test('sends the batches, waits on the last batch token with /completion_status, and reports them processed', async () => {
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
    // one poll: the last token covers the batches before it (here complete when its batch is answered)
    expect(polls.map((r) => r.status)).toEqual([200]);
    const token = new URL(polls[0]!.path, 'http://x').searchParams.get('token');
    const s = await svc.call('GET', `/v0/pipelines/shop/completion_status?token=${token}`);
    // the token of the third batch: complete at the step that applied it, the last one
    expect(s.json).toEqual({ status: 'complete', step: 3 });
    const rows = (await snapshot(svc, 'shop', 'ALL_ORDERS')).json_data ?? [];
    expect(rows).toHaveLength(5);
  });
});
