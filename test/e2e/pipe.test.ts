/**
 * `ops pipe` end to end: the built binary against `ops serve` (the pipeline service and its engine).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, ops, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';
import { opsIn } from '../helpers/ops-in-process.js';

let serve: ServeHandle;
let dir: string;
const hasJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  serve = await startServe();
  dir = tempDir('ops-pipe-e2e-');
});
afterAll(async () => {
  await serve?.stop();
});

/** `ops pipe ARGS` in this process (the jq pipeline below goes through the binary). */
const run = (args: string[], extra: { input?: string } = {}) => opsIn(['pipe', ...args], { env: serve.env, ...extra });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ORDERS_SQL = `CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer VARCHAR, amount DECIMAL(10,2));
CREATE MATERIALIZED VIEW totals AS SELECT customer, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY customer;
`;

async function createRunning(name: string, sql = ORDERS_SQL): Promise<void> {
  const r = await run(['create', name, file(`${name}.sql`, sql), '--start']);
  expect(r.stderr).toContain(`${name}: running`);
  expect(r.exitCode).toBe(0);
}

async function snapshot(name: string, view: string): Promise<Record<string, unknown>[]> {
  const r = await run(['snapshot', name, view, '--json']);
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as Record<string, unknown>[]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Wait until the pipeline's stats show an open watch of the view. */
async function watching(name: string, view: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const r = await run(['stats', name, '--json']);
    const outputs = (JSON.parse(r.stdout || '{}').outputs ?? []) as { endpoint_name: string }[];
    if (outputs.some((o) => o.endpoint_name.toUpperCase().startsWith(`API-WATCH-${view.toUpperCase()}`))) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('the watch never appeared in the stats');
}

describe('ops pipe end to end against ops serve', { timeout: 120_000 }, () => {
  it('create: a syntax error and a semantic error, each as FILE:LINE:COL, the line and a caret; exit 1', async () => {
    const syntax = file('syntax.sql', 'CREATE TABLE t (id INT, name VARCHAR);\nCREATE VIEW v AS SELEC id FROM t;\n');
    const r1 = await run(['create', 'bad-syntax', syntax]);
    expect(r1.exitCode).toBe(1);
    expect(r1.stderr).toMatch(new RegExp(`${syntax.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:18: Error parsing SQL: .*SELEC\\nCREATE VIEW v AS SELEC id FROM t;\\n {17}\\^+\\n`));
    const semantic = file('semantic.sql', 'CREATE TABLE t (id INT, name VARCHAR);\nCREATE VIEW v AS\n  SELECT id, nope FROM t;\n');
    const r2 = await run(['create', 'bad-semantic', semantic]);
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toContain(`${semantic}:3:14: Compilation error: Column 'nope' not found in any table\n  SELECT id, nope FROM t;\n             ^\n`);
    // status shows the same errors against the stored program
    const status = await run(['status', 'bad-semantic']);
    expect(status.stdout).toContain('program\tSqlError');
    expect(status.stderr).toContain("bad-semantic:3:14: Compilation error: Column 'nope' not found in any table");
  });

  it.skipIf(!hasJq)('create, start, ingest in steps, `ops pipe watch | jq -c` sees each step in order, shutdown ends it with 0', async () => {
    await createRunning('flow');
    const pipeline = execa(
      'bash',
      ['-o', 'pipefail', '-c', `node ${BIN} pipe watch flow TOTALS | jq --unbuffered -c '[(if .insert then "+" else "-" end), (.insert // .delete).CUSTOMER, (.insert // .delete).TOTAL]'`],
      {
        env: serve.env,
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        buffer: false,
      },
    );
    const lines = createInterface({ input: pipeline.stdout! })[Symbol.asyncIterator]();
    const take = async (n: number) => {
      const got: string[] = [];
      for (let i = 0; i < n; i++) got.push((await lines.next()).value as string);
      return got.sort();
    };
    await watching('flow', 'totals');

    const step1 = file('step1.ndjson', '{"id":1,"customer":"ann","amount":10}\n{"id":2,"customer":"bob","amount":5.5}\n');
    expect((await run(['ingest', 'flow', 'orders', step1, '--wait'])).exitCode).toBe(0);
    expect(await take(2)).toEqual(['["+","ann","10.00"]', '["+","bob","5.50"]']);

    const r2 = await run(['ingest', 'flow', 'orders', '-', '--wait'], { input: '[{"update":{"id":2,"amount":7}},{"delete":{"id":1}}]' });
    expect(r2.exitCode).toBe(0);
    expect(await take(3)).toEqual(['["+","bob","7.00"]', '["-","ann","10.00"]', '["-","bob","5.50"]']);

    expect((await run(['ingest', 'flow', 'orders', '-', '--format', 'csv', '--wait'], { input: '3,ann,1.25\n' })).exitCode).toBe(0);
    expect(await take(1)).toEqual(['["+","ann","1.25"]']);

    const down = await run(['shutdown', 'flow']);
    expect(down.exitCode).toBe(0);
    expect((await lines.next()).done).toBe(true);
    expect((await pipeline).exitCode).toBe(0);
  });

  it('ingest: NDJSON, JSON arrays and CSV, from files and stdin, in batches, with --wait', async () => {
    await createRunning('ingest');
    const nd = file('a.ndjson', '{"id":1,"customer":"a","amount":1}\n{"id":2,"customer":"b","amount":2}\n{"id":3,"customer":"a","amount":3}\n');
    const r1 = await run(['ingest', 'ingest', 'orders', nd, '--batch-size', '2', '--wait']);
    expect(r1.stdout).toBe('sent 3 records to ingest/orders in 2 batches (processed)');
    const arr = file('b.json', '[{"id":4,"customer":"c","amount":4},{"delete":{"id":2}}]');
    expect((await run(['ingest', 'ingest', 'orders', arr, '--wait'])).exitCode).toBe(0);
    const csv = file('c.csv', '5,"d, inc",5\n');
    expect((await run(['ingest', 'ingest', 'orders', csv, '--wait'])).exitCode).toBe(0);
    const r4 = await run(['ingest', 'ingest', 'orders', '--wait', '--json'], { input: '{"id":6,"customer":"e","amount":6}\n' });
    expect(JSON.parse(r4.stdout)).toEqual({ pipeline: 'ingest', table: 'orders', format: 'json', records: 1, batches: 1, processed: true });
    const r5 = await run(['ingest', 'ingest', 'orders', '-', '--wait'], { input: '[[7,"a",10]]' });
    expect(r5.exitCode).toBe(0);
    const r6 = await run(['ingest', 'ingest', 'orders', '-', '--format', 'csv', '--wait'], { input: '8,f,8\r\n9,f,1' });
    expect(r6.stdout).toBe('sent 2 records to ingest/orders in 1 batch (processed)');
    expect(await snapshot('ingest', 'totals')).toEqual([
      { CUSTOMER: 'a', TOTAL: '14.00', N: 3 },
      { CUSTOMER: 'c', TOTAL: '4.00', N: 1 },
      { CUSTOMER: 'd, inc', TOTAL: '5.00', N: 1 },
      { CUSTOMER: 'e', TOTAL: '6.00', N: 1 },
      { CUSTOMER: 'f', TOTAL: '9.00', N: 2 },
    ]);
    // A bad record stops with the server's error and what was accepted before it.
    const bad = file('bad.ndjson', '{"id":10,"customer":"g","amount":1}\n{"id":"x","customer":"g"}\n');
    const r7 = await run(['ingest', 'ingest', 'orders', bad, '--batch-size', '1']);
    expect(r7.exitCode).toBe(1);
    expect(r7.stderr).toContain('the batch of records 2-2 was refused: ');
    expect(r7.stderr).toContain('1 record was accepted before it.');
    expect(await run(['shutdown', 'ingest'])).toMatchObject({ exitCode: 0 });
  });

  it('ingest: a refused batch names each bad record by its number in the input', async () => {
    await createRunning('badrec');
    const lines = Array.from({ length: 7 }, (_, i) => JSON.stringify({ id: i + 1, customer: 'c', amount: i === 5 ? 'lots' : 1 }));
    lines[6] = '{"id":"seven","customer":"c","amount":1}';
    const r = await run(['ingest', 'badrec', 'orders', file('bad.ndjson', lines.join('\n') + '\n'), '--batch-size', '3']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('the batch of records 4-6 was refused: 1 bad record (ParseErrors):\n');
    expect(r.stderr).toContain(`\n  record 6: failed to deserialize JSON record: error parsing field 'AMOUNT'`);
    expect(r.stderr).toContain('\n3 records were accepted before it.');
    const csv = await run(['ingest', 'badrec', 'orders', file('bad.csv', '10,a,1\nx,b,2\n12,c,y\n'), '--batch-size', '2']);
    expect(csv.exitCode).toBe(1);
    expect(csv.stderr).toContain('the batch of records 1-2 was refused: 1 bad record (ParseErrors):\n  record 2: ');
  });

  it('start: exit 8 when --timeout runs out while a source hangs; exit 1 with the deployment error when a source is unreachable', async () => {
    const hanging: Server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
    const port = (hanging.address() as AddressInfo).port;
    const closed: Server = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const sql = (p: number) =>
      `CREATE TABLE src (id INT) WITH ('connectors' = '[{"name": "feed", "transport": {"name": "url_input", "config": {"path": "http://127.0.0.1:${p}/data.json"}}, "format": {"name": "json"}}]');\nCREATE VIEW v AS SELECT * FROM src;\n`;
    try {
      expect((await run(['create', 'slow', file('slow.sql', sql(port))])).exitCode).toBe(0);
      const slow = await run(['start', 'slow', '--timeout', '1']);
      expect(slow.exitCode).toBe(8);
      expect(slow.stderr).toContain('slow did not reach Running in time');
      expect((await run(['shutdown', 'slow'])).exitCode).toBe(0);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
    expect((await run(['create', 'dead', file('dead.sql', sql(deadPort))])).exitCode).toBe(0);
    const dead = await run(['start', 'dead']);
    expect(dead.exitCode).toBe(1);
    expect(dead.stderr).toMatch(/dead failed: .*cannot read its source .*\(InitializationError\)/);
    const status = await run(['status', 'dead', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ deployment_status: 'Failed', deployment_error: { error_code: 'InitializationError' } });
  });

  it('list, programs, pause, stats, logs, watch --snapshot --count, delete with confirmation', async () => {
    await createRunning('misc');
    expect((await run(['ingest', 'misc', 'orders', '--wait'], { input: '{"id":1,"customer":"x","amount":2}' })).exitCode).toBe(0);
    const list = await run(['list']);
    expect(list.stdout).toMatch(/^misc\tSuccess\tRunning\t/m);
    const programs = await run(['programs', '--json']);
    expect(JSON.parse(programs.stdout).some((p: { name: string }) => p.name === 'misc')).toBe(true);
    const watch = await run(['watch', 'misc', 'totals', '--snapshot', '--count', '1']);
    expect(watch.exitCode).toBe(0);
    expect(JSON.parse(watch.stdout)).toEqual({ view: 'TOTALS', insert: { CUSTOMER: 'x', TOTAL: '2.00', N: 1 } });
    const stats = await run(['stats', 'misc']);
    expect(stats.stdout).toMatch(/^global_metrics\.total_processed_records\t1$/m);
    expect((await run(['pause', 'misc'])).exitCode).toBe(0);
    expect(JSON.parse((await run(['status', 'misc', '--json'])).stdout).deployment_status).toBe('Paused');
    const logs = await run(['logs', 'misc']);
    expect(logs.exitCode).toBe(0);
    expect(logs.stdout).toContain('deployment status: Paused');
    const running = await run(['delete', 'misc', '--yes']);
    expect(running.exitCode).toBe(1);
    expect(running.stderr).toContain('Stop it first: ops pipe shutdown misc');
    expect((await run(['stop', 'misc'])).exitCode).toBe(0);
    const refused = await run(['delete', 'misc']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await run(['delete', 'misc', '--yes'])).exitCode).toBe(0);
    expect((await run(['status', 'misc'])).stderr).toContain('no pipeline named "misc"');
  });

  it('table and view names longer than 100 characters work in URLs', async () => {
    const name = `long-${'p'.repeat(95)}`; // the longest pipeline name
    const table = `orders_${'t'.repeat(120)}`;
    const view = `totals_${'v'.repeat(120)}`;
    await createRunning(name, `CREATE TABLE ${table} (id INT NOT NULL, amount DECIMAL(10,2));\nCREATE MATERIALIZED VIEW ${view} AS SELECT SUM(amount) AS total FROM ${table};\n`);
    const ingest = await run(['ingest', name, table, '--wait'], { input: '{"id":1,"amount":2}' });
    expect(ingest.stderr).toBe('');
    expect(ingest.exitCode).toBe(0);
    expect(await snapshot(name, view)).toEqual([{ TOTAL: '2.00' }]);
    const res = await fetch(`${serve.url}/v0/pipelines/${name}/ingress/${'x'.repeat(150)}?format=json`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_code: 'UnknownInputStream' });
    const badUrl = await fetch(`${serve.url}/v0/pipelines/${name}/ingress/%E0%A4%A?format=json`, { method: 'POST', body: '{}' });
    expect(badUrl.status).toBe(400);
    expect(await badUrl.json()).toMatchObject({ error_code: 'InvalidUrl', details: { url: `/v0/pipelines/${name}/ingress/%E0%A4%A?format=json` } });
    expect((await run(['stop', name])).exitCode).toBe(0);
    expect((await run(['delete', name, '--yes'])).exitCode).toBe(0);
  });
});

describe('ops pipe against ops serve --pipelines-auth', { timeout: 120_000 }, () => {
  it('uses the API key of the local profile; a wrong key is an auth failure (exit 4)', async () => {
    const secured = await startServe(['--pipelines-auth']);
    try {
      const ok = await ops(['pipe', 'list', '--json'], { env: secured.env });
      expect(ok.exitCode).toBe(0);
      expect(JSON.parse(ok.stdout)).toEqual([]);
      const bad = await ops(['pipe', 'list'], { env: { ...secured.env, OPS_PIPE_API_KEY: 'apikey:wrong' } });
      expect(bad.exitCode).toBe(4);
      expect(bad.stderr).toContain('not authenticated with the pipeline service');
    } finally {
      await secured.stop();
    }
  });
});
