/**
 * Command functions run in-process with an Io whose stdout is a terminal (tables, words, relative times,
 * shortened URLs) or a pipe, against the LinkAce stand-in; plus the client's paging and the bulk engine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import { Context } from '../../../src/context.js';
import type { Io } from '../../../src/core/io.js';
import { BookmarkClient } from '../../../src/clients/bookmarks.js';
import { HttpClient } from '../../../src/core/http.js';
import { runLinksGet, runLinksList } from '../../../src/commands/bm/links.js';
import { runTrashList } from '../../../src/commands/bm/trash.js';
import { runCheck } from '../../../src/commands/bm/check.js';
import { createMany } from '../../../src/commands/bm/create-many.js';
import { NameResolver } from '../../../src/commands/bm/shared.js';
import { relativeTime, shortUrl } from '../../../src/commands/bm/format.js';
import { runCollectionsGet } from '../../../src/commands/bm/collections.js';
import { tempDir } from '../../helpers/cli.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../../clients/bookmarks/linkace-server.js';

let la: FakeLinkAce;

beforeAll(async () => {
  la = await startFakeLinkAce({ links: 60 });
  la.links[0]!.title = 'A very long title that certainly will not fit into a narrow terminal at all';
  la.links[0]!.url = 'https://www.example.com/' + 'segment/'.repeat(10);
  la.links[0]!.created_at = new Date(Date.now() - 3 * 86400_000).toISOString();
});
afterAll(() => la.close());

function makeCtx(opts: { tty: boolean; columns?: number; json?: boolean }) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const env = { OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
  const io: Io = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    stdinIsTTY: opts.tty,
    stdoutIsTTY: opts.tty,
    stderrIsTTY: false,
    colorOut: false,
    colorErr: false,
    columns: opts.columns ?? (opts.tty ? 100 : Number.MAX_SAFE_INTEGER),
    env,
  };
  const ctx = new Context({ json: opts.json }, env, io);
  return { ctx, out: () => out, err: () => err };
}

describe('terminal output', () => {
  test('links list: headers, words, relative times, short URLs, fitted to the width', async () => {
    const { ctx, out } = makeCtx({ tty: true, columns: 80 });
    await runLinksList({ sort: 'id', order: 'asc', limit: '3' }, ctx);
    const lines = out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+URL\s+VISIBILITY\s+STATUS\s+CREATED$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^1\s+A very long.*…\s+example\.com\/segment.*…\s+public\s+ok\s+3d ago$/);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
    expect(lines[2]).toMatch(/Seed 2\s+seed2\.example\/\s+public\s+ok\s+(just now|\d+s ago)/);
  });

  test('the same list piped: full values and ISO times', async () => {
    const { ctx, out } = makeCtx({ tty: false });
    await runLinksList({ sort: 'id', order: 'asc', limit: '1' }, ctx);
    expect(out()).toBe(`1\t${la.links[0]!.title}\t${la.links[0]!.url}\tpublic\tok\t${la.links[0]!.created_at}\n`);
  });

  test('links get: labelled fields', async () => {
    const { ctx, out } = makeCtx({ tty: true });
    await runLinksGet({ id: '5' }, ctx);
    expect(out()).toMatch(/^id\s+5$/m);
    expect(out()).toMatch(/^status\s+broken$/m);
    expect(out()).toMatch(/^visibility\s+public$/m);
  });

  test('check on LinkAce: a table of broken links and a note on stderr', async () => {
    const { ctx, out, err } = makeCtx({ tty: true });
    await runCheck({ broken: true }, ctx);
    expect(err()).toContain('own schedule');
    expect(
      out()
        .split('\n')
        .filter((l) => /\sbroken\s/.test(l)),
    ).toHaveLength(12);
  });

  test('a tag named like a number is found by that name when no such id exists', async () => {
    const { ctx, out } = makeCtx({ tty: false, json: true });
    await new BookmarkClient(ctx.http('bm')).createCollection('tags', { name: '2024' });
    await runCollectionsGet({ kind: 'tags', ref: '2024' }, ctx);
    expect(JSON.parse(out())).toMatchObject({ name: '2024' });
  });

  test('an empty trash says so on a terminal and prints nothing', async () => {
    const { ctx, out, err } = makeCtx({ tty: true });
    await runTrashList({ type: 'tags' }, ctx);
    expect(out()).toBe('');
    expect(err()).toContain('The trash is empty.');
  });
});

describe('client paging and helpers', () => {
  const client = () => new BookmarkClient(new HttpClient({ baseUrl: la.url, authorization: `Bearer ${TOKEN}`, serviceName: 'bookmark service' }));

  test('a limit larger than a page with --all stops exactly at the limit', async () => {
    const got: number[] = [];
    for await (const chunk of client().links({ order_by: 'id', order_dir: 'asc' }, { all: true, limit: 45, perPage: 20 })) got.push(...chunk.map((l) => l.id));
    expect(got).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  });

  test('without --all one page of the limit', async () => {
    const chunks: number[] = [];
    for await (const chunk of client().links({}, { limit: 10 })) chunks.push(chunk.length);
    expect(chunks).toEqual([10]);
  });

  test('detect: LinkAce without /api/version', async () => {
    expect(await client().detect()).toEqual({ version: null, flavor: 'linkace', serverImport: false, healthCheck: false, v1: false });
  });

  test('names: exact, then case-insensitive, then a numeric id; create only when asked', async () => {
    const c = client();
    const tag = await c.createCollection('tags', { name: 'Mixed Case' });
    const r = new NameResolver(c);
    expect(await r.ids('tags', ['mixed case'])).toEqual([tag.id]);
    expect(await r.ids('tags', [String(tag.id)])).toEqual([tag.id]);
    await expect(r.ids('tags', ['absent'])).rejects.toMatchObject({ hint: expect.stringContaining('--create-missing') });
    const creating = new NameResolver(c, { create: true });
    const [id] = await creating.ids('tags', ['absent']);
    expect(creating.created.map((x) => x.tag.name)).toEqual(['absent']);
    expect(la.tags.find((t) => t.id === id)!.name).toBe('absent');
  });

  test('bulk create: items the server refuses (models.N.field) fail alone, the rest are created', async () => {
    const models = [
      { url: 'https://bulk-a.example/', visibility: 1 },
      { url: 'https://bulk-b.example/' }, // LinkAce's bulk store requires visibility
      { url: 'https://bulk-c.example/', visibility: 2 },
    ];
    const progress: number[] = [];
    const res = await createMany(client(), 'links', models, { onProgress: (n) => progress.push(n) });
    expect(res.map((r) => r.ok)).toEqual([true, false, true]);
    expect(res[1]!.error).toContain('visibility');
    expect(progress.at(-1)).toBe(3);
  });

  test('relativeTime (one compact style in every tree) and shortUrl', () => {
    const now = Date.parse('2024-01-10T12:00:00Z');
    expect(relativeTime('2024-01-10T11:59:50Z', now)).toBe('10s ago');
    expect(relativeTime('2024-01-10T11:59:58Z', now)).toBe('just now');
    expect(relativeTime('2024-01-10T11:55:00Z', now)).toBe('5m ago');
    expect(relativeTime('2024-01-10T11:00:00Z', now)).toBe('1h ago');
    expect(relativeTime('2024-01-09T12:00:00Z', now)).toBe('1d ago');
    expect(relativeTime('2024-01-07T12:00:00.000000Z', now)).toBe('3d ago');
    expect(relativeTime('2023-11-10T12:00:00Z', now)).toBe('2mo ago');
    expect(relativeTime('2021-01-10T12:00:00Z', now)).toBe('3y ago');
    expect(relativeTime('2024-01-12T12:00:00Z', now)).toBe('in 2d');
    expect(relativeTime(null, now)).toBe('');
    expect(relativeTime('garbage', now)).toBe('garbage');
    expect(shortUrl('https://www.example.com/a')).toBe('example.com/a');
    expect(shortUrl('ftp://x')).toBe('ftp://x');
  });
});
