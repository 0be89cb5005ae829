/**
 * `ops bm`'s requests against LinkAce's v2 contract (linkace-v2.contract.json, a subset written from the
 * published LinkAce-API.v2.yaml): the commands run in-process against the LinkAce stand-in, and every request
 * they made is checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../src/context.js';
import { linksAdd, linksEdit, linksGet, linksList, linksRemove } from '../../src/commands/bm/links.js';
import { collectionsAdd, collectionsEdit, collectionsGet, collectionsList, collectionsRemove } from '../../src/commands/bm/collections.js';
import { search } from '../../src/commands/bm/search.js';
import { check } from '../../src/commands/bm/check.js';
import { bulkAdd, bulkEdit, bulkRemove } from '../../src/commands/bm/bulk.js';
import { trashClear, trashList, trashRestore } from '../../src/commands/bm/trash.js';
import { exportAll } from '../../src/commands/bm/transfer.js';
import { tempDir } from '../helpers/cli.js';
import { memoryIo } from '../helpers/memory-io.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../clients/bookmarks/linkace-server.js';
import { ContractChecker } from './openapi-check.js';

const contract = new ContractChecker(JSON.parse(readFileSync(join(import.meta.dirname, 'linkace-v2.contract.json'), 'utf8')));
const dir = tempDir('ops-bm-contract-');

function context(la: FakeLinkAce, options: { yes?: boolean } = {}) {
  const env = { OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
  const io = memoryIo({ env });
  return { ctx: new Context({ json: true, yes: options.yes ?? true }, env, io), io };
}

function wireBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  const raw = (body as { _raw?: unknown })._raw;
  return typeof raw === 'string' ? raw : JSON.stringify(body);
}

function violations(la: FakeLinkAce): string[] {
  return la.requests.flatMap((r) => contract.check({ method: r.method, path: r.path, query: r.query, body: wireBody(r.body), contentType: r.contentType }));
}

describe('ops bm against the LinkAce v2 contract', () => {
  let la: FakeLinkAce;
  beforeAll(async () => {
    la = await startFakeLinkAce({ links: 30 });
    la.links[2]!.status = 3;
    const run = (f: (ctx: Context) => Promise<void>) => f(context(la).ctx);
    await run((ctx) => linksList(ctx, { limit: '5' }));
    await run((ctx) => linksList(ctx, { all: true, sort: 'title', order: 'desc' }));
    await run((ctx) => linksGet(ctx, '1'));
    await run((ctx) => linksAdd(ctx, 'https://contract.example/a', { tag: ['contract'], createMissing: true }));
    await run((ctx) => linksEdit(ctx, '1', { title: 'Y' }));
    await run((ctx) => linksEdit(ctx, '1', { description: '' }));
    await run((ctx) => linksEdit(ctx, '2', { checkEnabled: true, visibility: 'public' }));
    await run((ctx) => linksList(ctx, { tag: ['contract'] }));
    await run((ctx) => search(ctx, 'seed', { title: true, description: true }));
    await run((ctx) => search(ctx, undefined, { broken: true }));
    await run((ctx) => check(ctx, undefined, { broken: true }));
    await run((ctx) => check(ctx, 'https://seed1.example/', {}).catch(() => undefined));
    for (const kind of ['lists', 'tags'] as const) {
      await run((ctx) => collectionsAdd(ctx, kind, `${kind}-one`, kind === 'lists' ? { description: 'd' } : {}));
      await run((ctx) => collectionsList(ctx, kind, { all: true }));
      await run((ctx) => collectionsGet(ctx, kind, `${kind}-one`));
      await run((ctx) => collectionsEdit(ctx, kind, `${kind}-one`, { visibility: 'internal' }));
      if (kind === 'lists') await run((ctx) => collectionsEdit(ctx, kind, `${kind}-one`, { description: '' }));
      await run((ctx) => collectionsRemove(ctx, kind, [`${kind}-one`]));
    }
    const csv = join(dir, 'links.csv');
    writeFileSync(csv, 'url,title,description,tags\nhttps://bulk.example/1,One,,contract\nhttps://bulk.example/2,Two,text,\n');
    await run((ctx) => bulkAdd(ctx, csv, { type: 'links' }));
    const edits = join(dir, 'edits.csv');
    writeFileSync(edits, 'id,title,description\n1,Z,\n');
    await run((ctx) => bulkEdit(ctx, edits, { type: 'links' }));
    await run((ctx) => linksRemove(ctx, ['3']));
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, '4\n5\n');
    await run((ctx) => bulkRemove(ctx, ids, { type: 'links' }));
    await run((ctx) => trashList(ctx, {}));
    await run((ctx) => trashRestore(ctx, 'link', ['3']));
    await run((ctx) => trashClear(ctx, { type: 'links' }));
    await run((ctx) => exportAll(ctx, { output: join(dir, 'out.html') }));
  }, 60_000);
  afterAll(() => la.close());

  test('every request of every command is within the contract', () => {
    expect(la.requests.length).toBeGreaterThan(30);
    expect(violations(la)).toEqual([]);
  });

  test('edits send the changed fields with url, tags and lists, never null for a string', () => {
    const patches = la.requests.filter((r) => r.method === 'PATCH' && /^\/api\/v2\/links\/\d+$/.test(r.path)).map((r) => r.body as Record<string, unknown>);
    expect(patches[0]).toEqual({ url: expect.any(String), tags: expect.any(Array), lists: expect.any(Array), title: 'Y' });
    expect(patches[1]).toMatchObject({ description: '' });
    expect(Object.keys(patches[1]!).sort()).toEqual(['description', 'lists', 'tags', 'url']);
    expect(patches[2]).toMatchObject({ check_disabled: false, visibility: 1 });
    expect(patches.flatMap((b) => Object.values(b)).includes(null)).toBe(false);
  });

  test('search sends query always and flags as true', () => {
    const searches = la.requests.filter((r) => r.path === '/api/v2/search/links');
    expect(searches.every((r) => r.query.has('query'))).toBe(true);
    const titled = searches.find((r) => r.query.get('query') === 'seed')!;
    expect([titled.query.get('search_title'), titled.query.get('search_description')]).toEqual(['true', 'true']);
    const broken = searches.filter((r) => r.query.get('broken_only') !== null);
    expect(broken.length).toBeGreaterThanOrEqual(2);
    for (const r of broken) expect([r.query.get('query'), r.query.get('broken_only')]).toEqual(['', 'true']);
  });
});

describe('a LinkAce without links/check', () => {
  test('links add goes on quietly when the duplicate check is missing (404), finding duplicates by search', async () => {
    const la = await startFakeLinkAce({ links: 2, linkCheck: false });
    try {
      const { ctx, io } = context(la);
      await linksAdd(ctx, 'https://no-check.example/', {});
      expect(la.requests.some((r) => r.path === '/api/v2/links/check')).toBe(true);
      expect(la.links.some((l) => l.url === 'https://no-check.example/')).toBe(true);
      expect(io.stderrText()).not.toMatch(/error/i);
      // the search stands in for the check: the same URL again is known as saved
      // (in a script: without --yes a duplicate is refused)
      await expect(linksAdd(context(la, { yes: false }).ctx, 'https://no-check.example/', {})).rejects.toThrow(/already saved/);
      expect(la.links.filter((l) => l.url === 'https://no-check.example/')).toHaveLength(1);
      expect(violations(la)).toEqual([]);
    } finally {
      await la.close();
    }
  });
});
