/**
 * The command shape (src/commands/factory.ts) at work: a verb's constructor turns argv into its typed options
 * (caught here by the `runF` a test passes in), `run<Verb>(options, ctx)` runs with any Context (here on
 * memoryIo, against a real config dir, real files and a LinkAce stand-in), and the Factory of a run builds the
 * context from the global options of the command that runs, wherever they stand on the command line.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { Context } from '../../src/context.js';
import { addVerbs, type Factory, type RunFunction } from '../../src/commands/factory.js';
import { newCmdCollectionsAdd } from '../../src/commands/bm/collections.js';
import { newCmdLinksEdit, newCmdLinksList, runLinksGet, type LinksEditOptions, type LinksListOptions } from '../../src/commands/bm/links.js';
import { newCmdPipeIngest, type PipeIngestOptions } from '../../src/commands/pipe/ingest.js';
import { newCmdHookRegister, type HookRegisterOptions } from '../../src/commands/hook/register.js';
import { runHookSign } from '../../src/commands/hook/sign.js';
import { runHookVerify } from '../../src/commands/hook/verify.js';
import { newCmdKeyCreate, type KeyCreateOptions } from '../../src/commands/serve/keys.js';
import { runConfigGet } from '../../src/commands/config/get.js';
import { runConfigSet, runConfigUnset } from '../../src/commands/config/set.js';
import { sign } from '../../src/webhooks/signature.js';
import { run } from '../../src/main.js';
import { memoryIo, type MemoryIo } from '../helpers/memory-io.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { startFakeLinkAce, TOKEN, type FakeLinkAce } from '../clients/bookmarks/linkace-server.js';

/** A Factory for one test: the given context, no program. */
function factoryOf(ctx: Context): Factory {
  return { context: () => ctx, fullProgram: () => Promise.reject(new Error('not in this test')) };
}

/** Parse `argv` with a verb built by `make`, and answer the options its action hands to runF. */
async function optionsOf<O>(make: (f: Factory, runF: RunFunction<O>) => Command, argv: string[], parent?: (cmd: Command) => Command): Promise<O> {
  let got: O | undefined;
  const f = factoryOf(new Context({}, {}, memoryIo()));
  const verb = make(f, async (options) => void (got = options));
  const root = parent ? addVerbs(parent(new Command('root').exitOverride()), verb) : verb.exitOverride();
  await root.parseAsync(argv, { from: 'user' });
  if (got === undefined) throw new Error('the action did not run');
  return got;
}

describe('argv -> typed options, through each verb constructor', () => {
  test('bm links list: repeatable comma lists collected, flags as given', async () => {
    const o = await optionsOf<LinksListOptions>(newCmdLinksList, ['--tag', 'a,b', '--tag', 'c', '--limit', '3', '-q', 'rust', '--all']);
    expect(o).toEqual({ tag: ['a', 'b', 'c'], limit: '3', query: 'rust', all: true });
  });

  test('bm links edit: the positional id and the --url flag stay apart', async () => {
    const o = await optionsOf<LinksEditOptions>(newCmdLinksEdit, ['42', '--url', 'https://new.example/', '--add-tag', 'x', '--remove-list', 'old']);
    expect(o).toEqual({ id: '42', url: 'https://new.example/', addTag: ['x'], removeList: ['old'] });
  });

  test('bm lists add: the constructor fixes the collection kind', async () => {
    const o = await optionsOf((f, runF) => newCmdCollectionsAdd(f, 'lists', runF), ['Reading', '--description', 'later', '--visibility', 'private']);
    expect(o).toEqual({ kind: 'lists', name: 'Reading', description: 'later', visibility: 'private' });
  });

  test('pipe ingest: three positionals and a negated flag; --batch-size only when given (Parquet refuses it, so its default is applied later)', async () => {
    const o = await optionsOf<PipeIngestOptions>(newCmdPipeIngest, ['shop', 'orders', '-', '--format', 'csv', '--no-header']);
    expect(o).toEqual({ name: 'shop', table: 'orders', file: '-', format: 'csv', header: false });
    const p = await optionsOf<PipeIngestOptions>(newCmdPipeIngest, ['shop', 'orders', 'rows.parquet', '--format', 'parquet', '--batch-size', '10']);
    expect(p).toEqual({ name: 'shop', table: 'orders', file: 'rows.parquet', format: 'parquet', batchSize: '10' });
  });

  test('hook register: the URL argument and --url are both kept; --events values are kept whole', async () => {
    const o = await optionsOf<HookRegisterOptions>(newCmdHookRegister, ['http://127.0.0.1:8701/', '--url', 'http://127.0.0.1:9000/', '--events', 'a,b', '--events', 'c']);
    expect(o).toEqual({ urlArg: 'http://127.0.0.1:8701/', url: 'http://127.0.0.1:9000/', events: ['a,b', 'c'] });
  });

  test('serve key create: --data-dir from ops serve when the verb has none, its own when given', async () => {
    const serve = (cmd: Command) => cmd.option('--data-dir <dir>');
    expect(await optionsOf<KeyCreateOptions>(newCmdKeyCreate, ['--data-dir', '/srv/a', 'create', '--name', 'ci'], serve)).toEqual({ name: 'ci', dataDir: '/srv/a' });
    expect(await optionsOf<KeyCreateOptions>(newCmdKeyCreate, ['--data-dir', '/srv/a', 'create', '--data-dir', '/srv/b'], serve)).toEqual({ name: 'key', dataDir: '/srv/b' });
  });
});

