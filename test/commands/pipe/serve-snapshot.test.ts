/**
 * `ops pipe watch --snapshot` against `ops serve` with today's API (egress send_snapshot=true): the contents
 * first, then changes; on a view that is not materialized the server's 400 reaches the user as a clear
 * message and exit 1 (Feldera needs a materialized relation for a snapshot), not an empty stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, startRunning, startSvc, type Svc } from '../../services/pipelines/helpers.js';

describe('ops pipe watch --snapshot against ops serve (current API)', () => {
  let svc: Svc;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: 'current' });
    await createCompiled(svc, 's', 'CREATE TABLE t (x INT); CREATE MATERIALIZED VIEW m AS SELECT x FROM t; CREATE VIEW plain AS SELECT x FROM t;');
    await startRunning(svc, 's');
    expect((await ingest(svc, 's', 't', 'format=csv', '1\n2\n')).status).toBe(200);
    env = isolatedEnv({ OPS_PIPE_URL: svc.base });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('prints the contents of a materialized view first', async () => {
    const r = await opsIn(['pipe', 'watch', 's', 'm', '--snapshot', '--count', '2', '--json'], { env });
    expect(r.exitCode).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).insert?.X)
        .sort(),
    ).toEqual([1, 2]);
  });

  it('a view that is not materialized: the server says why, exit 1', async () => {
    const r = await opsIn(['pipe', 'watch', 's', 'plain', '--snapshot', '--count', '1'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/materialized/i);
    expect(r.stdout).toBe('');
  });
});
