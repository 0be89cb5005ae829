/**
 * `ops bm` end to end: the built binary against `ops serve`, each command piped (TSV), on a terminal
 * (table, words, relative times) and with --json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type ServeHandle } from '../helpers/cli.js';
import { bmRunner, plain, startBookmarks, tty } from './bm-helpers.js';

let serve: ServeHandle;
let target: Server;
let targetUrl: string;
const bm = bmRunner(() => serve.env);

beforeAll(async () => {
  serve = await startBookmarks();
  target = createServer((req, res) => {
    if (req.url === '/moved') res.writeHead(301, { location: '/ok' }).end();
    else if (req.url === '/gone') res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>ok</title>');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await serve?.stop();
  await new Promise((r) => target?.close(r));
});

const json = <T = any>(stdout: string): T => JSON.parse(stdout) as T;

describe('links', () => {
  test('add: terminal shows a success line and the link; --json the API object; tags and lists by name', async () => {
    const t = await tty(['bm', 'links', 'add', 'https://example.org/one', '--title', 'Première — 一', '--tag', 'docs', '--list', 'Reading', '--create-missing', '--visibility', 'internal'], serve.env);
    expect(t.exitCode, t.output).toBe(0);
    const out = plain(t.output);
    expect(out).toContain('✓ added link');
    expect(out).toMatch(/visibility\s+internal/);
    expect(out).toMatch(/tags\s+docs/);
    expect(out).toMatch(/lists\s+Reading/);
    expect(out).toMatch(/created\s+just now/);

    const r = await bm(['links', 'add', 'https://example.org/two', '--title', 'Two', '--description', 'second one', '--tag', 'docs', '--visibility', '1', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ url: 'https://example.org/two', title: 'Two', visibility: 1, tags: [{ name: 'docs' }] });
    expect(r.stderr).not.toContain('added link'); // --json: stdout is the object, no chatter needed
  });

  test('add: a saved URL is refused without a terminal (exit 1), --force skips the check', async () => {
    const r = await bm(['links', 'add', 'https://example.org/two']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('already saved');
    expect(r.stderr).toContain('--force');
    const bad = await bm(['links', 'add', 'https://example.org/three', '--tag', 'nope']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('no tag named "nope"');
    const vis = await bm(['links', 'add', 'https://example.org/three', '--visibility', 'secret']);
    expect(vis.exitCode).toBe(2);
    expect(vis.stderr).toContain('Allowed choices are public, internal, private, 1, 2, 3');
    const notUrl = await bm(['links', 'add', 'example dot org']);
    expect(notUrl.exitCode).toBe(2);
  });

  test('add on a terminal: a saved URL asks first; "n" creates nothing, "y" lets the server decide', async () => {
    const no = await tty(['bm', 'links', 'add', 'https://example.org/two'], serve.env, 120, 'n\r');
    expect(no.exitCode).toBe(1);
    expect(plain(no.output)).toContain('Create another link with the same URL?');
    expect(plain(no.output)).toContain('not created: the URL is already saved');
    const yes = await tty(['bm', 'links', 'add', 'https://example.org/two'], serve.env, 120, 'y\r');
    expect(yes.exitCode).toBe(1);
    expect(plain(yes.output)).toContain('url: The url has already been taken.');
  });

  test('list: TSV piped, a table with words and relative times on a terminal, a JSON array', async () => {
    const piped = await bm(['links', 'list']);
    expect(piped.exitCode).toBe(0);
    const rows = piped.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.slice(1, 5)).toEqual(['Two', 'https://example.org/two', 'public', 'ok']);
    expect(rows[0]![5]).toMatch(/^\d{4}-\d\d-\d\dT/);

    const t = await tty(['bm', 'links', 'list'], serve.env);
    const lines = plain(t.output).trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+URL\s+VISIBILITY\s+STATUS\s+CREATED$/);
    expect(lines[1]).toMatch(/Two\s+example\.org\/two\s+public\s+ok\s+(just now|\d+s ago|\dm ago)/);
    expect(lines[2]).toMatch(/Première — 一\s+example\.org\/one\s+internal/);

    const j = await bm(['links', 'list', '--json']);
    expect(json<unknown[]>(j.stdout)).toHaveLength(2);
  });

  test('list on a narrow terminal shortens titles and URLs to fit', async () => {
    await bm(['links', 'add', `https://example.org/${'very-long-path-segment/'.repeat(6)}`, '--title', 'A title that goes on and on and on for quite a while', '--force']);
    const t = await tty(['bm', 'links', 'list'], serve.env, 70);
    for (const line of plain(t.output).trim().split('\n')) expect([...line].length).toBeLessThanOrEqual(70);
    expect(plain(t.output)).toContain('…');
  });

  test('list filters: tag, list, visibility, query, --limit, --all, sort', async () => {
    const byTag = await bm(['links', 'list', '--tag', 'docs', '--json']);
    expect(
      json<{ url: string }[]>(byTag.stdout)
        .map((l) => l.url)
        .sort(),
    ).toEqual(['https://example.org/one', 'https://example.org/two']);
    const byList = await bm(['links', 'list', '--list', 'Reading', '--json']);
    expect(json<{ url: string }[]>(byList.stdout).map((l) => l.url)).toEqual(['https://example.org/one']);
    const pub = await bm(['links', 'list', '--visibility', 'public', '--json']);
    expect(json<{ url: string }[]>(pub.stdout).map((l) => l.url)).toEqual(['https://example.org/two']);
    const q = await bm(['links', 'list', '--query', 'second', '--json']);
    expect(json<{ url: string }[]>(q.stdout).map((l) => l.url)).toEqual(['https://example.org/two']);
    const lim = await bm(['links', 'list', '--limit', '1', '--sort', 'id', '--order', 'asc', '--json']);
    expect(json<{ url: string }[]>(lim.stdout).map((l) => l.url)).toEqual(['https://example.org/one']);
    const all = await bm(['links', 'list', '--all']);
    expect(all.stdout.split('\n')).toHaveLength(3);
    const badSort = await bm(['links', 'list', '--sort', 'colour']);
    expect(badSort.exitCode).toBe(2);
    const unknownList = await bm(['links', 'list', '--list', 'Nope']);
    expect(unknownList.exitCode).toBe(1);
  });

  test('get, edit, notes, open', async () => {
    const id = json<{ id: number }[]>((await bm(['links', 'list', '--query', 'second', '--json'])).stdout)[0]!.id;
    const get = await bm(['links', 'get', String(id)]);
    expect(get.stdout).toContain('title\tTwo');
    expect(get.stdout).toContain('visibility\tpublic');
    const t = await tty(['bm', 'links', 'get', String(id)], serve.env);
    expect(plain(t.output)).toMatch(/status\s+ok/);

    const edit = await bm(['links', 'edit', String(id), '--title', 'Two (edited)', '--add-tag', 'extra', '--create-missing', '--remove-tag', 'docs', '--visibility', 'private', '--json']);
    expect(edit.exitCode, edit.stderr).toBe(0);
    expect(json(edit.stdout)).toMatchObject({ title: 'Two (edited)', visibility: 3, tags: [{ name: 'extra' }] });
    const nothing = await bm(['links', 'edit', String(id)]);
    expect(nothing.exitCode).toBe(2);

    const note = await bm(['notes', 'add', String(id), '-'], {}, 'A note\nwith two lines\n');
    expect(note.exitCode, note.stderr).toBe(0);
    const notes = await bm(['links', 'notes', String(id), '--json']);
    expect(json<{ note: string }[]>(notes.stdout).map((n) => n.note)).toEqual(['A note\nwith two lines']);

    const dir = tempDir();
    const log = join(dir, 'opened');
    const browser = join(dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > '${log}'\n`);
    chmodSync(browser, 0o755);
    const open = await bm(['links', 'open', String(id)], { BROWSER: browser });
    expect(open.exitCode, open.stderr).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('https://example.org/two');
    const print = await bm(['links', 'open', String(id), '--print']);
    expect(print.stdout).toBe('https://example.org/two');
  });

  test('rm: refuses without a terminal or --yes (exit 2); --yes moves to the trash; unknown id exits 1', async () => {
    const add = json<{ id: number }>((await bm(['links', 'add', 'https://example.org/rm-me', '--title', 'rm', '--json'])).stdout);
    const refused = await bm(['links', 'rm', String(add.id)]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    const ok = await bm(['links', 'rm', String(add.id), '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('moved link');
    const missing = await bm(['links', 'rm', '99999', '--yes']);
    expect(missing.exitCode).toBe(1);
    const badId = await bm(['links', 'get', 'abc']);
    expect(badId.exitCode).toBe(2);
  });
});

describe('lists, tags and notes', () => {
  test('lists: add, list, get by name, edit, links, rm', async () => {
    const add = await bm(['lists', 'add', 'Later', '--description', 'for later', '--visibility', 'public', '--json']);
    expect(add.exitCode, add.stderr).toBe(0);
    const list = json<{ id: number }>(add.stdout);
    const ls = await bm(['lists', 'list']);
    expect(ls.stdout).toMatch(/\tLater\tfor later\tpublic\t/);
    const t = await tty(['bm', 'lists', 'list'], serve.env);
    expect(plain(t.output)).toMatch(/^ID\s+NAME\s+DESCRIPTION\s+VISIBILITY\s+CREATED/);
    const get = await bm(['lists', 'get', 'Later', '--json']);
    expect(json(get.stdout)).toMatchObject({ id: list.id, name: 'Later', description: 'for later' });
    const edit = await bm(['lists', 'edit', String(list.id), '--name', 'Much later', '--json']);
    expect(json(edit.stdout)).toMatchObject({ name: 'Much later', description: 'for later', visibility: 1 });
    const links = await bm(['lists', 'links', 'Reading', '--json']);
    expect(json<{ url: string }[]>(links.stdout).map((l) => l.url)).toEqual(['https://example.org/one']);
    const rm = await bm(['lists', 'rm', 'Much later', '--yes']);
    expect(rm.exitCode, rm.stderr).toBe(0);
    expect((await bm(['lists', 'get', 'Much later'])).exitCode).toBe(1);
  });

  test('tags: add, list, edit, links, rm; a tag has no description', async () => {
    const add = await bm(['tags', 'add', 'café', '--json']);
    expect(add.exitCode, add.stderr).toBe(0);
    const ls = await bm(['tags', 'list', '--all', '--json']);
    expect(json<{ name: string }[]>(ls.stdout).map((t) => t.name)).toContain('café');
    expect((await bm(['tags', 'add', 'x', '--description', 'no'])).exitCode).toBe(2);
    const edit = await bm(['tags', 'edit', 'café', '--visibility', 'internal', '--json']);
    expect(json(edit.stdout)).toMatchObject({ name: 'café', visibility: 2 });
    const links = await bm(['tags', 'links', 'docs']);
    expect(links.stdout).toContain('https://example.org/one');
    expect((await bm(['tags', 'rm', 'café', '--yes'])).exitCode).toBe(0);
  });

  test('notes: add with an argument, edit, rm', async () => {
    const linkId = json<{ id: number }[]>((await bm(['links', 'list', '--list', 'Reading', '--json'])).stdout)[0]!.id;
    const add = await bm(['notes', 'add', String(linkId), 'first', '--visibility', 'private', '--json']);
    expect(add.exitCode, add.stderr).toBe(0);
    const note = json<{ id: number }>(add.stdout);
    const edit = await bm(['notes', 'edit', String(note.id), 'changed']);
    expect(edit.stdout).toContain('note\tchanged');
    const empty = await bm(['notes', 'add', String(linkId), '  ']);
    expect(empty.exitCode).toBe(2);
    expect((await bm(['notes', 'rm', String(note.id)])).exitCode).toBe(2);
    expect((await bm(['notes', 'rm', String(note.id), '--yes'])).exitCode).toBe(0);
  });
});

describe('search', () => {
  test('links by query with title/description switches, by tag, broken only; tags and lists by name', async () => {
    const r = await bm(['search', 'première', '--json']);
    expect(json<{ url: string }[]>(r.stdout).map((l) => l.url)).toEqual(['https://example.org/one']);
    const urlOnly = await bm(['search', 'première', '--url-only', '--json']);
    expect(json<unknown[]>(urlOnly.stdout)).toEqual([]);
    const t = await tty(['bm', 'search', 'example.org/one'], serve.env);
    expect(plain(t.output)).toMatch(/TAGS/);
    expect(plain(t.output)).toMatch(/docs/);
    const tags = await bm(['search', 'doc', '--type', 'tags']);
    expect(tags.stdout).toMatch(/^\d+\tdocs$/);
    const lists = await bm(['search', 'read', '--type', 'lists', '--json']);
    expect(json<{ name: string }[]>(lists.stdout).map((l) => l.name)).toEqual(['Reading']);
    const none = await bm(['search']);
    expect(none.exitCode).toBe(2);
  });
});

describe('bulk', () => {
  test('add from CSV: per-item report, local failures named, existing URLs skipped, exit 1 when any failed', async () => {
    const dir = tempDir();
    const csv = join(dir, 'links.csv');
    writeFileSync(
      csv,
      'url,title,tags,visibility\nhttps://bulk.example/1,"One, quoted",bulk,public\nnot a url,Bad,,\nhttps://example.org/one,Exists,,\nhttps://bulk.example/2,Two,"bulk,more",secret\nhttps://bulk.example/3,Three,,internal\n',
    );
    const r = await bm(['bulk', 'add', csv, '--create-missing']);
    expect(r.exitCode).toBe(1);
    const rows = r.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows.map((x) => x.slice(0, 2))).toEqual([
      ['1', 'created'],
      ['2', 'failed'],
      ['3', 'skipped'],
      ['4', 'failed'],
      ['5', 'created'],
    ]);
    expect(rows[3]![4]).toContain('visibility');
    expect(r.stderr).toContain('2 of 5 items failed');
  });

  test('add NDJSON from stdin with --json; edit by id; rm by id', async () => {
    const add = await bm(['bulk', 'add', '-', '--json'], {}, '{"url":"https://bulk.example/4","title":"Four"}\n{"url":"https://bulk.example/5","title":"Five","visibility":"private"}\n');
    expect(add.exitCode, add.stderr).toBe(0);
    const rows = json<{ status: string; id: number }[]>(add.stdout);
    expect(rows.map((x) => x.status)).toEqual(['created', 'created']);
    const edit = await bm(['bulk', 'edit', '-', '--json'], {}, JSON.stringify([{ id: rows[0]!.id, title: 'Four!' }, { id: 999999, title: 'x' }, { title: 'no id' }]));
    expect(edit.exitCode).toBe(1);
    expect(json<{ status: string }[]>(edit.stdout).map((x) => x.status)).toEqual(['updated', 'not found', 'failed']);
    expect(json((await bm(['links', 'get', String(rows[0]!.id), '--json'])).stdout)).toMatchObject({ title: 'Four!' });
    const rmRefused = await bm(['bulk', 'rm', '-'], {}, `${rows[0]!.id}\n`);
    expect(rmRefused.exitCode).toBe(2);
    const rm = await bm(['bulk', 'rm', '-', '--yes', '--format', 'ndjson'], {}, `${rows[0]!.id}\n${rows[1]!.id}\n`);
    expect(rm.exitCode, rm.stderr).toBe(0);
    expect(rm.stdout.split('\n').map((l) => l.split('\t')[1])).toEqual(['deleted', 'deleted']);
  });

  test('bulk add tags; bad input is a usage error', async () => {
    const r = await bm(['bulk', 'add', '-', '--type', 'tags', '--json'], {}, '[{"name":"bulk-t1"},{"name":"bulk-t2","visibility":"public"}]');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json<{ status: string }[]>(r.stdout).map((x) => x.status)).toEqual(['created', 'created']);
    const bad = await bm(['bulk', 'add', '-'], {}, '[{"url":');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not valid JSON');
  });
});

describe('trash', () => {
  test('list (all types, terminal and piped), restore, clear with confirmation', async () => {
    const piped = await bm(['trash', 'list']);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^link\t\d+\t/m);
    const t = await tty(['bm', 'trash', 'list'], serve.env);
    expect(plain(t.output)).toMatch(/TYPE\s+ID\s+NAME\s+DELETED/);
    expect(plain(t.output)).toMatch(/ago|just now/);
    const j = json<Record<string, { id: number }[]>>((await bm(['trash', 'list', '--json'])).stdout);
    expect(Object.keys(j)).toEqual(['links', 'lists', 'tags', 'notes']);
    const id = j.links![0]!.id;
    expect((await bm(['trash', 'restore', 'link', String(id)])).exitCode).toBe(0);
    expect((await bm(['links', 'get', String(id)])).exitCode).toBe(0);
    expect((await bm(['trash', 'restore', 'shoe', '1'])).exitCode).toBe(2);
    expect((await bm(['trash', 'clear'])).exitCode).toBe(2);
    const cleared = await bm(['trash', 'clear', '--yes', '--json']);
    expect(cleared.exitCode, cleared.stderr).toBe(0);
    expect(json((await bm(['trash', 'list', '--json'])).stdout)).toEqual({ links: [], lists: [], tags: [], notes: [] });
  });
});

describe('check and version', () => {
  test('check runs the server health check and shows moved and broken links', async () => {
    for (const p of ['ok', 'moved', 'gone']) {
      const r = await bm(['links', 'add', `${targetUrl}/${p}`, '--title', `target ${p}`]);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const r = await bm(['check', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = json<{ url: string; status: number }[]>(r.stdout).filter((x) => x.url.startsWith(targetUrl));
    expect(rows.map((x) => [x.url.replace(targetUrl, ''), x.status]).sort()).toEqual([
      ['/gone', 3],
      ['/moved', 2],
    ]);
    const broken = await bm(['check', '--broken']);
    expect(broken.stdout).toContain(`${targetUrl}/gone`);
    expect(broken.stdout).not.toContain('/moved');
    expect(broken.stderr).toMatch(/checked \d+ links?: \d+ ok, 1 moved, \d+ broken/);
    const t = await tty(['bm', 'check'], serve.env);
    expect(plain(t.output)).toMatch(/target gone\s+127\.0\.0\.1:\d+\/gone\s+\w+\s+broken/);
  });

  test('version names the server kind and what it offers', async () => {
    const r = await bm(['version', '--json']);
    expect(json(r.stdout)).toMatchObject({ api_version: '2.0', flavor: 'ops', health_check: true });
    const t = await bm(['version']);
    expect(t.stdout).toContain('server kind\tops serve');
  });

  test('a bad token exits 4', async () => {
    const r = await bm(['links', 'list'], { OPS_BM_TOKEN: 'nope' });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('ops auth login bm');
  });
});