describe('run<Verb>(options, ctx) called directly', () => {
  test('config set, get and unset against a real config dir', async () => {
    const env = isolatedEnv() as NodeJS.ProcessEnv;
    const io = memoryIo({ env });
    const ctx = new Context({}, env, io);
    await runConfigSet({ key: 'pipe.url', value: 'http://127.0.0.1:9999' }, ctx);
    await runConfigGet({ key: 'pipe.url' }, ctx);
    expect(io.stdoutText()).toBe('http://127.0.0.1:9999\n');
    const json = memoryIo({ env });
    await runConfigGet({ key: 'pipe.url' }, new Context({ json: true }, env, json));
    expect(JSON.parse(json.stdoutText())).toEqual({ key: 'pipe.url', value: 'http://127.0.0.1:9999', source: 'profile', profile: ctx.profile });
    await runConfigUnset({ key: 'pipe.url' }, ctx);
    await expect(runConfigGet({ key: 'nope.key' }, ctx)).rejects.toThrow(/unknown setting "nope.key"/);
  });

  test('hook sign and verify: the signature of the file, valid, then refused when the body changes', async () => {
    const dir = tempDir('ops-shape-');
    const secretFile = join(dir, 'secret');
    const body = join(dir, 'body.json');
    writeFileSync(secretFile, 's3cret\n');
    writeFileSync(body, '{"type":"payment.completed"}');
    const io = memoryIo();
    const ctx = new Context({}, {}, io);
    const signature = await runHookSign({ file: body, secretFile }, ctx);
    expect(signature).toBe(sign('s3cret', Buffer.from('{"type":"payment.completed"}')));
    expect(io.stdoutText()).toBe(`${signature}\n`);
    await expect(runHookVerify({ file: body, secretFile, signature }, ctx)).resolves.toEqual({ valid: true });
    writeFileSync(body, '{"type":"payment.failed"}');
    await expect(runHookVerify({ file: body, secretFile, signature }, new Context({}, {}, memoryIo()))).rejects.toThrow(/invalid signature/);
    await expect(runHookVerify({ file: body, secretFile }, ctx)).rejects.toThrow(/--signature SIG is required/);
  });

  describe('against a LinkAce stand-in', () => {
    let la: FakeLinkAce;
    beforeAll(async () => {
      la = await startFakeLinkAce({ links: 3 });
    });
    afterAll(() => la.close());

    test('bm links get: one link, as TSV fields when piped', async () => {
      const env = { OPS_BM_URL: la.url, OPS_BM_TOKEN: TOKEN, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
      const io: MemoryIo = memoryIo({ env });
      await runLinksGet({ id: String(la.links[0]!.id) }, new Context({}, env, io));
      expect(io.stdoutText()).toContain(la.links[0]!.url);
      await expect(runLinksGet({ id: 'x' }, new Context({}, env, memoryIo({ env })))).rejects.toThrow(/link id must be a positive whole number/);
    });
  });
});

describe("the Factory: a run's context from the global options of the command that runs", () => {
  test('global flags before or after the verb reach the context (json output, a flag-set URL)', async () => {
    const env = isolatedEnv() as NodeJS.ProcessEnv;
    for (const args of [
      ['--json', '--bm-url', 'http://127.0.0.1:1/', 'config', 'get', 'bm.url'],
      ['config', 'get', 'bm.url', '--json', '--bm-url', 'http://127.0.0.1:1/'],
    ]) {
      const io = memoryIo({ env });
      expect(await run(['node', 'ops', ...args], { io, env })).toBe(0);
      expect(JSON.parse(io.stdoutText())).toMatchObject({ key: 'bm.url', value: 'http://127.0.0.1:1/', source: 'flag' });
    }
  });
});
