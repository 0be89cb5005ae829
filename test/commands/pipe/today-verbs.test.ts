/**
 * `ops pipe metrics`, `ops pipe events` and `ops pipe txn` in-process against an in-process ops serve
 * pipeline service (both --pipeline-api modes serve these routes): real answers in table, TSV and JSON form, a transaction run through the CLI
 * (start, ingest, nothing visible, commit --wait, all visible), the errors (unknown pipeline, not deployed,
 * no transaction, a transaction already open), and the message a v0.24-era server (the fake Feldera, which
 * has none of these routes) gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/context.js';
import { runPipeEvents } from '../../../src/commands/pipe/events.js';
import { runPipeTxnStart, runPipeTxnStatus } from '../../../src/commands/pipe/txn.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, startRunning, startSvc, type Svc } from '../../services/pipelines/helpers.js';
import { FakeFeldera } from '../../clients/pipelines/fake-feldera.js';

const SQL = 'CREATE TABLE t (x INT NOT NULL); CREATE MATERIALIZED VIEW m AS SELECT x FROM t;';

describe.each(['v0.24', 'current'] as const)('ops pipe metrics / events / txn against ops serve (--pipeline-api %s)', (api) => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  const rowsOfM = async () =>
    (await svc.call('GET', `/v0/pipelines/s/query?sql=${encodeURIComponent('SELECT x FROM m')}&format=json`)).text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).X as number)
      .sort();

  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: api });
    await createCompiled(svc, 's', SQL);
    await createCompiled(svc, 'idle', SQL);
    await startRunning(svc, 's');
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('metrics: the Prometheus text as the server wrote it; --json the JSON form', async () => {
    const text = await opsIn(['pipe', 'metrics', 's'], { env });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^# (HELP|TYPE) /m);
    expect(text.stdout).toMatch(/^dbsp_steps_total\{[^}]*pipeline_name="s"[^}]*\} \d+$/m);
    const raw = await svc.call('GET', '/v0/pipelines/s/metrics');
    expect(text.stdout.split('\n').filter((l) => l.startsWith('#'))).toEqual(
      raw.text
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('#')),
    );

    const json = await opsIn(['pipe', 'metrics', 's', '--json'], { env });
    expect(json.exitCode, json.stderr).toBe(0);
    const list = JSON.parse(json.stdout) as { key: string; type: string; values: { labels: Record<string, string> }[] }[];
    const steps = list.find((m) => m.key === 'dbsp_steps_total');
    expect(steps?.values[0]?.labels.pipeline_name).toBe('s');
  });

  it('events: newest first as JSON, TSV rows with the table columns, one event by latest or id', async () => {
    const json = await opsIn(['pipe', 'events', 's', '--json'], { env });
    expect(json.exitCode, json.stderr).toBe(0);
    const events = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(events.length).toBeGreaterThan(3);
    const times = events.map((e) => Date.parse(String(e.recorded_at)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(events[0]).toMatchObject({ deployment_runtime_status: 'Running', program_status: 'Success', deployment_has_error: false });
    expect(events[0]).not.toHaveProperty('deployment_error');

    const all = JSON.parse((await opsIn(['pipe', 'events', 's', '--all', '--json'], { env })).stdout) as Record<string, unknown>[];
    expect(all[0]).toHaveProperty('deployment_error', null);

    const tsv = await opsIn(['pipe', 'events', 's'], { env });
    expect(tsv.exitCode).toBe(0);
    const lines = tsv.stdout.split('\n');
    expect(lines).toHaveLength(events.length);
    expect(lines[0]!.split('\t')).toEqual([events[0]!.recorded_at, 'Provisioned', 'Running', 'Running', 'no', 'Success']);

    const latest = await opsIn(['pipe', 'events', 's', 'latest', '--json'], { env });
    expect(JSON.parse(latest.stdout)).toEqual(events[0]);
    const oldest = events[events.length - 1]!;
    const byId = await opsIn(['pipe', 'events', 's', String(oldest.event_id)], { env });
    expect(byId.exitCode).toBe(0);
    expect(byId.stdout.split('\n')).toContain(`id\t${oldest.event_id}`);
    expect(byId.stdout.split('\n')).toContain(`program\t${oldest.program_status}`);
  });

  it('events on a terminal: a table with the headers and a relative time', async () => {
    const io = memoryIo({ tty: true, columns: 120 });
    await runPipeEvents({ name: 's' }, new Context({}, env as NodeJS.ProcessEnv, io));
    const out = io.stdoutText();
    for (const h of ['WHEN', 'RESOURCES', 'RUNTIME', 'DESIRED', 'ERROR', 'PROGRAM']) expect(out).toContain(h);
    expect(out).toMatch(/just now|ago/);
    expect(out).toContain('Running');
  });

  it('events: an unknown id and a bad id are clear errors', async () => {
    const unknown = await opsIn(['pipe', 'events', 's', '0195f0c1-8d2e-7b3a-9c41-5e6f7a8b9c0d'], { env });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/event/i);
    const bad = await opsIn(['pipe', 'events', 's', 'nope'], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/UUID/i);
  });

  it('a transaction through the CLI: start, ingest, nothing visible, commit --wait, all visible', async () => {
    const start = await opsIn(['pipe', 'txn', 'start', 's'], { env });
    expect(start.exitCode, start.stderr).toBe(0);
    const id = Number(start.stdout);
    expect(id).toBeGreaterThan(0);

    const again = await opsIn(['pipe', 'txn', 'start', 's'], { env });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/already has a transaction in progress/);
    expect(again.stderr).toContain('ops pipe txn commit s');

    const ing = await opsIn(['pipe', 'ingest', 's', 't', '-'], { env, input: '{"x": 1}\n{"x": 2}\n{"x": 3}\n' });
    expect(ing.exitCode, ing.stderr).toBe(0);
    expect(await rowsOfM()).toEqual([]);

    const status = await opsIn(['pipe', 'txn', 'status', 's', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ transaction_status: 'TransactionInProgress', transaction_id: id, transaction_records: 3 });
    const tsv = await opsIn(['pipe', 'txn', 'status', 's'], { env });
    expect(tsv.stdout.split('\n').slice(0, 3)).toEqual(['status\tTransactionInProgress', `id\t${id}`, 'records\t3']);

    // ingest --wait inside a transaction: its token completes only at the commit, so the wait runs out (exit 8)
    const held = await opsIn(['--timeout', '1', 'pipe', 'ingest', 's', 't', '-', '--wait'], { env, input: '{"x": 4}\n' });
    expect(held.exitCode, held.stderr).toBe(8);
    expect(await rowsOfM()).toEqual([]);

    const commit = await opsIn(['pipe', 'txn', 'commit', 's', '--wait', '--json'], { env });
    expect(commit.exitCode, commit.stderr).toBe(0);
    expect(JSON.parse(commit.stdout)).toEqual({ pipeline: 's', transaction_id: id, committed: true, transaction_status: 'NoTransaction' });
    expect(await rowsOfM()).toEqual([1, 2, 3, 4]);

    const io = memoryIo({ tty: false });
    expect(await runPipeTxnStatus({ name: 's' }, new Context({}, env as NodeJS.ProcessEnv, io))).toEqual({ status: 'NoTransaction', id: 0, records: null, msecs: null });

    const next = await opsIn(['pipe', 'txn', 'start', 's', '--json'], { env });
    expect(JSON.parse(next.stdout)).toEqual({ transaction_id: id + 1 });
    const plain = await opsIn(['pipe', 'txn', 'commit', 's'], { env });
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/commit initiated/);

    // on a terminal: a sentence, not a bare number (piped, the id alone stays for `id=$(ops pipe txn start s)`)
    const tty = memoryIo({ tty: true, env });
    const started = await runPipeTxnStart({ name: 's' }, new Context({}, env as NodeJS.ProcessEnv, tty));
    expect(tty.stdoutText()).toBe('');
    expect(tty.stderrText()).toBe(`✓ s: transaction ${started} started; input is held until \`ops pipe txn commit s\` applies it as one step\n`);
    expect((await opsIn(['pipe', 'txn', 'commit', 's'], { env })).exitCode).toBe(0);
  });

  it('commit with no transaction open: exit 1 and how to start one', async () => {
    for (const args of [
      ['pipe', 'txn', 'commit', 's'],
      ['pipe', 'txn', 'commit', 's', '--wait'],
    ]) {
      const r = await opsIn(args, { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/s has no transaction in progress/);
      expect(r.stderr).toContain('ops pipe txn start s');
    }
  });

  it('an unknown pipeline and one that is not deployed: exit 1 with a hint', async () => {
    for (const verb of [['metrics'], ['events'], ['txn', 'start'], ['txn', 'commit'], ['txn', 'status']]) {
      const r = await opsIn(['pipe', ...verb, 'nosuch'], { env });
      expect(r.exitCode, verb.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/no pipeline named "nosuch"/);
    }
    for (const verb of [['metrics'], ['txn', 'start'], ['txn', 'commit'], ['txn', 'status']]) {
      const r = await opsIn(['pipe', ...verb, 'idle'], { env });
      expect(r.exitCode, verb.join(' ')).toBe(1);
      expect(r.stderr).toMatch(verb[1] === 'status' ? /is not currently running or paused/ : /idle is not deployed/);
      expect(r.stderr).toContain('ops pipe start idle');
    }
  });
});

describe("commit --wait against today's Feldera (the fake manager) whose commit never completes", () => {
  it('runs out at --timeout: exit 8 naming the transaction and its status', async () => {
    const fake = await new FakeFeldera({ generation: 'current', commitStuck: true }).start();
    try {
      fake.seed('p', { deployment_status: 'Running', deployment_desired_status: 'Running' });
      const env = isolatedEnv({ OPS_PIPE_URL: fake.url });
      expect((await opsIn(['pipe', 'txn', 'start', 'p'], { env })).stdout).toBe('1');
      const r = await opsIn(['--timeout', '1', 'pipe', 'txn', 'commit', 'p', '--wait'], { env });
      expect(r.exitCode).toBe(8);
      expect(r.stderr).toMatch(/transaction 1 of p is not committed after the time limit \(CommitInProgress\)/);
      const polls = fake.requests.filter((q) => q.path === '/v0/pipelines/p/stats').length;
      expect(polls).toBeGreaterThan(1);
    } finally {
      await fake.close();
    }
  });
});

describe('against a v0.24-era server (no transactions, events or metrics)', () => {
  let fake: FakeFeldera;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    fake = await new FakeFeldera({ generation: 'legacy', schema: { inputs: ['orders'], outputs: ['totals'] } }).start();
    fake.seed('old', { deployment_status: 'Running', deployment_desired_status: 'Running' });
    env = isolatedEnv({ OPS_PIPE_URL: fake.url });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('says the server does not offer them, exit 1', async () => {
    for (const [verb, what] of [
      [['metrics'], 'metrics'],
      [['events'], 'monitor events'],
      [['txn', 'start'], 'transactions'],
      [['txn', 'commit'], 'transactions'],
      [['txn', 'commit', '--wait'], 'transactions'],
      [['txn', 'status'], 'transactions'],
    ] as const) {
      const r = await opsIn(['pipe', ...verb.slice(0, verb[0] === 'txn' ? 2 : 1), 'old', ...verb.slice(verb[0] === 'txn' ? 2 : 1)], { env });
      expect(r.exitCode, verb.join(' ')).toBe(1);
      expect(r.stderr).toContain(`this pipeline service does not offer ${what}`);
    }
    // an unknown pipeline is still that
    const r = await opsIn(['pipe', 'events', 'nosuch'], { env });
    expect(r.stderr).toMatch(/no pipeline named "nosuch"/);
  });
});
