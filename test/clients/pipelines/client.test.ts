import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/core/http.js';
import { PipelinesClient } from '../../../src/clients/pipelines.js';
import { FakeFeldera, type Generation } from './fake-feldera.js';

let fake: FakeFeldera | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(generation: Generation, extra: Partial<ConstructorParameters<typeof FakeFeldera>[0]> = {}) {
  fake = await new FakeFeldera({ generation, schema: { inputs: ['orders'], outputs: ['totals'] }, ...extra }).start();
  return { fake, pipes: new PipelinesClient(new HttpClient({ baseUrl: fake.url, serviceName: 'pipeline service', timeoutMs: 5000 })) };
}

describe.each(['legacy', 'current'] as const)('pipelines client against the %s API', (generation) => {
  it('creates with PUT (all five v0.24 fields) and detects the generation', async () => {
    const { fake, pipes } = await setup(generation);
    const { created, pipeline } = await pipes.put({ name: 'p1', programCode: 'CREATE TABLE orders (id INT);', workers: 2 });
    expect(created).toBe(true);
    expect(pipeline.generation).toBe(generation);
    expect(pipes.generation).toBe(generation);
    const put = fake.requests.find((r) => r.method === 'PUT')!;
    expect(JSON.parse(put.body)).toEqual({ name: 'p1', description: '', runtime_config: { workers: 2 }, program_config: {}, program_code: 'CREATE TABLE orders (id INT);' });
  });

  it('takes a service URL ending in /v0 (as ops serve prints it) as the root', async () => {
    const { fake } = await setup(generation);
    fake.seed('p1');
    for (const suffix of ['/v0', '/v0/']) {
      const pipes = new PipelinesClient(new HttpClient({ baseUrl: fake.url + suffix, serviceName: 'pipeline service', timeoutMs: 5000 }));
      expect((await pipes.list()).map((p) => p.name)).toEqual(['p1']);
    }
    expect(fake.requests.every((r) => !r.path.startsWith('/v0/v0'))).toBe(true);
  });

  it(`stops with ${generation === 'current' ? '/stop' : '/shutdown'} first`, async () => {
    const { fake, pipes } = await setup(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    await pipes.action('p1', 'stop');
    const posts = fake.requests.filter((r) => r.method === 'POST').map((r) => r.path);
    expect(posts).toEqual([generation === 'current' ? '/v0/pipelines/p1/stop' : '/v0/pipelines/p1/shutdown']);
  });

  it('falls back to the other stop verb when the guess was wrong', async () => {
    const { fake, pipes } = await setup(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    pipes.generation = generation === 'current' ? 'legacy' : 'current';
    await pipes.action('p1', 'stop');
    const posts = fake.requests.filter((r) => r.method === 'POST').map((r) => r.path.split('/').pop());
    expect(posts).toEqual(generation === 'current' ? ['shutdown', 'stop'] : ['stop', 'shutdown']);
    expect(pipes.generation).toBe(generation);
  });

  it('ingests a JSON array batch, keeping completion tokens when the server gives them', async () => {
    const { fake, pipes } = await setup(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const res = await pipes.ingest('p1', 'orders', '[{"insert":{"id":1}}]', { format: 'json', array: true });
    expect(fake.ingested[0]!.query).toEqual({ format: 'json', force: 'false', update_format: 'insert_delete', array: 'true' });
    if (generation === 'current') {
      expect(res.token).toBe('token-1');
      expect(await pipes.completionStatus('p1', res.token!)).toBe('inprogress');
      expect(await pipes.completionStatus('p1', res.token!)).toBe('complete');
    } else expect(res.token).toBeUndefined();
  });

  it(`snapshots a view through ${generation === 'current' ? '/query' : 'an egress snapshot'}`, async () => {
    const { fake, pipes } = await setup(generation, {
      contents: {
        totals: [
          { id: 1, n: 2 },
          { id: 2, n: 5 },
        ],
      },
    });
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const snap = await pipes.snapshot('p1', 'totals');
    expect(snap.rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 5 },
    ]);
    expect(snap.via).toBe(generation === 'current' ? 'query' : 'egress');
    const req = fake.requests.at(-1)!;
    if (generation === 'current') expect(req.query).toEqual({ sql: 'SELECT * FROM totals', format: 'json' });
    else expect(req.query).toMatchObject({ mode: 'snapshot', query: 'quantiles', format: 'json' });
  });

  it('lists programs from /v0/programs, or from the pipelines where that route is gone', async () => {
    const { fake, pipes } = await setup(generation);
    fake.seed('p1', { program_version: 3 });
    const res = await pipes.programs();
    expect(res.source).toBe(generation === 'current' ? 'pipelines' : 'programs');
    expect(res.programs).toEqual([expect.objectContaining({ name: 'p1', version: 3, status: 'Success' })]);
  });

  it('watches a view: frames split anywhere, keep-alives, the end when the pipeline stops', async () => {
    const { fake, pipes } = await setup(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const { frames } = await pipes.watch('p1', 'totals');
    await waitFor(() => fake.watcherCount('totals') === 1);
    fake.emit('totals', [{ insert: { id: 1 } }], true);
    fake.keepAlive('totals');
    fake.emit('totals', [{ delete: { id: 1 } }, { insert: { id: 2 } }]);
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await frames.next()).value);
    expect(got.map((f) => [f.sequenceNumber, f.keepAlive, f.changes])).toEqual([
      [0, false, [{ insert: { id: 1 } }]],
      [1, true, []],
      [2, false, [{ delete: { id: 1 } }, { insert: { id: 2 } }]],
    ]);
    await pipes.action('p1', 'stop');
    await pipes.get('p1');
    await pipes.get('p1');
    expect((await frames.next()).done).toBe(true);
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
}
