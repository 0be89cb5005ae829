/**
 * `ops pipe ingest` in-process against a real pipeline service (SQL compiled, pipeline running in its worker):
 * CSV with a header line mapped by name; header-less CSV as Feldera takes it; a paused pipeline; and
 * `ops pipe snapshot` of a view that is not there (said in words, not with the server's endpoint name); and
 * `ops pipe stats` on a terminal (units) and piped (raw numbers).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../src/context.js';
import { runPipeIngest } from '../../../src/commands/pipe/ingest.js';
import { runPipeSnapshot } from '../../../src/commands/pipe/snapshot.js';
import { runPipeStats } from '../../../src/commands/pipe/stats.js';
import { createCompiled, snapshot, startRunning, startSvc, bag, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { tempDir } from '../../helpers/cli.js';

let svc: Svc;
const dir = tempDir('ops-ingest-csv-');

beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'people', 'CREATE TABLE people (id INT NOT NULL, name VARCHAR, city VARCHAR);\nCREATE MATERIALIZED VIEW everyone AS SELECT * FROM people;');
  await startRunning(svc, 'people');
}, 60_000);
afterAll(async () => {
  await svc.close();
});

async function ingest(text: string, opts: { header?: boolean; force?: boolean; wait?: boolean } = {}) {
  const file = join(dir, `in-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const io = memoryIo({ tty: false });
  const ctx = new Context({ json: true }, { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') }, io);
  let error: Error | undefined;
  try {
    await runPipeIngest({ name: 'people', table: 'people', file, wait: true, ...opts }, ctx);
  } catch (err) {
    error = err as Error;
  }
  return { error, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('ops pipe ingest with CSV', () => {
  test('a header naming the columns (any order, any case) maps each record by name', async () => {
    const r = await ingest('NAME,id,City\nAnn,1,Oslo\n"Bo, Jr.",2,\n');
    expect(r.error).toBeUndefined();
    expect(JSON.parse(r.stdout)).toMatchObject({ records: 2 });
    const rows = (await snapshot(svc, 'people', 'everyone')).json_data ?? [];
    expect(bag(rows.map((c: any) => c.insert))).toEqual(
      bag([
        { ID: 1, NAME: 'Ann', CITY: 'Oslo' },
        { ID: 2, NAME: 'Bo, Jr.', CITY: null },
      ]),
    );
  });

  test('header-less CSV goes as it is; --no-header sends a header-like line as a row (and the server refuses it)', async () => {
    expect((await ingest('3,Cy,Rome\n')).error).toBeUndefined();
    const rows = (await snapshot(svc, 'people', 'everyone')).json_data ?? [];
    expect(rows.map((c: any) => c.insert.ID).sort()).toEqual([1, 2, 3]);
    const forced = await ingest('id,name,city\n4,Di,Nice\n', { header: false });
    expect(forced.error?.message).toMatch(/refused/);
  });

  test('--header with a first line that is not a header, or a record of the wrong width: a clear error', async () => {
    const r = await ingest('5,Ed,Paris\n', { header: true });
    expect(r.error?.message).toMatch(/--header: the first record is not a header of the table's columns/);
    const short = await ingest('id,name,city\n6,Fay\n');
    expect(short.error?.message).toMatch(/record 1 \(after the header\) has 2 fields; the header has 3/);
  });
});

describe('ops pipe ingest into a paused pipeline', () => {
  test('stops at once saying it is paused and how to start it; --force queues the records', async () => {
    expect((await svc.call('POST', '/v0/pipelines/people/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/people')).json.deployment_status === 'Paused', 'Paused');
    const r = await ingest('7,Gil,Bern\n');
    expect(r.error?.message).toBe('people is paused: it takes no records until it runs');
    expect((r.error as { hint?: string }).hint).toContain('ops pipe start people');
    const forced = await ingest('7,Gil,Bern\n', { force: true, wait: false });
    expect(forced.error).toBeUndefined();
    await startRunning(svc, 'people');
    await waitFor(async () => ((await snapshot(svc, 'people', 'everyone')).json_data ?? []).some((c: any) => c.insert.ID === 7), 'the queued record');
  });
});

describe('ops pipe snapshot of an unknown view', () => {
  test("names the view and where to look, not the server's internal endpoint", async () => {
    const io = memoryIo({ tty: false });
    const ctx = new Context({}, { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') }, io);
    const err = (await runPipeSnapshot({ name: 'people', view: 'nosuch' }, ctx).catch((e: unknown) => e)) as Error & { hint?: string };
    expect(err.message).toBe('people has no view "nosuch"');
    expect(err.hint).toContain('ops pipe status people');
  });
});

describe('ops pipe stats', () => {
  test('on a terminal: sizes and durations in units, the start time as a date; piped: the raw numbers', async () => {
    const env = { OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: tempDir('ops-cfg-') };
    const tty = memoryIo({ tty: true, columns: 100 });
    await runPipeStats({ name: 'people' }, new Context({}, env, tty));
    const text = tty.stdoutText();
    expect(text).toMatch(/^ {2}rss_bytes +\d+\.\d (KiB|MiB|GiB)$/m);
    expect(text).toMatch(/^ {2}cpu_msecs +\d+(\.\d)? (ms|s)$|^ {2}cpu_msecs +\d+m \d\ds$/m);
    expect(text).toMatch(/^ {2}start_time +\d{4}-\d\d-\d\dT.*Z \((just now|\d+\w+ ago)\)$/m);
    const piped = memoryIo({ tty: false });
    await runPipeStats({ name: 'people' }, new Context({}, env, piped));
    expect(piped.stdoutText()).toMatch(/^global_metrics\.rss_bytes\t\d+$/m);
  });
});
