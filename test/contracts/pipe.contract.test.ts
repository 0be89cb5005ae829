/**
 * `ops pipe`'s requests against today's Feldera contract (feldera.contract.json, a subset written from the
 * published openapi.json): every command runs in-process against the fake pipeline manager in its current
 * generation, and every request it made is checked against the contract. The checker itself is shown to
 * refuse the v0.24-era requests it exists to catch.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../src/context.js';
import { runPipeCreate } from '../../src/commands/pipe/create.js';
import { runPipeIngest } from '../../src/commands/pipe/ingest.js';
import { runPipeList, runPipePrograms, runPipeStatus } from '../../src/commands/pipe/list.js';
import { runPipeDelete, runPipePause, runPipeShutdown, runPipeStart } from '../../src/commands/pipe/lifecycle.js';
import { runPipeLogs } from '../../src/commands/pipe/logs.js';
import { runPipeSnapshot } from '../../src/commands/pipe/snapshot.js';
import { runPipeStats } from '../../src/commands/pipe/stats.js';
import { runPipeEvents } from '../../src/commands/pipe/events.js';
import { runPipeMetrics } from '../../src/commands/pipe/metrics.js';
import { runPipeTxnCommit, runPipeTxnStart, runPipeTxnStatus } from '../../src/commands/pipe/txn.js';
import { runPipeConnectorAction, runPipeConnectorStats } from '../../src/commands/pipe/connector.js';
import { runPipeWatch } from '../../src/commands/pipe/watch.js';
import { tempDir } from '../helpers/cli.js';
import { memoryIo } from '../helpers/memory-io.js';
import { FakeFeldera, type Generation } from '../clients/pipelines/fake-feldera.js';
import { ContractChecker } from './openapi-check.js';

const contract = new ContractChecker(JSON.parse(readFileSync(join(import.meta.dirname, 'feldera.contract.json'), 'utf8')));
const dir = tempDir('ops-contract-');

function context(fake: FakeFeldera, stdin?: string) {
  const env = { OPS_PIPE_URL: fake.url, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
  const io = memoryIo({ env, stdin });
  return { ctx: new Context({ json: true, yes: true }, env, io), io };
}

function violations(fake: FakeFeldera): string[] {
  return fake.requests.flatMap((r) => contract.check({ method: r.method, path: r.path, query: Object.entries(r.query), body: r.body, contentType: r.contentType }));
}

/** Every command of `ops pipe` once, against a fake of the given generation. */
async function session(generation: Generation): Promise<FakeFeldera> {
  const fake = await new FakeFeldera({ generation, schema: { inputs: ['orders'], outputs: ['totals'] }, contents: { totals: [{ id: 1, n: 2 }] }, logLines: ['one', 'two'] }).start();
  const sql = join(dir, `${generation}.sql`);
  writeFileSync(sql, 'CREATE TABLE orders (id INT);\nCREATE VIEW totals AS SELECT id, COUNT(*) AS n FROM orders GROUP BY id;\n');
  const json = join(dir, 'rows.json');
  writeFileSync(json, '{"insert":{"id":1}}\n{"insert":{"id":2}}\n');
  const csv = join(dir, 'rows.csv');
  writeFileSync(csv, '1\n2\n');
  const run = async (f: (ctx: Context) => Promise<void>) => f(context(fake).ctx);
  await run((ctx) => runPipeCreate({ name: 'p1', file: sql, wait: true }, ctx));
  await run((ctx) => runPipeList({}, ctx));
  await run((ctx) => runPipeStatus({ name: 'p1' }, ctx));
  await run((ctx) => runPipePrograms({}, ctx));
  await run((ctx) => runPipeStart({ name: 'p1', wait: true }, ctx));
  await run((ctx) => runPipeIngest({ name: 'p1', table: 'orders', file: json }, ctx));
  await run((ctx) => runPipeIngest({ name: 'p1', table: 'orders', file: csv, format: 'csv', force: true }, ctx));
  const watching = run((ctx) => runPipeWatch({ name: 'p1', views: ['totals'], count: '1' }, ctx));
  for (let i = 0; i < 200 && fake.watcherCount('totals') === 0; i++) await new Promise((r) => setTimeout(r, 10));
  fake.emit('totals', [{ insert: { id: 3, n: 1 } }]);
  await watching;
  await run((ctx) => runPipeSnapshot({ name: 'p1', view: 'totals' }, ctx));
  await run((ctx) => runPipeStats({ name: 'p1' }, ctx));
  await run((ctx) => runPipeLogs({ name: 'p1' }, ctx));
  if (generation === 'current') {
    // today's verbs (a v0.24-era server has none of their routes)
    await run((ctx) => runPipeMetrics({ name: 'p1' }, ctx));
    await run((ctx) => runPipeEvents({ name: 'p1', all: true }, ctx));
    await run((ctx) => runPipeEvents({ name: 'p1', event: 'latest' }, ctx));
    await run(async (ctx) => void (await runPipeTxnStart({ name: 'p1' }, ctx)));
    await run(async (ctx) => void (await runPipeTxnStatus({ name: 'p1' }, ctx)));
    await run((ctx) => runPipeTxnCommit({ name: 'p1', wait: true }, ctx));
    await run((ctx) => runPipeConnectorAction({ name: 'p1', table: 'orders', connector: 'src', action: 'pause' }, ctx));
    await run((ctx) => runPipeConnectorAction({ name: 'p1', table: 'orders', connector: 'src', action: 'start' }, ctx));
    await run((ctx) => runPipeConnectorStats({ name: 'p1', table: 'orders', connector: 'src' }, ctx));
  }
  await run((ctx) => runPipePause({ name: 'p1', wait: true }, ctx));
  await run((ctx) => runPipeShutdown({ name: 'p1', wait: true }, ctx));
  await run((ctx) => runPipeDelete({ name: 'p1' }, ctx));
  return fake;
}

