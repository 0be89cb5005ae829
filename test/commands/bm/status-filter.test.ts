/**
 * `ops bm links list --status S`: the API has no status filter, so rows are filtered here and pages are
 * read until --limit rows match; `--status ok` is not a search (LinkAce refuses a search with no criterion).
 * Plus small argument checks of the list and rm verbs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import { Context } from '../../../src/context.js';
import type { Io } from '../../../src/core/io.js';
import { runLinksList } from '../../../src/commands/bm/links.js';
import { tempDir } from '../../helpers/cli.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../../clients/bookmarks/linkace-server.js';

let la: FakeLinkAce;

beforeAll(async () => {
  la = await startFakeLinkAce({ links: 30 });
  // Newest first: 30..20 moved, then 15, 10, 5 broken; the rest ok.
  for (const l of la.links) l.status = l.id >= 20 ? 2 : l.id % 5 === 0 ? 3 : 1;
});
afterAll(() => la.close());

function piped() {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const env = { OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
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
  return {
    ctx: new Context({}, env, io),
    ids: () =>
      out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => Number(l.split('\t')[0])),
  };
}

describe('links list --status', () => {
  test('broken: reads past the newer moved links until --limit broken ones are found', async () => {
    const p = piped();
    await runLinksList({ status: 'broken', limit: '2' }, p.ctx);
    expect(p.ids()).toEqual([15, 10]);
  });

  test('moved: the newest moved links, exactly --limit of them', async () => {
    const p = piped();
    await runLinksList({ status: 'moved', limit: '3' }, p.ctx);
    expect(p.ids()).toEqual([30, 29, 28]);
  });

  test('ok: a plain listing filtered here, not a search without criteria', async () => {
    const p = piped();
    await runLinksList({ status: 'ok', limit: '3' }, p.ctx);
    expect(p.ids()).toEqual([19, 18, 17]);
  });

  test('ok with a query: the search, filtered here', async () => {
    const p = piped();
    await runLinksList({ status: 'ok', query: 'seed1', limit: '2' }, p.ctx);
    expect(p.ids()).toEqual([19, 18]);
  });
});

describe('argument checks', () => {
  test('tags list --sort description is a usage error (tags have no description); lists accept it', async () => {
    const { runCollectionsList } = await import('../../../src/commands/bm/collections.js');
    const { UsageError } = await import('../../../src/core/errors.js');
    const p = piped();
    await expect(runCollectionsList({ kind: 'tags', sort: 'description' }, p.ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(runCollectionsList({ kind: 'tags', sort: 'description' }, p.ctx)).rejects.toThrow(/--sort must be one of id, name, visibility/);
    await runCollectionsList({ kind: 'lists', sort: 'description' }, piped().ctx);
  });

  test('an id given twice is acted on once', async () => {
    const { parseIds } = await import('../../../src/commands/bm/shared.js');
    expect(parseIds(['26', '26,27', '26'])).toEqual([26, 27]);
  });
});
