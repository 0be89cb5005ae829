/**
 * `ops bm` commands in-process against a real in-process `ops serve` (default settings: no rate limit given),
 * with a real counting HTTP proxy (HTTP_PROXY) between the CLI and the server: request economy, throttling,
 * and the messages a new user reads.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import { Context } from '../../../src/context.js';
import type { Io } from '../../../src/core/io.js';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import bookmarks from '../../../src/services/bookmarks/index.js';
import { runExport, readExport, readExportThroughApi } from '../../../src/commands/bm/transfer.js';
import { runLinksAdd, runLinksGet, runLinksList, runLinksRm } from '../../../src/commands/bm/links.js';
import { runTrashRestore } from '../../../src/commands/bm/trash.js';
import { bm } from '../../../src/commands/bm/shared.js';
import { startCountingProxy, type CountingProxy } from '../../helpers/counting-proxy.js';
import { tempDir } from '../../helpers/cli.js';

let server: RunningServer;
let proxy: CountingProxy;
let token: string;
const savedRateLimit = process.env.API_RATE_LIMIT;

beforeAll(async () => {
  delete process.env.API_RATE_LIMIT;
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-economy-'), fetchMetadata: false, linkCheck: false }, [bookmarks]);
  token = server.credentials.bmToken!;
  proxy = await startCountingProxy();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
  if (savedRateLimit !== undefined) process.env.API_RATE_LIMIT = savedRateLimit;
});

function makeCtx(opts: { json?: boolean; yes?: boolean } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const env = { OPS_BM_URL: server.url, OPS_BM_TOKEN: token, OPS_CONFIG_DIR: tempDir('ops-cfg-'), HTTP_PROXY: proxy.url };
  const io: Io = { stdin: new PassThrough(), stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: Number.MAX_SAFE_INTEGER, env };
  return { ctx: new Context({ json: opts.json, yes: opts.yes }, env, io), out: () => out, err: () => err };
}

/** Links straight through the API (not counted): `n` links over `tags` tags and `lists` lists. */
async function seed(from: number, n: number, tags: number, lists: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const res = await fetch(`${server.url}/api/v2/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url: `https://seed${i}.example/`, title: `Seed ${i}`, visibility: 1, tags: [`t${i % tags}`, `u${i % 3}`], lists: i % 2 ? [`l${i % lists}`] : [] }),
    });
    expect(res.status).toBe(200);
  }
}

describe('ops bm against a default ops serve', () => {
  test('a burst of CLI commands is never throttled on v2 (150+ requests in a few seconds, no 429)', async () => {
    proxy.reset();
    for (let i = 0; i < 40; i++) {
      const { ctx } = makeCtx({ json: true });
      await runLinksAdd({ url: `https://burst${i}.example/` }, ctx);
    }
    for (let i = 0; i < 110; i++) {
      const { ctx } = makeCtx({ json: true });
      await runLinksList({ limit: '5' }, ctx);
    }
    expect(proxy.requests.length).toBeGreaterThanOrEqual(150);
    expect(proxy.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(proxy.requests.every((r) => r.status === 200)).toBe(true);
  });

  test('ops bm export makes at most 5 requests at any size, and writes what the API says', async () => {
    const counts: number[] = [];
    for (const [n, tags, lists] of [
      [48, 28, 6],
      [300, 120, 40],
    ] as const) {
      await seed(counts.length * 1000, n, tags, lists);
      for (const format of ['json', 'html', 'csv']) {
        proxy.reset();
        const { ctx, out } = makeCtx();
        await runExport({ format }, ctx);
        counts.push(proxy.requests.length);
        expect(proxy.requests.map((r) => r.status)).not.toContain(429);
        if (format === 'json') expect(JSON.parse(out()).links.length).toBeGreaterThanOrEqual(n);
      }
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(5);
    // the one-request export and the per-collection reading through the API give the same document
    const { ctx } = makeCtx();
    const progress = { update: () => {} };
    const viaServer = await readExport(bm(ctx), progress);
    const viaApi = await readExportThroughApi(bm(ctx), progress);
    expect(viaServer.rows.length).toBeGreaterThan(340);
    expect(viaServer.rows).toEqual(viaApi.rows);
    const settings = (items: { name: string; description?: string | null; visibility?: number }[]) =>
      items.map((c) => ({ name: c.name, description: c.description ?? null, visibility: c.visibility })).sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(settings(viaServer.lists)).toEqual(settings(viaApi.lists));
    expect(settings(viaServer.tags)).toEqual(settings(viaApi.tags));
  });

  test('--tag and --list are resolved with one whole read each, not a page walk', async () => {
    proxy.reset();
    const { ctx, out } = makeCtx({ json: true });
    await runLinksList({ tag: ['t3'], list: ['l1'], limit: '100' }, ctx);
    expect(JSON.parse(out()).length).toBeGreaterThan(0);
    expect(proxy.requests.map((r) => r.path.split('?')[0])).toEqual(['/api/v2/tags', '/api/v2/lists', '/api/v2/search/links']);
  });
});

describe('messages', () => {
  test("a missing link is said in words, not in Laravel's", async () => {
    const { ctx } = makeCtx();
    await expect(runLinksGet({ id: '99999' }, ctx)).rejects.toThrow(/^link 99999 not found$/);
  });

  test('links list says how many there are when it shows a part of them (the first page, or --limit N)', async () => {
    const { ctx, err } = makeCtx();
    await runLinksList({}, ctx);
    const total = (await (await fetch(`${server.url}/api/v2/links?per_page=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { meta: { total: number } };
    expect(err()).toContain(`showing 25 of ${total.meta.total} links; --all for all of them, --limit N for more`);
    const limited = makeCtx();
    await runLinksList({ limit: '3' }, limited.ctx);
    expect(limited.err()).toContain(`showing 3 of ${total.meta.total} links; --all for all of them\n`);
    const all = makeCtx();
    await runLinksList({ limit: '100000' }, all.ctx);
    expect(all.err()).not.toContain('showing');
  });

  test('trash restore of a link that is not in the trash says so (exit 1) instead of "restored"', async () => {
    const { ctx, err } = makeCtx();
    const alive = makeCtx({ json: true });
    await runLinksAdd({ url: 'https://restore-me.example/' }, alive.ctx);
    const id = JSON.parse(alive.out()).id as number;
    await expect(runTrashRestore({ type: 'link', ids: [String(id)] }, ctx)).rejects.toThrow(`link ${id} is not in the trash`);
    expect(err()).not.toContain('restored');
    const rm = makeCtx({ yes: true });
    await runLinksRm({ ids: [String(id)] }, rm.ctx);
    const again = makeCtx();
    await runTrashRestore({ type: 'link', ids: [String(id)] }, again.ctx);
    expect(again.err()).toContain(`restored link ${id}`);
  });
});