describe("ops pipe against today's Feldera contract", () => {
  let fake: FakeFeldera;
  beforeAll(async () => {
    fake = await session('current');
  }, 60_000);
  afterAll(() => fake.close());

  test('every request of every command is within the contract', () => {
    expect(fake.requests.length).toBeGreaterThan(15);
    expect(violations(fake)).toEqual([]);
  });

  test('the session covered the operations the client uses', () => {
    const used = new Set(fake.requests.map((r) => contract.operationOf(r.method, r.path)));
    for (const op of ['PUT /v0/pipelines/{pipeline_name}', 'POST /v0/pipelines/{pipeline_name}/ingress/{table_name}', 'POST /v0/pipelines/{pipeline_name}/egress/{table_name}', 'GET /v0/pipelines/{pipeline_name}/logs', 'GET /v0/pipelines/{pipeline_name}/query', 'POST /v0/pipelines/{pipeline_name}/stop', 'GET /v0/pipelines/{pipeline_name}/stats', 'DELETE /v0/pipelines/{pipeline_name}', 'GET /v0/pipelines/{pipeline_name}/metrics', 'GET /v0/pipelines/{pipeline_name}/events', 'GET /v0/pipelines/{pipeline_name}/events/{event_id}', 'POST /v0/pipelines/{pipeline_name}/start_transaction', 'POST /v0/pipelines/{pipeline_name}/commit_transaction', 'POST /v0/pipelines/{pipeline_name}/tables/{table_name}/connectors/{connector_name}/{action}', 'GET /v0/pipelines/{pipeline_name}/tables/{table_name}/connectors/{connector_name}/stats']) {
      expect(used, op).toContain(op);
    }
  });

  test('ingest sends force always and the body as text/plain', () => {
    const ingress = fake.requests.filter((r) => r.path.includes('/ingress/'));
    expect(ingress.map((r) => [r.query.force, r.contentType])).toEqual([
      ['false', 'text/plain'],
      ['true', 'text/plain'],
    ]);
  });

  test('watch and logs send only what today’s API knows', () => {
    const egress = fake.requests.find((r) => r.path.includes('/egress/'))!;
    expect(egress.query).toEqual({ format: 'json' });
    const logs = fake.requests.find((r) => r.path.endsWith('/logs'))!;
    expect(logs.query).toEqual({});
  });
});

describe('each era gets its own parameters', () => {
  test('against the v0.24-era API, watch keeps mode=watch, logs keep follow, ingest keeps the format’s media type', async () => {
    const fake = await session('legacy');
    try {
      const egress = fake.requests.find((r) => r.path.includes('/egress/') && r.query.mode !== 'snapshot')!;
      expect(egress.query).toMatchObject({ format: 'json', mode: 'watch' });
      expect(fake.requests.find((r) => r.path.endsWith('/logs'))!.query).toEqual({ follow: 'false' });
      const ingress = fake.requests.filter((r) => r.path.includes('/ingress/'));
      expect(ingress.map((r) => [r.query.force, r.contentType])).toEqual([
        ['false', 'application/json'],
        ['true', 'text/csv'],
      ]);
      // and so those requests are outside today's contract, which is what the checker is for
      expect(violations(fake).join('\n')).toMatch(/query parameter "mode" is not a parameter/);
    } finally {
      await fake.close();
    }
  }, 60_000);

  test('the checker refuses what the contract does not allow', () => {
    const at = '/v0/pipelines/p1/ingress/orders';
    expect(contract.check({ method: 'POST', path: at, query: [['format', 'json']], body: '{}', contentType: 'application/json' })).toEqual([
      'POST /v0/pipelines/p1/ingress/orders: required query parameter "force" is missing',
      'POST /v0/pipelines/p1/ingress/orders: body sent as "application/json"; POST /v0/pipelines/{pipeline_name}/ingress/{table_name} takes text/plain',
    ]);
    expect(contract.check({ method: 'POST', path: at, query: [['format', 'json'], ['force', '1']], body: 'x', contentType: 'text/plain' })).toEqual([
      'POST /v0/pipelines/p1/ingress/orders: query parameter "force"="1" is not a boolean',
    ]);
    expect(contract.check({ method: 'PUT', path: '/v0/pipelines/p1', query: [], body: '{"name":"p1"}', contentType: 'application/json' })[0]).toMatch(/must have required property 'program_code'/);
    expect(contract.check({ method: 'GET', path: '/v0/nothing', query: [] })).toEqual(['GET /v0/nothing: no such operation in the contract']);
  });
});
