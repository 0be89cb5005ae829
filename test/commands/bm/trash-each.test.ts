/**
 * `ops bm links|tags|notes rm` with several ids (shared.ts trashEach): each is tried, a failure does not stop the
 * others; --json lists every outcome; without it a line for each moved and a warning for each failure; a lone
 * failure is its own error, failures among several one error that counts them. Run in-process against the
 * LinkAce stand-in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import { Context } from '../../../src/context.js';
import type { Io } from '../../../src/core/io.js';
import { ApiError, OpsError } from '../../../src/core/errors.js';
import { runLinksRm } from '../../../src/commands/bm/links.js';
import { runCollectionsRm } from '../../../src/commands/bm/collections.js';
import { tempDir } from '../../helpers/cli.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../../clients/bookmarks/linkace-server.js';

let la: FakeLinkAce;

beforeAll(async () => {
  la = await startFakeLinkAce({ links: 10 });
});
afterAll(() => la.close());

function makeCtx(json: boolean) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const env = { OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
  const io: Io = { stdin: new PassThrough(), stdout, stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, colorOut: false, colorErr: false, columns: Number.MAX_SAFE_INTEGER, env };
  return { ctx: new Context({ json, yes: true }, env, io), out: () => out, err: () => err };
}

const deleted = (id: number) => la.links.find((l) => l.id === id)?.deleted_at !== null;

describe('rm of several ids', () => {
  test('--json: every outcome listed, the others deleted past a failure, and an error that counts the failures', async () => {
    const { ctx, out } = makeCtx(true);
    const run = runLinksRm({ ids: ['1', '9999', '2'] }, ctx);
    await expect(run).rejects.toThrow(OpsError);
    await expect(run).rejects.toThrow('1 of 3 links were not deleted');
    const results = JSON.parse(out()) as { id: number; deleted: boolean; error: string | null }[];
    expect(results.map((r) => [r.id, r.deleted])).toEqual([
      [1, true],
      [9999, false],
      [2, true],
    ]);
    expect(results[1]!.error).toMatch(/not found/);
    expect(deleted(1) && deleted(2)).toBe(true);
  });

  test('text: a line for each moved, a warning for each failure', async () => {
    la.tags.push({ id: 5, user_id: 1, name: 'old', visibility: 1, created_at: '2024-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z', deleted_at: null });
    const { ctx, err } = makeCtx(false);
    await expect(runCollectionsRm({ kind: 'tags', refs: ['9998', '5'] }, ctx)).rejects.toThrow('1 of 2 tags were not deleted');
    expect(err()).toContain('moved tag 5 to the trash');
    expect(err()).toMatch(/tag 9998: .*not found/);
    expect(la.tags[0]!.deleted_at).not.toBeNull();
  });

  test('a lone failure is its own error (the server says why)', async () => {
    const { ctx, out } = makeCtx(false);
    const run = runLinksRm({ ids: ['9997'] }, ctx);
    await expect(run).rejects.toThrow(ApiError);
    await expect(run).rejects.not.toThrow(/were not deleted/);
    expect(out()).toBe('');
  });
});
