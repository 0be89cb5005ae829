/**
 * Ctrl-C during `ops pipe ingest` (in process, against an in-process pipeline service): the batch in flight is
 * finished, the command exits 130 saying which records were accepted and the command that goes on from there
 * (--skip N); running that command loads the rest, each record once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../src/context.js';
import { runPipeIngest } from '../../../src/commands/pipe/ingest.js';
import { createCompiled, startRunning, startSvc, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'p', 'CREATE TABLE t (x INT NOT NULL); CREATE MATERIALIZED VIEW v AS SELECT x FROM t;');
  await startRunning(svc, 'p');
}, 60_000);
afterAll(async () => {
  await svc?.close();
});

const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `{"x":${from + i}}\n`).join('');
const counts = async () => {
  const sql = encodeURIComponent('SELECT COUNT(*) AS n, COUNT(DISTINCT x) AS d FROM v');
  const line = (await svc.call('GET', `/v0/pipelines/p/query?sql=${sql}&format=json`)).text.trim();
  const row = JSON.parse(line) as Record<string, number>;
  return { n: row.N ?? row.n, d: row.D ?? row.d };
};

describe('ops pipe ingest, interrupted', () => {
  it('Ctrl-C between batches: exit 130, the records accepted, the --skip that goes on; resuming loads the rest once', async () => {
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
    const stdin = new PassThrough();
    const io = { ...memoryIo({ env }), stdin };
    const run = runPipeIngest({ name: 'p', table: 't', file: '-', batchSize: '1000' }, new Context({}, env, io)).then(
      () => undefined,
      (err: Error & { exitCode?: number; hint?: string }) => err,
    );
    stdin.write(rows(1, 2500)); // two whole batches go; 500 records wait for more input
    await waitFor(async () => (await counts()).n === 2000 || undefined, '2000 rows in the table');
    process.emit('SIGINT');
    const err = await run;
    expect(err?.exitCode).toBe(130);
    expect(err?.message).toBe('interrupted: records 1-2000 were sent and accepted (2000); nothing after record 2000 was sent');
    expect(err?.hint).toBe('To go on from there: ops pipe ingest p t - --skip 2000');
    expect(process.listenerCount('SIGINT')).toBe(0);

    const file = join(tempDir('ops-ingest-'), 'all.ndjson');
    writeFileSync(file, rows(1, 3000));
    const resumed = memoryIo({ env });
    await runPipeIngest({ name: 'p', table: 't', file, skip: '2000', wait: true }, new Context({ json: true }, env, resumed));
    expect(JSON.parse(resumed.stdoutText())).toMatchObject({ records: 1000 });
    expect(await counts()).toEqual({ n: 3000, d: 3000 });
  });

  it('--skip must be a whole number', async () => {
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
    await expect(runPipeIngest({ name: 'p', table: 't', file: '-', skip: '-1' }, new Context({}, env, memoryIo({ env, stdin: '' })))).rejects.toThrow(
      '--skip must be a whole number (0 or more), not "-1"',
    );
  });
});
