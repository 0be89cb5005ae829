/** The bash completion script, sourced in a real bash, on a fixture tree and on the real tree. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { bashScript } from '../../../src/commands/completion/bash.js';
import { describeTree } from '../../../src/docs/tree.js';
import { buildProgram } from '../../../src/program.js';
import { BIN, ROOT, isolatedEnv, tempDir } from '../../helpers/cli.js';
import { fixtureProgram } from './fixture.js';
import { bashComplete } from './shells.js';

/** A pipeline service answering the two reads the completion makes (the documented Feldera shapes). */
function pipelineService(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v0/pipelines?') || req.url === '/v0/pipelines') {
      res.end(JSON.stringify([{ name: 'orders' }, { name: 'demo' }]));
    } else if (req.url === '/v0/pipelines/demo') {
      res.end(JSON.stringify({ name: 'demo', program_info: { schema: { inputs: [{ name: 'PURCHASES' }], outputs: [{ name: 'TOTALS' }] } } }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'Unknown pipeline', error_code: 'UnknownPipelineName' }));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

function withProfiles(names: string[]): Record<string, string | undefined> {
  const env = isolatedEnv();
  const dir = env.OPS_CONFIG_DIR!;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ currentProfile: names[0], profiles: Object.fromEntries(names.map((n) => [n, { 'bm.url': `http://${n}.example` }])) }));
  writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ profiles: { secretonly: { 'bm.token': 'x' } } }));
  return env;
}

function hasCommand(program: Command, path: string[]): boolean {
  let cmd: Command | undefined = program;
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name);
  return Boolean(cmd);
}

describe('bash completion (fixture tree)', () => {
  const script = bashScript(describeTree(fixtureProgram()));
  const complete = (...words: string[]) => bashComplete(script, ['ops', ...words]);

  it('offers subcommands at every level, by prefix, without hidden commands', async () => {
    expect(await complete('')).toEqual(['bm', 'pipe', 'auth']);
    expect(await complete('bm', 'li')).toEqual(['links', 'lists']);
    expect(await complete('bm', 'links', '')).toEqual(['list', 'add']);
    expect(await complete('bm', 'link', 'l')).toEqual(['list']); // an alias on the way
    expect(await complete('se')).toEqual([]);
  });

  it('offers the options of the command and the global ones, long and short', async () => {
    const opts = await complete('pipe', 'watch', '--');
    for (const flag of ['--format', '--since', '--no-snapshot', '--data-dir', '--help', '--profile', '--json', '--yes']) expect(opts).toContain(flag);
    expect(opts).not.toContain('--tag');
    expect(await complete('bm', 'links', 'list', '-')).toEqual(expect.arrayContaining(['-f', '-h', '-y', '--visibility']));
    expect(await complete('bm', 'links', 'list', '--vis')).toEqual(['--visibility']);
  });

  it('offers the values of enumerated options and arguments, with or without "="', async () => {
    expect(await complete('bm', 'links', 'list', '--visibility', '')).toEqual(['public', 'internal', 'private']);
    expect(await complete('bm', 'links', 'list', '--visibility', 'p')).toEqual(['public', 'private']);
    expect(await complete('bm', 'links', 'list', '-f', 'j')).toEqual(['json']);
    expect(await complete('bm', 'links', 'list', '--format=t')).toEqual(['--format=table', '--format=tsv']);
    expect(await complete('bm', 'links', 'list', '--format', '=', 'ts')).toEqual(['tsv']); // COMP_WORDBREAKS split
    expect(await complete('bm', 'links', 'list', '--format', '=')).toEqual(['table', 'tsv', 'json']);
    expect(await complete('auth', 'login', '')).toEqual(['bm', 'pipe', 'notify']);
    expect(await complete('auth', 'login', 'pipe', '')).toEqual([]);
  });

  it('skips option values while walking to the command', async () => {
    expect(await complete('--profile', 'bm', 'pipe', '')).toEqual(['watch', 'stats', 'create', 'ingest']);
    expect(await complete('bm', 'links', 'list', '--tag', 'links', '--json', '')).toEqual([]);
    expect(await complete('bm', 'links', 'list', '--tag', '')).toEqual([]); // a free value: nothing to offer
  });

  it('offers files and directories where a file or a directory is expected', async () => {
    const dir = tempDir('ops-files-');
    writeFileSync(join(dir, 'bookmarks.html'), '');
    mkdirSync(join(dir, 'state'));
    expect(await complete('bm', 'import', join(dir, 'bo'))).toEqual([join(dir, 'bookmarks.html')]);
    expect(await complete('pipe', 'watch', '--data-dir', join(dir, 's'))).toEqual([join(dir, 'state')]);
    expect(await complete('pipe', 'ingest', 'p', 't', 'a.csv', join(dir, 'bo'))).toEqual([join(dir, 'bookmarks.html')]); // variadic
  });

  it('treats everything after -- as arguments', async () => {
    expect(await complete('auth', 'login', '--', '')).toEqual(['bm', 'pipe', 'notify']);
    expect(await complete('auth', 'login', '--', '-')).toEqual([]);
  });
});

