/**
 * fda's verbs in `ops pipe` (issue 32 item 4), in-process against an in-process ops serve with a data dir
 * (durable pipelines): `program get|set`, `diff` (unified diff, exit 1 when different, 0 when equal),
 * `copy`, `config get|set`, `restart` (stop, then start, waiting for each) and `clear` (the stored state gone:
 * rows kept by a /stop are not there after clear + start; --yes needed without a terminal) and `validate`
 * (today's /v0/validate_program: no pipeline made; errors as FILE:LINE:COL, exit 1; a v0.24-era server lacks it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, startRunning, startSvc, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { parseValue, valueAt, withValue } from '../../../src/commands/pipe/config.js';
import { FakeFeldera } from '../../clients/pipelines/fake-feldera.js';
import { runInPty, stripAnsi } from '../../helpers/pty.js';

const SQL = 'CREATE TABLE t (x INT NOT NULL);\nCREATE MATERIALIZED VIEW m AS SELECT x FROM t;\n';

describe('ops pipe program / diff / copy / config / restart / clear against ops serve', () => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  let dir: string;
  const status = async (name: string) => (await svc.call('GET', `/v0/pipelines/${name}`)).json as Record<string, any>;
  const rowsOfM = async (name: string) =>
    (await svc.call('GET', `/v0/pipelines/${name}/query?sql=${encodeURIComponent('SELECT x FROM m')}&format=json`)).text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { x?: number; X?: number }).X ?? (JSON.parse(l) as { x?: number }).x)
      .sort();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ops-fda-verbs-'));
    svc = await startSvc({ pipelineApi: 'current' }, { dataDir: join(dir, 'data') });
    await createCompiled(svc, 'p', SQL);
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('program get prints the stored program; --json gives {name, program_code}; an unknown pipeline is exit 1 with a hint', async () => {
    const got = await opsIn(['pipe', 'program', 'get', 'p'], { env });
    expect(got.exitCode, got.stderr).toBe(0);
    expect(got.stdout).toBe(SQL.replace(/\n$/, '')); // opsIn strips one final newline, as execa does
    await createCompiled(svc, 'nonl', 'CREATE TABLE t (x INT)');
    const io = await opsIn(['pipe', 'program', 'get', 'nonl'], { env });
    expect(io.stdout).toBe('CREATE TABLE t (x INT)');
    writeFileSync(join(dir, 'nonl.sql'), 'CREATE TABLE t (x INT)');
    expect((await opsIn(['pipe', 'diff', 'nonl', join(dir, 'nonl.sql')], { env })).exitCode).toBe(0);
    const json = await opsIn(['pipe', 'program', 'get', 'p', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ name: 'p', program_code: SQL });
    const none = await opsIn(['pipe', 'program', 'get', 'nope'], { env });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('no pipeline named "nope"');
  });

  it('diff: nothing and exit 0 when equal; a unified diff and exit 1 when not; a missing file is a clear error', async () => {
    const same = join(dir, 'same.sql');
    writeFileSync(same, SQL);
    const eq = await opsIn(['pipe', 'diff', 'p', same], { env });
    expect(eq.exitCode, eq.stderr).toBe(0);
    expect(eq.stdout).toBe('');
    expect(eq.stderr).toBe('');

    const other = join(dir, 'other.sql');
    writeFileSync(other, SQL.replace('SELECT x FROM t', 'SELECT x FROM t WHERE x > 0'));
    const ne = await opsIn(['pipe', 'diff', 'p', other], { env });
    expect(ne.exitCode).toBe(1);
    expect(ne.stderr).toBe('');
    expect(ne.stdout).toContain('--- p (stored)');
    expect(ne.stdout).toContain(`+++ ${other}`);
    expect(ne.stdout).toContain('-CREATE MATERIALIZED VIEW m AS SELECT x FROM t;');
    expect(ne.stdout).toContain('+CREATE MATERIALIZED VIEW m AS SELECT x FROM t WHERE x > 0;');
    expect(ne.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);

    const json = await opsIn(['pipe', 'diff', 'p', other, '--json'], { env });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ name: 'p', file: other, same: false });

    const missing = await opsIn(['pipe', 'diff', 'p', join(dir, 'missing.sql')], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/missing\.sql/);
  });

  it('program set replaces the program and waits for it to compile; SQL errors are exit 1 with FILE:LINE:COL', async () => {
    await createCompiled(svc, 'ps', SQL);
    const file = join(dir, 'new.sql');
    const next = SQL.replace('SELECT x FROM t', 'SELECT x + 1 AS x FROM t');
    writeFileSync(file, next);
    const set = await opsIn(['pipe', 'program', 'set', 'ps', file], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    const after = await status('ps');
    expect(after.program_code).toBe(next);
    expect(after.program_status).toBe('Success');
    expect((await opsIn(['pipe', 'diff', 'ps', file], { env })).exitCode).toBe(0);

    const bad = await opsIn(['pipe', 'program', 'set', 'ps', '-'], { env, input: 'CREATE TABLE t (x INT NOT NULL);\nCREATE VIEW v AS SELECT nope FROM t;\n' });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/<stdin>:2:\d+:/);
    expect(bad.stderr).toContain('error in the program of ps');

    const empty = await opsIn(['pipe', 'program', 'set', 'ps', '-'], { env, input: '  \n' });
    expect(empty.exitCode).toBe(2);
  }, 60_000);

  it('copy makes a new pipeline with the program and runtime_config, compiled; an existing name is refused', async () => {
    await createCompiled(svc, 'orig', SQL, { description: 'the original', runtime_config: { workers: 2 } });
    const cp = await opsIn(['pipe', 'copy', 'orig', 'dup', '--json'], { env });
    expect(cp.exitCode, cp.stderr).toBe(0);
    const dup = await status('dup');
    expect(dup).toMatchObject({ program_code: SQL, description: 'the original', program_status: 'Success' });
    expect(dup.runtime_config.workers).toBe(2);
    expect(JSON.parse(cp.stdout).name).toBe('dup');

    const again = await opsIn(['pipe', 'copy', 'orig', 'dup'], { env });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('pipeline "dup" already exists');
  }, 60_000);

  it('config get prints the runtime_config or one key; config set changes one key, keeping the others; the server refuses bad values', async () => {
    await createCompiled(svc, 'cfg', SQL, { runtime_config: { workers: 3 } });
    const all = await opsIn(['pipe', 'config', 'get', 'cfg'], { env });
    expect(all.exitCode, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ workers: 3 });
    expect(JSON.parse((await opsIn(['pipe', 'config', 'get', 'cfg', 'workers'], { env })).stdout)).toBe(3);

    const set = await opsIn(['pipe', 'config', 'set', 'cfg', 'resources.memory_mb_max', '2048'], { env });
    expect(set.exitCode, set.stderr).toBe(0);
    const rc = (await status('cfg')).runtime_config;
    expect(rc.workers).toBe(3);
    expect(rc.resources.memory_mb_max).toBe(2048);
    expect(JSON.parse((await opsIn(['pipe', 'config', 'get', 'cfg', 'resources.memory_mb_max'], { env })).stdout)).toBe(2048);

    const bad = await opsIn(['pipe', 'config', 'set', 'cfg', 'workers', 'many'], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('workers');
    expect((await status('cfg')).runtime_config.workers).toBe(3);

    const unknown = await opsIn(['pipe', 'config', 'get', 'cfg', 'no.such'], { env });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('has no "no.such"');
    expect((await opsIn(['pipe', 'config', 'get', 'cfg', 'a..b'], { env })).exitCode).toBe(2);
  }, 60_000);

  it('config values: JSON when JSON, else a string; dotted keys read and written', () => {
    expect(parseValue('4')).toBe(4);
    expect(parseValue('null')).toBe(null);
    expect(parseValue('{"a":1}')).toEqual({ a: 1 });
    expect(parseValue('fast')).toBe('fast');
    expect(withValue({ a: 1, r: { x: 1 } }, 'r.y', 2)).toEqual({ a: 1, r: { x: 1, y: 2 } });
    expect(withValue({ r: 5 }, 'r.y', 2)).toEqual({ r: { y: 2 } });
    expect(valueAt({ r: { y: 2 } }, 'r.y')).toBe(2);
    expect(valueAt({ r: 1 }, 'r.y')).toBeUndefined();
  });

  it('restart stops then starts, waiting; clear needs --yes without a terminal, refuses a running pipeline, and empties the stored state', async () => {
    await startRunning(svc, 'p');
    expect((await ingest(svc, 'p', 't', 'format=json', '{"insert":{"x":1}}\n{"insert":{"x":2}}')).status).toBe(200);
    const restarted = await opsIn(['pipe', 'restart', 'p'], { env });
    expect(restarted.exitCode, restarted.stderr).toBe(0);
    expect((await status('p')).deployment_status).toBe('Running');
    // a /stop keeps the state: the rows are back after the restart
    await waitFor(async () => (await rowsOfM('p')).length === 2, 'the rows after the restart');
    expect(await rowsOfM('p')).toEqual([1, 2]);

    // ops serve (as v0.24) takes a running pipeline's new program and runtime_config for its next start: said so
    const setRunning = await opsIn(['pipe', 'program', 'set', 'p', '-'], { env, input: SQL + '-- changed\n' });
    expect(setRunning.exitCode, setRunning.stderr).toBe(0);
    expect(setRunning.stderr).toContain('runs its previous program until restarted (ops pipe restart p)');
    const cfgRunning = await opsIn(['pipe', 'config', 'set', 'p', 'workers', '2'], { env });
    expect(cfgRunning.exitCode, cfgRunning.stderr).toBe(0);
    expect(cfgRunning.stderr).toContain('applies from its next start (ops pipe restart p)');
    expect((await opsIn(['pipe', 'config', 'set', 'cfg', 'workers', '2'], { env })).stderr).not.toContain('restart');

    const running = await opsIn(['--yes', 'pipe', 'clear', 'p'], { env });
    expect(running.exitCode).toBe(1);
    expect(running.stderr).toContain('ops pipe shutdown p');

    expect((await opsIn(['pipe', 'stop', 'p'], { env })).exitCode).toBe(0);
    const unconfirmed = await opsIn(['pipe', 'clear', 'p'], { env });
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');

    const cleared = await opsIn(['--yes', 'pipe', 'clear', 'p', '--json'], { env });
    expect(cleared.exitCode, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout)).toEqual({ name: 'p', cleared: true });
    expect((await status('p')).storage_status).toBe('Cleared');
    expect((await opsIn(['pipe', 'start', 'p'], { env })).exitCode).toBe(0);
    expect(await rowsOfM('p')).toEqual([]);
  }, 120_000);

  it('shell: statements over several lines end with ";", each answered as rows; a bad one prints its error and exit 1 at the end', async () => {
    await createCompiled(svc, 'sh', SQL);
    await startRunning(svc, 'sh');
    expect((await ingest(svc, 'sh', 't', 'format=json', '{"insert":{"x":5}}\n{"insert":{"x":7}}')).status).toBe(200);
    const ok = await opsIn(['pipe', 'shell', 'sh', '--json'], { env, input: 'SELECT x\nFROM m\nORDER BY x;\nSELECT COUNT(*) AS n FROM m;\n\\q\nSELECT 1;\n' });
    expect(ok.exitCode, ok.stderr).toBe(0);
    const answers = ok.stdout.split('\n').map((l) => JSON.parse(l) as Record<string, number>[]);
    expect(answers).toHaveLength(2);
    expect(answers[0]!.map((r) => r.x ?? r.X)).toEqual([5, 7]);
    expect(answers[1]![0]!.n ?? answers[1]![0]!.N).toBe(2);

    const bad = await opsIn(['pipe', 'shell', 'sh'], { env, input: 'SELECT nope FROM m;\nSELECT x FROM m ORDER BY x;\nSELECT 1' });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/error: .*nope/i);
    expect(bad.stdout.split('\n').slice(-2)).toEqual(['5', '7']);
    expect(bad.stderr).toContain('the last statement had no ";"');
    expect(bad.stderr).toContain('1 statement failed');
    expect((await opsIn(['pipe', 'shell', 'nope'], { env, input: '' })).exitCode).toBe(1);

    // on a terminal (the built binary in a pseudo-terminal): the prompts, a table, and the history (up arrow)
    const pty = await runInPty(
      ['pipe', 'shell', 'sh'],
      env,
      [
        ['sh=> ', 'SELECT x\r'],
        ['sh-> ', 'FROM m ORDER BY x;\r'],
        ['sh=> ', 'SELECT COUNT(*) AS n FROM m;\r'],
        ['sh=> ', '\u001b[A\r'],
        ['sh=> ', '\\q\r'],
      ],
      30,
    );
    const out = stripAnsi(pty.output);
    expect(pty.exitCode, out).toBe(0);
    expect(out).toContain('end statements with ";"');
    expect(out).toMatch(/5[\s\S]*7/); // the two-line statement's table
    expect(out.match(/^\W*2\W*$/gm), out).toHaveLength(2); // the count, then again from the history
  }, 60_000);

  it('validate: a valid program is exit 0 and creates no pipeline; SQL errors are FILE:LINE:COL with a caret, exit 1; --json is the answer', async () => {
    const before = ((await svc.call('GET', '/v0/pipelines')).json as unknown[]).length;
    const good = join(dir, 'good.sql');
    writeFileSync(good, SQL);
    const ok = await opsIn(['pipe', 'validate', good], { env });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('good.sql: valid');
    expect(((await svc.call('GET', '/v0/pipelines')).json as unknown[]).length).toBe(before);

    const badFile = join(dir, 'bad.sql');
    writeFileSync(badFile, 'CREATE TABLE t (x INT NOT NULL);\nCREATE VIEW v AS SELECT nope FROM t;\n');
    const bad = await opsIn(['pipe', 'validate', badFile], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/bad\.sql:2:\d+: .*nope/i);
    expect(bad.stderr).toContain('^');
    expect(bad.stderr).toContain('1 error in');

    const json = await opsIn(['pipe', 'validate', '-', '--json'], { env, input: 'CREATE TABLE t (x INT NOT NULL);\nCREATE VIEW v AS SELECT nope FROM t;' });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).SqlError.info.messages[0]).toMatchObject({ start_line_number: 2, warning: false });
    expect((await opsIn(['pipe', 'validate', '-'], { env, input: '' })).exitCode).toBe(2);
  }, 60_000);
});

describe('ops pipe validate against a v0.24-era server', () => {
  it('says the server does not offer it, exit 1', async () => {
    const fake = await new FakeFeldera({ generation: 'legacy' }).start();
    try {
      const r = await opsIn(['pipe', 'validate', '-'], { env: isolatedEnv({ OPS_PIPE_URL: fake.url }), input: 'CREATE TABLE t (x INT);' });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('this pipeline service does not offer program validation');
    } finally {
      await fake.close();
    }
  });
});
