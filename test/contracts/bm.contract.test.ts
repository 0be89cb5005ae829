/**
 * `ops bm`'s requests against LinkAce's v2 contract (linkace-v2.contract.json, a subset written from the
 * published LinkAce-API.v2.yaml): the commands run in-process against the LinkAce stand-in, and every request
 * they made is checked against the contract.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../src/context.js';
import { runLinksAdd, runLinksEdit, runLinksGet, runLinksList, runLinksRm } from '../../src/commands/bm/links.js';
import { runCollectionsAdd, runCollectionsEdit, runCollectionsGet, runCollectionsList, runCollectionsRm } from '../../src/commands/bm/collections.js';
import { runSearch } from '../../src/commands/bm/search.js';
import { runCheck } from '../../src/commands/bm/check.js';
import { runBulkAdd, runBulkEdit, runBulkRm } from '../../src/commands/bm/bulk.js';
import { runTrashClear, runTrashList, runTrashRestore } from '../../src/commands/bm/trash.js';
import { runExport } from '../../src/commands/bm/transfer.js';
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
    await run((ctx) => runLinksList({ limit: '5' }, ctx));
    await run((ctx) => runLinksList({ all: true, sort: 'title', order: 'desc' }, ctx));
    await run((ctx) => runLinksGet({ id: '1' }, ctx));
    await run((ctx) => runLinksAdd({ url: 'https://contract.example/a', tag: ['contract'], createMissing: true }, ctx));
    await run((ctx) => runLinksEdit({ id: '1', title: 'Y' }, ctx));
    await run((ctx) => runLinksEdit({ id: '1', description: '' }, ctx));
    await run((ctx) => runLinksEdit({ id: '2', checkEnabled: true, visibility: 'public' }, ctx));
    await run((ctx) => runLinksList({ tag: ['contract'] }, ctx));
    await run((ctx) => runSearch({ query: 'seed', title: true, description: true }, ctx));
    await run((ctx) => runSearch({ broken: true }, ctx));
    await run((ctx) => runCheck({ broken: true }, ctx));
    await run((ctx) => runCheck({ url: 'https://seed1.example/' }, ctx).catch(() => undefined));
    for (const kind of ['lists', 'tags'] as const) {
      await run((ctx) => runCollectionsAdd({ kind, name: `${kind}-one`, ...(kind === 'lists' ? { description: 'd' } : {}) }, ctx));
      await run((ctx) => runCollectionsList({ kind, all: true }, ctx));
      await run((ctx) => runCollectionsGet({ kind, ref: `${kind}-one` }, ctx));
      await run((ctx) => runCollectionsEdit({ kind, ref: `${kind}-one`, visibility: 'internal' }, ctx));
      if (kind === 'lists') await run((ctx) => runCollectionsEdit({ kind, ref: `${kind}-one`, description: '' }, ctx));
      await run((ctx) => runCollectionsRm({ kind, refs: [`${kind}-one`] }, ctx));
    }
    const csv = join(dir, 'links.csv');
    writeFileSync(csv, 'url,title,description,tags\nhttps://bulk.example/1,One,,contract\nhttps://bulk.example/2,Two,text,\n');
    await run((ctx) => runBulkAdd({ file: csv, type: 'links' }, ctx));
    const edits = join(dir, 'edits.csv');
    writeFileSync(edits, 'id,title,description\n1,Z,\n');
    await run((ctx) => runBulkEdit({ file: edits, type: 'links' }, ctx));
    await run((ctx) => runLinksRm({ ids: ['3'] }, ctx));
    const ids = join(dir, 'ids.txt');
    writeFileSync(ids, '4\n5\n');
    await run((ctx) => runBulkRm({ file: ids, type: 'links' }, ctx));
    await run((ctx) => runTrashList({}, ctx));
    await run((ctx) => runTrashRestore({ type: 'link', ids: ['3'] }, ctx));
    await run((ctx) => runTrashClear({ type: 'links' }, ctx));
    await run((ctx) => runExport({ output: join(dir, 'out.html') }, ctx));
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
      await runLinksAdd({ url: 'https://no-check.example/' }, ctx);
      expect(la.requests.some((r) => r.path === '/api/v2/links/check')).toBe(true);
      expect(la.links.some((l) => l.url === 'https://no-check.example/')).toBe(true);
      expect(io.stderrText()).not.toMatch(/error/i);
      // the search stands in for the check: the same URL again is known as saved
      // (in a script: without --yes a duplicate is refused)
      await expect(runLinksAdd({ url: 'https://no-check.example/' }, context(la, { yes: false }).ctx)).rejects.toThrow(/already saved/);
      expect(la.links.filter((l) => l.url === 'https://no-check.example/')).toHaveLength(1);
      expect(violations(la)).toEqual([]);
    } finally {
      await la.close();
    }
  });
});
