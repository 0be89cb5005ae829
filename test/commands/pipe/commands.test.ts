/**
 * `ops pipe` (in-process, as the binary runs it; a few through the built binary) against fake pipeline servers (recorded bodies of both API
 * generations, see test/clients/pipelines/fake-feldera.ts).
 */
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { runInPty, stripAnsi } from '../../helpers/pty.js';
import { FakeFeldera, type FakeOptions, type Generation } from '../../clients/pipelines/fake-feldera.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ops-pipe-'));
});

/** A fake server for one test, closed when the test ends. */
async function server(generation: Generation, extra: Partial<FakeOptions> = {}) {
  const fake = await new FakeFeldera({ generation, schema: { inputs: ['orders'], outputs: ['totals', 'big'] }, ...extra }).start();
  onTestFinished(() => fake.close());
  return { fake, env: isolatedEnv({ OPS_PIPE_URL: fake.url }) };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const SQL = 'CREATE TABLE orders (id INT, amount DECIMAL(10,2));\nCREATE VIEW totals AS SELEC id, SUM(amount) FROM orders GROUP BY id;\n';

describe.each(['legacy', 'current'] as const)('ops pipe against the %s API', (generation) => {
  it('create: SQL errors as FILE:LINE:COL with the line and a caret, exit 1', async () => {
    const { env } = await server(generation, {
      compile: (code) =>
        code.includes('SELEC ')
          ? [
              {
                start_line_number: 2,
                start_column: 24,
                end_line_number: 2,
                end_column: 28,
                warning: false,
                error_type: 'Error parsing SQL',
                message: 'Encountered "SELEC" at line 2, column 24.',
                snippet: null,
              },
            ]
          : [],
    });
    const path = file('bad.sql', SQL);
    const r = await opsIn(['pipe', 'create', 'p1', path], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `${path}:2:24: Error parsing SQL: Encountered "SELEC" at line 2, column 24.\nCREATE VIEW totals AS SELEC id, SUM(amount) FROM orders GROUP BY id;\n                       ^^^^^\n`,
    );
    expect(r.stderr).toContain('compiling SQL');
    expect(r.stderr).toContain('ops: error: 1 error in the program of p1');
    expect(r.stderr.match(/SQL errors/g)).toHaveLength(1); // the phase is said once
    expect(r.stdout).toBe('');
  });

  it('create --start from stdin: compiled then running; --json prints the pipeline', async () => {
    const { fake, env } = await server(generation);
    const r = await opsIn(['--json', 'pipe', 'create', 'p1', '--start', '--workers', '3', '--description', 'demo'], { env, input: SQL.replace('SELEC', 'SELECT') });
    expect(r.stderr).toContain('created pipeline p1');
    expect(r.exitCode).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p).toMatchObject({ name: 'p1', description: 'demo', deployment_status: 'Running', program_status: 'Success' });
    expect(p.runtime_config.workers).toBe(3);
    expect(fake.requests.filter((q) => q.method === 'POST').map((q) => q.path)).toEqual(['/v0/pipelines/p1/start']);
  });

  it('create refuses an existing pipeline without --replace; --replace updates it; --no-wait returns at once', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1');
    const path = file('ok.sql', 'CREATE TABLE orders (id INT);');
    const refused = await opsIn(['pipe', 'create', 'p1', path], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('already exists');
    const replaced = await opsIn(['pipe', 'create', 'p1', path, '--replace', '--no-wait'], { env });
    expect(replaced.exitCode).toBe(0);
    expect(replaced.stderr).toContain('updated pipeline p1');
    expect(fake.pipelines.get('p1')!.program_status).toBe('Pending');
  });

  it('start: exit 8 when --timeout runs out; exit 1 with the deployment error when it fails', async () => {
    const { fake, env } = await server(generation, { stuck: true });
    fake.seed('p1');
    const slow = await opsIn(['pipe', 'start', 'p1', '--timeout', '1'], { env });
    expect(slow.exitCode).toBe(8);
    expect(slow.stderr).toMatch(/did not reach Running in time \(it is Initializing\)/);
    const failing = await server(generation, { failStart: (n) => (n === 'p2' ? { message: "Failed to connect to 'http://127.0.0.1:9/x.json'", error_code: 'InitializationError' } : undefined) });
    failing.fake.seed('p2');
    const r = await opsIn(['pipe', 'start', 'p2'], { env: failing.env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("p2 failed: Failed to connect to 'http://127.0.0.1:9/x.json' (InitializationError)");
    // Starting again after a failure: today's API needs the error dismissed first, which start does.
    failing.fake.seed('p3', { deployment_error: { message: 'old failure', error_code: 'X', details: null } });
    const again = await opsIn(['pipe', 'start', 'p3'], { env: failing.env });
    expect(again.exitCode).toBe(0);
    if (generation === 'current') expect(again.stderr).toContain('dismissing the previous error of p3: old failure');
  });

  it('start of a pipeline whose program does not compile shows the errors', async () => {
    const { fake, env } = await server(generation);
    const messages = [{ start_line_number: 1, start_column: 1, end_line_number: 1, end_column: 6, warning: false, error_type: 'Compilation error', message: 'no', snippet: null }];
    fake.seed(
      'p1',
      generation === 'current'
        ? { program_status: 'SqlError', program_code: 'CREATE x', program_error: { sql_compilation: { exit_code: 1, messages } } }
        : { program_status: { SqlError: messages }, program_code: 'CREATE x' },
    );
    const r = await opsIn(['pipe', 'start', 'p1'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('p1:1:1: Compilation error: no\nCREATE x\n^^^^^^');
  });

  it('shutdown (and its alias stop) waits until stopped; pause waits until Paused', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const paused = await opsIn(['pipe', 'pause', 'p1'], { env });
    expect(paused.exitCode).toBe(0);
    expect(fake.pipelines.get('p1')!.deployment_status).toBe('Paused');
    const r = await opsIn(['pipe', 'stop', 'p1'], { env });
    expect(r.exitCode).toBe(0);
    expect(fake.pipelines.get('p1')!.deployment_status).toBe(generation === 'current' ? 'Stopped' : 'Shutdown');
    expect(fake.requests.filter((q) => q.method === 'POST').map((q) => q.path.split('/').pop())).toEqual(['pause', generation === 'current' ? 'stop' : 'shutdown']);
  });

  it('delete refuses without a terminal and without --yes (exit 2), deletes with --yes', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1');
    const refused = await opsIn(['pipe', 'delete', 'p1'], { env });
    expect(refused.exitCode).toBe(2);
    expect(fake.pipelines.has('p1')).toBe(true);
    const r = await opsIn(['pipe', 'delete', 'p1', '--yes'], { env });
    expect(r.exitCode).toBe(0);
    expect(fake.pipelines.has('p1')).toBe(false);
    const missing = await opsIn(['pipe', 'status', 'p1'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no pipeline named "p1"');
  });

  it('list, status and programs: TSV when piped, JSON with --json', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { description: 'first' });
    const list = await opsIn(['pipe', 'list'], { env });
    expect(list.stdout.split('\n')[0]!.split('\t').slice(0, 3)).toEqual(['p1', 'Success', generation === 'current' ? 'Stopped' : 'Shutdown']);
    const json = JSON.parse((await opsIn(['pipe', 'list', '--json'], { env })).stdout);
    expect(json[0].name).toBe('p1');
    const status = await opsIn(['pipe', 'status', 'p1'], { env });
    expect(status.stdout).toContain('program\tSuccess');
    expect(status.stdout).toContain(`api\t${generation === 'current' ? 'current Feldera' : 'v0.24-era'}`);
    const programs = await opsIn(['pipe', 'programs'], { env });
    expect(programs.stdout.split('\t').slice(0, 3)).toEqual(['p1', String(fake.pipelines.get('p1')!.program_version), 'Success']);
  });

  it('ingest: NDJSON file, JSON array from stdin, CSV with --format; batches and summary; --wait', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const nd = file('o.ndjson', '{"id":1,"amount":2}\n{"delete":{"id":1}}\n{"id":3}\n');
    const r1 = await opsIn(['pipe', 'ingest', 'p1', 'orders', nd, '--batch-size', '2', '--wait'], { env });
    expect(r1.stderr).toBe('');
    expect(r1.exitCode).toBe(0);
    expect(r1.stdout).toBe('sent 3 records to p1/orders in 2 batches (processed)');
    expect(fake.ingested.map((i) => i.body)).toEqual(['[{"insert":{"id":1,"amount":2}},{"delete":{"id":1}}]', '[{"insert":{"id":3}}]']);
    if (generation === 'current') expect(fake.requests.filter((q) => q.path.endsWith('/completion_status')).length).toBeGreaterThanOrEqual(2);
    else expect(fake.requests.filter((q) => q.path.endsWith('/stats')).length).toBeGreaterThanOrEqual(2);

    const r2 = await opsIn(['--json', 'pipe', 'ingest', 'p1', 'orders'], { env, input: '[{"id":5},{"update":{"id":5,"amount":1}}]' });
    expect(JSON.parse(r2.stdout)).toEqual({ pipeline: 'p1', table: 'orders', format: 'json', records: 2, batches: 1 });
    const r3 = await opsIn(['pipe', 'ingest', 'p1', 'orders', '-', '--format', 'csv'], { env, input: '7,"1.5"\n8,\n' });
    expect(r3.exitCode).toBe(0);
    expect(fake.ingested.at(-1)).toMatchObject({ body: '7,"1.5"\n8,\n', query: { format: 'csv' } });
    const csvFile = file('o.csv', '9,1\n');
    expect((await opsIn(['pipe', 'ingest', 'p1', 'orders', csvFile], { env })).stdout).toContain('sent 1 record ');
  });

  it('ingest: a refused batch stops with the server error and how many records were accepted', async () => {
    const { fake, env } = await server(generation, { badRecordMarker: 'BAD' });
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const nd = file('bad.ndjson', '{"id":1}\n{"id":2}\n{"id":"BAD"}\n{"id":4}\n');
    const r = await opsIn(['pipe', 'ingest', 'p1', 'orders', nd, '--batch-size', '2'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the batch of records 3-4 was refused: Errors parsing input data (1 errors):');
    expect(r.stderr).toContain('2 records were accepted before it.');
    expect(fake.ingested).toHaveLength(1);
    const unknown = await opsIn(['pipe', 'ingest', 'p1', 'nope', nd], { env });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('p1 has no table "nope"');
    const notJson = await opsIn(['pipe', 'ingest', 'p1', 'orders'], { env, input: '1,2\n' });
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toContain('--format csv');
  });

  it('watch: one NDJSON line per change, flushed as it comes, keep-alives dropped, exit 0 at shutdown', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const child = execa('node', [BIN, 'pipe', 'watch', 'p1', 'TOTALS'], { env, extendEnv: false, reject: false, stdin: 'ignore', buffer: false });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    await waitFor(() => fake.watcherCount('totals') === 1);
    fake.emit('totals', [{ insert: { id: 1, n: '2.00' } }], true);
    // The first line arrives while the stream is still open: it was flushed at once.
    expect(JSON.parse((await lines.next()).value)).toEqual({ view: 'totals', insert: { id: 1, n: '2.00' } });
    fake.keepAlive('totals');
    fake.emit('totals', [{ delete: { id: 1, n: '2.00' } }, { insert: { id: 1, n: '3.00' } }]);
    expect(JSON.parse((await lines.next()).value)).toEqual({ view: 'totals', delete: { id: 1, n: '2.00' } });
    expect(JSON.parse((await lines.next()).value)).toEqual({ view: 'totals', insert: { id: 1, n: '3.00' } });
    fake.pipelines.get('p1')!.deployment_desired_status = generation === 'current' ? 'Stopped' : 'Shutdown';
    await opsIn(['pipe', 'status', 'p1'], { env });
    await opsIn(['pipe', 'status', 'p1'], { env });
    expect((await lines.next()).done).toBe(true);
    expect((await child).exitCode).toBe(0);
  });

  it('watch --snapshot --count: the current contents first, then stop after N changes; --raw passes frames', async () => {
    const { fake, env } = await server(generation, { contents: { totals: [{ id: 1 }, { id: 2 }] } });
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const child = opsIn(['pipe', 'watch', 'p1', 'totals', 'big', '--snapshot', '--count', '3'], { env });
    await waitFor(() => fake.watcherCount('totals') === 1 && fake.watcherCount('big') === 1);
    await new Promise((r) => setTimeout(r, 200));
    fake.emit('totals', [{ insert: { id: 3 } }, { insert: { id: 4 } }]);
    const r = await child;
    expect(r.exitCode).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { view: 'totals', insert: { id: 1 } },
      { view: 'totals', insert: { id: 2 } },
      { view: 'totals', insert: { id: 3 } },
    ]);
    await waitFor(() => fake.watcherCount('totals') === 0);
    const raw = opsIn(['pipe', 'watch', 'p1', 'totals', '--raw', '--count', '1'], { env });
    await waitFor(() => fake.watcherCount('totals') === 1);
    fake.keepAlive('totals');
    fake.emit('totals', [{ insert: { id: 9 } }]);
    const rr = await raw;
    expect(rr.stdout).toBe('{"sequence_number":0}\n{"sequence_number":1,"json_data":[{"insert":{"id":9}}]}');
  });

  it('watch: a stream cut by a dying server is an error (exit 1), not a normal end', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const child = opsIn(['pipe', 'watch', 'p1', 'totals'], { env });
    await waitFor(() => fake.watcherCount('totals') === 1);
    fake.emit('totals', [{ insert: { id: 1 } }], true);
    await new Promise((r) => setTimeout(r, 200));
    await fake.crash();
    const r = await child;
    expect(r.stdout).toBe('{"view":"totals","insert":{"id":1}}');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the change stream of totals broke');
    expect(r.stderr).toContain('The pipeline service cannot be reached either');
  });

  it('watch of an unknown view or a stopped pipeline fails clearly', async () => {
    const { fake, env } = await server(generation);
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    fake.seed('p2');
    const r = await opsIn(['pipe', 'watch', 'p1', 'nope'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('p1 has no view "nope"');
    const s = await opsIn(['pipe', 'watch', 'p2', 'totals'], { env });
    expect(s.exitCode).toBe(1);
    expect(s.stderr).toContain('Start it first: ops pipe start p2');
  });

  it('snapshot, stats and logs', async () => {
    const { fake, env } = await server(generation, { contents: { totals: [{ id: 1, n: 'x' }] }, logLines: ['line one', 'line two'] });
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const snap = await opsIn(['pipe', 'snapshot', 'p1', 'totals'], { env });
    expect(snap.stdout).toBe('1\tx');
    expect(JSON.parse((await opsIn(['pipe', 'snapshot', 'p1', 'totals', '--json'], { env })).stdout)).toEqual([{ id: 1, n: 'x' }]);
    const stats = await opsIn(['pipe', 'stats', 'p1'], { env });
    expect(stats.stdout).toContain('global_metrics.total_processed_records\t0\n');
    expect(stats.stdout).toContain('inputs.orders.api.metrics.total_records\t0\n');
    expect(JSON.parse((await opsIn(['pipe', 'stats', 'p1', '--json'], { env })).stdout).global_metrics.state).toBe('Running');
    const logs = await opsIn(['pipe', 'logs', 'p1'], { env });
    expect(logs.exitCode).toBe(0);
    expect(logs.stdout).toBe('line one\nline two');
  });

  it('a case-sensitive (quoted) relation is named with its quotes in URLs, however it was typed', async () => {
    const rows = [{ id: 1 }];
    const { fake, env } = await server(generation, {
      schema: { inputs: ['"TaBle1"'], outputs: ['"MiXed"'] },
      contents: { '"MiXed"': rows, mixed: rows },
    });
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    for (const typed of ['TaBle1', '"TaBle1"']) {
      const r = await opsIn(['pipe', 'ingest', 'p1', typed, '-'], { env, input: '{"id":1}\n' });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    expect(fake.ingested.map((i) => i.table)).toEqual(['"TaBle1"', '"TaBle1"']);
    const snap = await opsIn(['pipe', 'snapshot', 'p1', 'MiXed', '--json'], { env });
    expect(snap.stderr).toBe('');
    expect(JSON.parse(snap.stdout)).toEqual(rows);
    const child = opsIn(['pipe', 'watch', 'p1', 'MiXed', '--count', '1'], { env });
    await waitFor(() => fake.watcherCount('"MiXed"') === 1);
    fake.emit('"MiXed"', [{ insert: { id: 2 } }]);
    const w = await child;
    expect(w.exitCode).toBe(0);
    expect(JSON.parse(w.stdout)).toEqual({ view: 'MiXed', insert: { id: 2 } });
    expect(fake.requests.filter((q) => q.path.includes('/egress/')).every((q) => q.path.endsWith('/egress/%22MiXed%22'))).toBe(true);
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error('condition not met in time');
}

describe('ops pipe: usage and watching stats', () => {
  it('bad numbers are usage errors (exit 2)', async () => {
    const { fake, env } = await server('legacy');
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const r = await opsIn(['pipe', 'ingest', 'p1', 'orders', '--batch-size', '0'], { env, input: '{}' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--batch-size must be a positive whole number');
    expect((await opsIn(['pipe', 'watch', 'p1', 'totals', '--count', 'x'], { env })).exitCode).toBe(2);
    expect((await opsIn(['pipe', 'create', 'p2', '--workers', '-1'], { env, input: 'CREATE TABLE t (x INT);' })).exitCode).toBe(2);
    expect((await opsIn(['pipe', 'create', 'p2'], { env, input: '  \n' })).stderr).toContain('is empty');
  });

  it('stats --watch prints one NDJSON sample per interval when piped and ends when the pipeline stops', async () => {
    const { fake, env } = await server('current');
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const child = execa('node', [BIN, 'pipe', 'stats', 'p1', '--watch', '--interval', '0.2'], { env, extendEnv: false, reject: false, stdin: 'ignore', buffer: false });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = JSON.parse((await lines.next()).value as string);
    expect(first.global_metrics.state).toBe('Running');
    expect(typeof first.time).toBe('string');
    JSON.parse((await lines.next()).value as string);
    fake.pipelines.get('p1')!.deployment_status = 'Stopped';
    const r = await child;
    expect(r.exitCode).toBe(0);
  });
});

describe('ops pipe on a terminal', () => {
  it('watch shows a readable live view (not NDJSON) and says when the pipeline shut down', async () => {
    const { fake, env } = await server('current');
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    const session = runInPty(['pipe', 'watch', 'p1', 'totals'], env, [], 30);
    await waitFor(() => fake.watcherCount('totals') === 1);
    fake.emit('totals', [{ insert: { id: 1, name: 'ann' } }, { delete: { id: 0, name: 'old' } }]);
    await new Promise((r) => setTimeout(r, 300));
    fake.pipelines.get('p1')!.deployment_desired_status = 'Stopped';
    await opsIn(['pipe', 'status', 'p1'], { env });
    await opsIn(['pipe', 'status', 'p1'], { env });
    const res = await session;
    const out = stripAnsi(res.output);
    expect(res.exitCode).toBe(0);
    expect(out).toContain('watching totals of p1');
    expect(out).toMatch(/\d\d:\d\d:\d\d totals \+ id=1 name="ann"/);
    expect(out).toMatch(/totals - id=0 name="old"/);
    expect(out).toContain('p1 shut down; 2 changes');
    expect(out).not.toContain('{"view"');
  });
});
