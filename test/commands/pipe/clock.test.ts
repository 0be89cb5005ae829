/**
 * `ops pipe clock` in-process against an in-process ops serve: reading and moving the NOW() clock of a
 * pipeline driven over HTTP (its view follows), as text and JSON; the errors (a clock that is not driven over
 * HTTP: the server's reason, exit 1; a bad --advance: exit 2) and the message a v0.24-era server (the fake
 * Feldera, which has no such route) gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, startRunning, startSvc, type Svc } from '../../services/pipelines/helpers.js';
import { FakeFeldera } from '../../clients/pipelines/fake-feldera.js';

const SQL = `CREATE TABLE ev (id INT, ts TIMESTAMP) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW recent AS SELECT id FROM ev WHERE ts >= NOW() - INTERVAL 1 HOUR;`;

describe('ops pipe clock against ops serve', () => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'clk', SQL, { runtime_config: { dev_tweaks: { now_http_driven: true } } });
    await createCompiled(svc, 'wall', SQL);
    await startRunning(svc, 'clk');
    await startRunning(svc, 'wall');
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  const recent = async () =>
    (await svc.call('GET', `/v0/pipelines/clk/query?sql=${encodeURIComponent('SELECT id FROM recent')}&format=json`)).text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).ID as number)
      .sort();

  it('prints the clock; --advance and --tick move it forward, and views that read NOW() follow', async () => {
    const read = await opsIn(['pipe', 'clock', 'clk', '--json'], { env });
    expect(read.exitCode, read.stderr).toBe(0);
    const start = JSON.parse(read.stdout) as { now_ms: number; now: string };
    expect(new Date(start.now).getTime()).toBe(start.now_ms);
    const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    const ins = await svc.call(
      'GET',
      `/v0/pipelines/clk/query?sql=${encodeURIComponent(`INSERT INTO ev VALUES (1, TIMESTAMP '${at(start.now_ms - 30 * 60_000)}'), (2, TIMESTAMP '${at(start.now_ms + 90 * 60_000)}')`)}`,
    );
    expect(ins.status, ins.text).toBe(200);
    expect(await recent()).toEqual([1, 2]);

    const hour = await opsIn(['pipe', 'clock', 'clk', '--advance', '3600000'], { env });
    expect(hour.exitCode, hour.stderr).toBe(0);
    expect(hour.stdout.trimEnd()).toBe(`now\t${new Date(start.now_ms + 3_600_000).toISOString()}\nnow_ms\t${start.now_ms + 3_600_000}`);
    expect(await recent()).toEqual([2]);

    const tick = await opsIn(['pipe', 'clock', 'clk', '--tick', '--json'], { env });
    expect(tick.exitCode, tick.stderr).toBe(0);
    expect(JSON.parse(tick.stdout).now_ms).toBe(start.now_ms + 3_600_000 + 1000); // one tick of the default 1 s resolution
  });

  it('a clock not driven over HTTP: the server says so, exit 1; a bad --advance is a usage error', async () => {
    const r = await opsIn(['pipe', 'clock', 'wall', '--advance', '5'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/now_http_driven/);
    for (const bad of ['-5', '1.5', 'soon']) {
      const b = await opsIn(['pipe', 'clock', 'clk', '--advance', bad], { env });
      expect(b.exitCode, bad).toBe(2);
      expect(b.stderr).toContain('--advance takes a whole number of milliseconds');
    }
  });
});

describe('ops pipe clock against a v0.24-era server', () => {
  it('says the server does not offer it, exit 1', async () => {
    const fake = await new FakeFeldera({ generation: 'legacy', schema: { inputs: ['orders'], outputs: ['totals'] } }).start();
    try {
      fake.seed('old', { deployment_status: 'Running', deployment_desired_status: 'Running' });
      const r = await opsIn(['pipe', 'clock', 'old'], { env: isolatedEnv({ OPS_PIPE_URL: fake.url }) });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('this pipeline service does not offer an HTTP-driven clock');
    } finally {
      await fake.close();
    }
  });
});