describe('bash completion: names asked of ops', () => {
  let service: { server: Server; url: string };
  beforeAll(async () => {
    service = await pipelineService();
  });
  afterAll(() => service.server.close());

  const script = bashScript(describeTree(fixtureProgram()));

  it('completes profile names from the config files', async () => {
    const env = withProfiles(['work', 'home']);
    expect(await bashComplete(script, [BIN, '--profile', ''], env)).toEqual(['home', 'secretonly', 'work']);
    expect(await bashComplete(script, [BIN, '--profile', 'w'], env)).toEqual(['work']);
    expect(await bashComplete(script, [BIN, '--profile=h'], env)).toEqual(['--profile=home']);
  });

  it('completes pipeline names and the tables and views of the pipeline on the line', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: service.url });
    expect(await bashComplete(script, [BIN, 'pipe', 'watch', ''], env)).toEqual(['demo', 'orders']);
    expect(await bashComplete(script, [BIN, 'pipe', 'watch', 'demo', ''], env)).toEqual(['PURCHASES', 'TOTALS']);
    expect(await bashComplete(script, [BIN, 'pipe', 'ingest', 'demo', 'P'], env)).toEqual(['PURCHASES']);
    // table and view names ignore case, as the server's lookup does
    expect(await bashComplete(script, [BIN, 'pipe', 'watch', 'demo', 'tot'], env)).toEqual(['TOTALS']);
    expect(await bashComplete(script, [BIN, 'pipe', 'ingest', 'demo', 'pUr'], env)).toEqual(['PURCHASES']);
    expect(await bashComplete(script, [BIN, 'pipe', 'watch', 'nosuch', ''], env)).toEqual([]);
    expect(await bashComplete(script, [BIN, 'pipe', 'stats', 'd'], env)).toEqual(['demo']);
  });

  it('passes global options on the line (--pipe-url) to the name lookup', async () => {
    const env = isolatedEnv();
    expect(await bashComplete(script, [BIN, '--pipe-url', service.url, 'pipe', 'watch', 'o'], env)).toEqual(['orders']);
  });

  it('offers nothing, quickly and silently, when the pipeline service is unreachable', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: 'http://127.0.0.1:9' });
    expect(await bashComplete(script, [BIN, 'pipe', 'watch', ''], env)).toEqual([]);
  });
});

describe('bash completion (the real tree, as committed)', async () => {
  const program = await buildProgram([], { loadAll: true });
  const script = readFileSync(join(ROOT, 'completions', 'ops.bash'), 'utf8');
  const complete = (...words: string[]) => bashComplete(script, ['ops', ...words]);

  it('offers the top-level commands and the enumerated values of auth login and completion', async () => {
    const top = await complete('');
    for (const name of ['bm', 'pipe', 'hook', 'serve', 'auth', 'config', 'completion', 'help']) expect(top).toContain(name);
    expect(top).not.toContain('__values');
    expect(await complete('auth', 'login', '')).toEqual(['bm', 'pipe', 'notify']);
    expect(await complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(await complete('help', 'e')).toEqual(['environment', 'exit-codes']);
    expect(await complete('help', 'co')).toEqual(['config', 'completion']);
    expect(await complete('config', 'get', 'bm.')).toEqual(['bm.url', 'bm.token']);
    expect(await complete('serve', '--')).toEqual(expect.arrayContaining(['--port', '--data-dir', '--demo', '--profile', '--json']));
  });

  it.skipIf(!hasCommand(program, ['bm', 'links']) || !hasCommand(program, ['bm', 'lists']))('completes `ops bm li` to links and lists', async () => {
    expect(await complete('bm', 'li')).toEqual(['links', 'lists']);
  });

  it.skipIf(!hasCommand(program, ['pipe', 'watch']))('completes `ops pipe watch --` to the watch flags', async () => {
    const watch = program.commands.find((c) => c.name() === 'pipe')!.commands.find((c) => c.name() === 'watch')!;
    const flags = watch.options
      .filter((o) => !o.hidden)
      .map((o) => o.long!)
      .filter(Boolean);
    expect(flags.length).toBeGreaterThan(0);
    expect(await complete('pipe', 'watch', '--')).toEqual(expect.arrayContaining([...flags, '--help', '--json']));
  });

  it('offers the values of every enumerated option of the tree', async () => {
    const spec = describeTree(program);
    const walk = async (cmd: typeof spec): Promise<void> => {
      for (const o of cmd.options) {
        if (o.value.kind !== 'choices' || !o.long) continue;
        expect(await complete(...cmd.path, o.long, ''), `${['ops', ...cmd.path, o.long].join(' ')}`).toEqual(o.value.values);
      }
      for (const c of cmd.commands) await walk(c);
    };
    await walk(spec);
  });
});
