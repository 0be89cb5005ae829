/**
 * `ops pipe connector start|pause|stats` in-process against an in-process ops serve: a connector created
 * paused is started (its queued data applied) and paused again, as text and JSON; its stats; the errors (an
 * unknown connector or table, a pipeline that is not deployed: exit 1 with a hint; missing arguments: exit 2)
 * and the message a v0.24-era server (the fake Feldera, which has no such routes) gets.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, startRunning, startSvc, type Svc } from '../../services/pipelines/helpers.js';
import { FakeFeldera } from '../../clients/pipelines/fake-feldera.js';

const dir = mkdtempSync(join(tmpdir(), 'ops-pipe-connector-cmd-'));

describe('ops pipe connector against ops serve', () => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    svc = await startSvc({ connectorRoot: dir });
    const path = join(dir, 'orders.json');
    writeFileSync(path, '{"id": 1}\n{"id": 2}\n{"id": 3}\n');
    const conn = `{"name": "src", "paused": true, "transport": {"name": "url_input", "config": {"path": "${pathToFileURL(path).href}"}}, "format": {"name": "json", "config": {"update_format": "raw"}}}`;
    const sql = `CREATE TABLE orders (id INTEGER) WITH ('connectors' = '[${conn}]');\nCREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS c FROM orders;`;
    await createCompiled(svc, 'shop', sql);
    await createCompiled(svc, 'idle', sql);
    await startRunning(svc, 'shop');
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  const count = async () => Number(JSON.parse((await svc.call('GET', `/v0/pipelines/shop/query?sql=${encodeURIComponent('SELECT c FROM n')}&format=json`)).text.trim()).C);

  it('stats shows the connector paused with its data queued; start applies it; pause pauses it again', async () => {
    const stats = await opsIn(['pipe', 'connector', 'stats', 'shop', 'orders', 'src'], { env });
    expect(stats.exitCode, stats.stderr).toBe(0);
    // piped: tab-separated field and value lines
    expect(stats.stdout).toMatch(/^endpoint\tORDERS\.src$/m);
    expect(stats.stdout).toMatch(/^state\tpaused$/m);
    expect(stats.stdout).toMatch(/^queued\t3$/m);
    expect(await count()).toBe(0);

    const start = await opsIn(['pipe', 'connector', 'start', 'shop', 'orders', 'src'], { env });
    expect(start.exitCode, start.stderr).toBe(0);
    expect(start.stderr).toContain('shop: input connector ORDERS.src started');
    expect(await count()).toBe(3);

    const pause = await opsIn(['pipe', 'connector', 'pause', 'shop', 'orders', 'src', '--json'], { env });
    expect(pause.exitCode, pause.stderr).toBe(0);
    expect(JSON.parse(pause.stdout)).toMatchObject({ endpoint_name: 'ORDERS.src', paused: true, metrics: { total_records: 3, buffered_records: 0 } });
    const json = await opsIn(['pipe', 'connector', 'stats', 'shop', 'orders', 'src', '--json'], { env });
    expect(JSON.parse(json.stdout).paused).toBe(true);
  });

  it('an unknown connector or table, a pipeline not deployed: exit 1 with a hint; missing arguments: exit 2', async () => {
    for (const args of [
      ['shop', 'orders', 'nope'],
      ['shop', 'nosuch', 'src'],
    ]) {
      const r = await opsIn(['pipe', 'connector', 'pause', ...args], { env });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`shop has no input connector "${args[2]}" on table "${args[1]}"`);
      expect(r.stderr).toContain('ops pipe stats shop --json');
    }
    const idle = await opsIn(['pipe', 'connector', 'start', 'idle', 'orders', 'src'], { env });
    expect(idle.exitCode).toBe(1);
    expect(idle.stderr).toContain('idle is not deployed');
    expect(idle.stderr).toContain('ops pipe start idle');
    const missing = await opsIn(['pipe', 'connector', 'start', 'shop', 'orders'], { env });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'connector'/);
  });
});

describe('ops pipe connector against a v0.24-era server', () => {
  it('says the server does not offer it, exit 1', async () => {
    const fake = await new FakeFeldera({ generation: 'legacy', schema: { inputs: ['orders'], outputs: ['totals'] } }).start();
    try {
      fake.seed('old', { deployment_status: 'Running', deployment_desired_status: 'Running' });
      const r = await opsIn(['pipe', 'connector', 'pause', 'old', 'orders', 'src'], { env: isolatedEnv({ OPS_PIPE_URL: fake.url }) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('this pipeline service does not offer input connector start and pause');
    } finally {
      await fake.close();
    }
  });
});
