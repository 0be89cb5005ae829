/** `ops serve --demo`: every service has something to show, and the README's walk-through works. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, ops, startServe, type ServeHandle } from '../helpers/cli.js';

let serve: ServeHandle;
let demoEvent: { bookmarks: { created: number }; pipeline: { name: string; status: string }; webhook: { id: string; url: string } };

beforeAll(async () => {
  serve = await startServe(['--demo', '--no-link-check', '--no-metadata']);
  const deadline = Date.now() + 60_000;
  while (!serve.lines.some((l) => l.includes('"event":"demo"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  demoEvent = JSON.parse(serve.lines.find((l) => l.includes('"event":"demo"'))!);
}, 90_000);
afterAll(() => serve?.stop());

/** How many output streams (watchers) the pipeline has open, from its stats. */
async function watchers(pipeline: string): Promise<number> {
  const stats = (await (await fetch(`${serve.url}/v0/pipelines/${pipeline}/stats`)).json()) as { outputs: unknown[] };
  return stats.outputs.length;
}

describe('ops serve --demo', () => {
  it('creates bookmarks in lists and tags', async () => {
    expect(demoEvent.bookmarks.created).toBeGreaterThanOrEqual(30);
    const links = await ops(['bm', 'links', 'list', '--all', '--json'], { env: serve.env });
    expect(links.exitCode).toBe(0);
    expect(JSON.parse(links.stdout)).toHaveLength(demoEvent.bookmarks.created);
    const lists = await ops(['bm', 'lists', 'list', '--json'], { env: serve.env });
    expect((JSON.parse(lists.stdout) as { name: string }[]).map((l) => l.name).sort()).toEqual(['Reading list', 'Reference', 'Tools']);
    const sql = await ops(['bm', 'links', 'list', '--tag', 'sql', '--json'], { env: serve.env });
    expect((JSON.parse(sql.stdout) as unknown[]).length).toBeGreaterThan(3);
  });

  it('runs a pipeline fed from the shipped file whose view changes on ingest', async () => {
    expect(demoEvent.pipeline).toEqual({ name: 'shop', status: 'Running' });
    const before = await ops(['pipe', 'snapshot', 'shop', 'revenue_by_product', '--json'], { env: serve.env });
    expect(before.exitCode).toBe(0);
    const rows = JSON.parse(before.stdout) as unknown[];
    expect(rows.length).toBe(6);
    // the README's ad-hoc query
    const query = await ops(['pipe', 'query', 'shop', 'SELECT product, revenue FROM revenue_by_product WHERE revenue > 100', '--json'], { env: serve.env });
    expect(query.exitCode, query.stderr).toBe(0);
    const big = JSON.parse(query.stdout) as { PRODUCT: string; REVENUE: string }[];
    expect(big.length).toBeGreaterThan(0);
    expect(big.every((r) => Number(r.REVENUE) > 100)).toBe(true);
    const watchersBefore = await watchers('shop');
    const watch = execa('node', [BIN, 'pipe', 'watch', 'shop', 'revenue_by_product', '--count', '2'], { env: serve.env, extendEnv: false, reject: false });
    // one order once the watcher's stream is open (the pipeline's stats list it): it sees the change
    const deadline = Date.now() + 30_000;
    while ((await watchers('shop')) === watchersBefore && Date.now() < deadline && watch.exitCode === null) await new Promise((r) => setTimeout(r, 25));
    const order = { id: 1000, customer: 'ada', product: 'laptop', quantity: 1, amount: '1299.00', placed_at: '2026-11-22 10:00:00' };
    const ingest = await ops(['pipe', 'ingest', 'shop', 'orders', '-', '--wait'], { env: serve.env, input: JSON.stringify(order) + '\n' });
    expect(ingest.exitCode).toBe(0);
    const watched = await watch;
    expect(watched.exitCode).toBe(0);
    const changes = String(watched.stdout)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { view: string; insert?: { PRODUCT: string }; delete?: { PRODUCT: string } });
    expect(changes).toHaveLength(2);
    expect(changes.find((c) => c.delete)?.delete?.PRODUCT).toBe('laptop');
    expect(changes.find((c) => c.insert)?.insert?.PRODUCT).toBe('laptop');
  });

  it('registers a webhook for ops hook serve and stores its secret in the local profile', async () => {
    expect(demoEvent.webhook.url).toBe('http://127.0.0.1:8701/');
    const hooks = await ops(['hook', 'list', '--json'], { env: serve.env });
    expect(JSON.parse(hooks.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id: demoEvent.webhook.id })]));
    const secret = await ops(['config', 'get', 'hook.secret', '--show-secret'], { env: serve.env });
    expect(secret.exitCode).toBe(0);
    expect(secret.stdout.length).toBeGreaterThan(10);
  });
});
