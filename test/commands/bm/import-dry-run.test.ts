/**
 * `ops bm import --dry-run` predicts exactly what the real run then does, and prints the same --json object:
 * through the server's importer (HTML on ops serve) and through the API (a JSON file), against a real
 * in-process ops serve, with a counting proxy to see which requests the dry run made.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../src/context.js';
import type { Io } from '../../../src/core/io.js';
import { startServer, type RunningServer } from '../../../src/services/server.js';
import bookmarks from '../../../src/services/bookmarks/index.js';
import { runImport } from '../../../src/commands/bm/transfer.js';
import { startCountingProxy, type CountingProxy } from '../../helpers/counting-proxy.js';
import { tempDir } from '../../helpers/cli.js';

let server: RunningServer;
let proxy: CountingProxy;
const dir = tempDir('ops-dry-');

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, dataDir: tempDir('ops-dry-data-'), fetchMetadata: false, linkCheck: false }, [bookmarks]);
  proxy = await startCountingProxy();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

async function run(file: string, opts: { dryRun?: boolean; clientSide?: boolean } = {}) {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const env = { OPS_BM_URL: server.url, OPS_BM_TOKEN: server.credentials.bmToken!, OPS_CONFIG_DIR: tempDir('ops-cfg-'), HTTP_PROXY: proxy.url };
  const io: Io = {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    colorOut: false,
    colorErr: false,
    columns: Number.MAX_SAFE_INTEGER,
    env,
  };
  await runImport({ file, ...opts }, new Context({ json: true }, env, io));
  return JSON.parse(out);
}

async function counts() {
  const get = async (path: string) => {
    const r = await fetch(`${server.url}${path}?per_page=0`, { headers: { authorization: `Bearer ${server.credentials.bmToken}`, accept: 'application/json' } });
    return ((await r.json()) as { data: unknown[] }).data.length;
  };
  return { links: await get('/api/v2/links'), lists: await get('/api/v2/lists'), tags: await get('/api/v2/tags') };
}

const html = (prefix: string) =>
  `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Work</H3>\n<DL><p>\n<DT><A HREF="https://${prefix}1.example/" TAGS="alpha,beta">One</A>\n<DT><A HREF="https://${prefix}2.example/">Two</A>\n<DT><A HREF="https://${prefix}1.example/">One again</A>\n<DT><A HREF="place:sort=8">Recent</A>\n</DL><p>\n<DT><H3>Play</H3>\n<DL><p>\n<DT><A HREF="https://${prefix}3.example/" TAGS="gamma">Three</A>\n</DL><p>\n</DL><p>\n`;

describe('import --dry-run', () => {
  test("through the server's importer: the dry run's object is the real run's, and the dry run changes nothing", async () => {
    const file = join(dir, 'a.html');
    writeFileSync(file, html('srv'));
    const before = await counts();
    proxy.reset();
    const dry = await run(file, { dryRun: true });
    expect(proxy.requests.find((r) => r.path.startsWith('/api/v1/import'))?.path).toBe('/api/v1/import?dry_run=1');
    expect(await counts()).toEqual(before);
    const real = await run(file);
    expect(real).toEqual({ ...dry, dry_run: false });
    expect(real).toMatchObject({ mode: 'server', found: 5, links: { created: 3, existing: 0, duplicates: 1, invalid: 1, failed: 0 }, lists: { created: 0 } });
    // the real counts: folders and TAGS became tags on the server (Work, Play, alpha, beta, gamma)
    const after = await counts();
    expect(real.tags.created).toBe(5);
    expect(after.tags - before.tags).toBe(real.tags.created);
    expect(after.links - before.links).toBe(real.links.created);
    // a second dry run predicts the second real run: nothing new
    const again = await run(file, { dryRun: true });
    expect(again).toMatchObject({ links: { created: 0, existing: 3 }, tags: { created: 0 } });
  });

  test('through the API (a JSON file, or --client-side): the same', async () => {
    const file = join(dir, 'b.json');
    writeFileSync(
      file,
      JSON.stringify({ links: [{ url: 'https://api1.example/', tags: ['alpha', 'delta'], lists: ['Reading'] }, { url: 'https://srv2.example/' }, { url: 'https://api2.example/', lists: ['Later'] }] }),
    );
    const before = await counts();
    const dry = await run(file, { dryRun: true });
    expect(await counts()).toEqual(before);
    const real = await run(file);
    expect(real).toEqual({ ...dry, dry_run: false });
    expect(real).toMatchObject({ mode: 'client', links: { created: 2, existing: 1 }, lists: { created: 2 }, tags: { created: 1 } });
    const after = await counts();
    expect([after.links - before.links, after.lists - before.lists, after.tags - before.tags]).toEqual([2, 2, 1]);
  });
});
