/** Describing a commander tree: names, aliases, options, choices, value hints, examples, hidden parts. */
import { describe, expect, it } from 'vitest';
import { Command, Option } from 'commander';
import { allCommands, describeTree, examplesOf, globalOptions, helpTextAfter } from '../../src/docs/tree.js';
import { buildTables, valueCode } from '../../src/commands/completion/tables.js';
import { fixtureProgram } from '../commands/completion/fixture.js';

describe('describeTree', () => {
  const spec = describeTree(fixtureProgram());
  const find = (...path: string[]) => allCommands(spec).find((c) => c.path.join(' ') === path.join(' '))!;

  it('walks every visible command with its path, aliases and summary', () => {
    expect(allCommands(spec).map((c) => c.path.join(' '))).toEqual([
      '',
      'bm',
      'bm links',
      'bm links list',
      'bm links add',
      'bm lists',
      'bm tags',
      'bm import',
      'pipe',
      'pipe watch',
      'pipe stats',
      'pipe create',
      'pipe ingest',
      'auth',
      'auth login',
    ]);
    expect(find('bm', 'links')).toMatchObject({ aliases: ['link'], summary: 'Links' });
    expect(find('bm', 'links', 'list').aliases).toEqual(['ls']);
  });

  it('describes options: both spellings, values, choices, defaults; global options are the root ones', () => {
    const list = find('bm', 'links', 'list');
    expect(list.options.find((o) => o.long === '--format')).toMatchObject({ short: '-f', takesValue: true, valueName: 'format', value: { kind: 'choices', values: ['table', 'tsv', 'json'] } });
    expect(list.options.find((o) => o.long === '--tag')).toMatchObject({ takesValue: true, value: { kind: 'dynamic', source: 'tags' } });
    expect(list.options.find((o) => o.long === '--help')).toMatchObject({ short: '-h', takesValue: false });
    expect(globalOptions(spec).map((o) => o.long)).toEqual(['--profile', '--json', '--yes', '--pipe-url']);
    expect(spec.options.find((o) => o.long === '--profile')!.value).toEqual({ kind: 'dynamic', source: 'profiles' });
  });

  it('hints dynamic values, files and directories by name', () => {
    const watch = find('pipe', 'watch');
    expect(watch.args.map((a) => a.value)).toEqual([
      { kind: 'dynamic', source: 'pipelines' },
      { kind: 'dynamic', source: 'relations', pipelineArg: 0 },
    ]);
    expect(watch.options.find((o) => o.long === '--data-dir')!.value).toEqual({ kind: 'dir' });
    expect(find('pipe', 'ingest').args.map((a) => a.value.kind)).toEqual(['dynamic', 'dynamic', 'file']);
    expect(find('bm', 'import').args[0]!.value).toEqual({ kind: 'file' });
    expect(find('pipe', 'stats').args[0]!.value).toEqual({ kind: 'dynamic', source: 'pipelines' }); // <name> under ops pipe
    expect(find('pipe', 'create').args[0]!.value).toEqual({ kind: 'none' }); // a new name
    expect(find('auth', 'login').args[0]!.value).toEqual({ kind: 'choices', values: ['bm', 'pipe', 'notify'] });
  });

  it('collects the examples of the help text', () => {
    expect(find('bm', 'links', 'list').examples).toEqual(['ops bm links list --tag docs', 'ops bm links list --visibility public   # public only']);
    expect(spec.examples).toEqual(['ops bm links list']);
    expect(find('bm').examples).toEqual([]);
    expect(examplesOf('Intro\n\nExample:\n  ops a\n\nOther:\n  not an example\nExamples:\n  ops b\n  ops c')).toEqual(['ops a', 'ops b', 'ops c']);
    const cmd = new Command('x').addHelpText('after', () => '\nExamples:\n  x --y');
    expect(helpTextAfter(cmd)).toBe('Examples:\n  x --y');
  });

  it('leaves hidden options out', () => {
    const cmd = new Command('ops').addOption(new Option('--secret-flag').hideHelp()).option('--shown', 'shown');
    expect(describeTree(cmd).options.map((o) => o.long)).toEqual(['--shown', '--help']);
  });
});

describe('completion tables', () => {
  it('codes values for the shells', () => {
    expect(valueCode({ kind: 'none' }, false)).toBe('');
    expect(valueCode({ kind: 'none' })).toBe('-');
    expect(valueCode({ kind: 'choices', values: ['a', 'b'] })).toBe('c:a b');
    expect(valueCode({ kind: 'dynamic', source: 'relations', pipelineArg: 2 })).toBe('d:relations:2');
    expect(valueCode({ kind: 'file' })).toBe('f');
    expect(valueCode({ kind: 'dir' })).toBe('D');
    expect(valueCode({ kind: 'choices', values: ["it's", 'two words', 'ok'] })).toBe('c:ok');
    expect(valueCode({ kind: 'choices', values: ['$HOME'] })).toBe('-');
  });

  it('lists options per path without the global ones, which are listed once', () => {
    const tables = buildTables(describeTree(fixtureProgram()));
    expect(tables.globals.map((g) => g.word)).toEqual(['--profile', '--json', '--yes', '-y', '--pipe-url']);
    const root = tables.paths.find((p) => p.path === '')!;
    expect(root.opts.map((o) => o.word)).toEqual(['--help', '-h']);
    const ingest = tables.paths.find((p) => p.path === 'pipe ingest')!;
    expect(ingest).toMatchObject({ args: ['d:pipelines', 'd:relations:0', 'f'], variadic: true });
  });
});
