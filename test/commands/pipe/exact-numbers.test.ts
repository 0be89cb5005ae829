/**
 * `ops pipe` keeps every digit of 64-bit integers and long decimals in every output that prints rows: the
 * commands run in-process against our own pipeline service (both API generations) holding BIGINT
 * 9007199254740993 and -9223372036854775808 and a DECIMAL(38,10): watch --json (live and --snapshot), the live
 * terminal view, snapshot and query as JSON, TSV and a terminal table; and ingest sends them exactly. Against
 * the Feldera fake (both generations) the same with BIGINT and DECIMAL values sent as bare JSON numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '../../../src/context.js';
import { runPipeWatch } from '../../../src/commands/pipe/watch.js';
import { runPipeSnapshot } from '../../../src/commands/pipe/snapshot.js';
import { runPipeQuery } from '../../../src/commands/pipe/query.js';
import { runPipeIngest } from '../../../src/commands/pipe/ingest.js';
import { runPipeLogs } from '../../../src/commands/pipe/logs.js';
import { tempDir } from '../../helpers/cli.js';
import { memoryIo } from '../../helpers/memory-io.js';
import { createCompiled, startRunning, startSvc, waitFor, type Svc } from '../../services/pipelines/helpers.js';
import { FakeFeldera } from '../../clients/pipelines/fake-feldera.js';
import { JsonNumber } from '../../../src/core/json-exact.js';

const SQL = `CREATE TABLE t (k INT NOT NULL PRIMARY KEY, b BIGINT, d DECIMAL(38, 10)) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT k, b, d FROM t;`;

const BIG = '9007199254740993';
const MIN = '-9223372036854775808';
const MAX = '9223372036854775807';
const DEC = '1234567890123456789012345678.1234567890';

/** The rows as ops pipe ingest reads them: the big integers and the long decimal as bare JSON numbers. */
const ROWS = [`{"k":1,"b":${BIG},"d":${DEC}}`, `{"k":2,"b":${MIN},"d":-0.0000000001}`, `{"k":3,"b":7,"d":1.5}`];

describe.each(['v0.24', 'current'] as const)('ops pipe against ops serve (%s API): every digit', (api) => {
  let svc: Svc;
  const dir = tempDir('ops-exact-');
  const env = () => ({ OPS_PIPE_URL: svc.base, OPS_CONFIG_DIR: dir });
  const context = (opts: { json?: boolean; tty?: boolean } = {}) => {
    const io = memoryIo({ env: env(), tty: opts.tty, columns: 200 });
    return { ctx: new Context({ json: opts.json }, env(), io), io };
  };
  /** The server's own text of a row of V (the reference the CLI's output must match digit for digit). */
  let serverRows: string[];

  beforeAll(async () => {
    svc = await startSvc({ pipelineApi: api });
    await createCompiled(svc, 'nums', SQL);
    await startRunning(svc, 'nums');
    const file = join(dir, 'rows.ndjson');
    writeFileSync(file, ROWS.join('\n') + '\n');
    const { ctx, io } = context();
    await runPipeIngest({ name: 'nums', table: 't', file, wait: true }, ctx);
    expect(io.stdoutText()).toContain('sent 3 records');
    const q = await svc.call('GET', `/v0/pipelines/nums/query?sql=${encodeURIComponent('SELECT * FROM v ORDER BY k')}&format=json`);
    serverRows = q.text.trim().split('\n');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  it('the server holds what ingest sent, every digit (the reference for the outputs below)', () => {
    expect(serverRows[0]).toMatch(new RegExp(`^\\{"K":1,"B":${BIG},"D":"?${DEC}"?\\}$`));
    expect(serverRows[1]).toMatch(new RegExp(`^\\{"K":2,"B":${MIN},"D":"?-0\\.0000000001"?\\}$`));
    expect(serverRows[2]).toMatch(/^\{"K":3,"B":7,"D":"?1\.5(0+)?"?\}$/);
  });

  // v0.24: the CLI reads a snapshot beside the watch; current: the server's send_snapshot frames
  it('watch --json --snapshot: one NDJSON line per row, as the server wrote it', async () => {
    const { ctx, io } = context({ json: true });
    await runPipeWatch({ name: 'nums', views: ['v'], snapshot: true, count: '3' }, ctx);
    const lines = io.stdoutText().trim().split('\n').sort();
    expect(lines).toEqual(serverRows.map((r) => `{"view":"V","insert":${r}}`).sort());
  });

  it('watch --json and the live terminal view print a change as it comes, every digit', async () => {
    const json = context({ json: true });
    const live = context({ tty: true });
    const watches = [runPipeWatch({ name: 'nums', views: ['v'], count: '1' }, json.ctx), runPipeWatch({ name: 'nums', views: ['v'], count: '1' }, live.ctx)];
    await waitFor(async () => {
      const stats = (await svc.call('GET', '/v0/pipelines/nums/stats')).json as { outputs?: { endpoint_name: string }[] };
      return (stats.outputs ?? []).filter((o) => o.endpoint_name.toUpperCase().startsWith('API-WATCH-V')).length >= 2;
    }, 'both watches open');
    const r = await svc.call('POST', '/v0/pipelines/nums/ingress/t?format=json', undefined, { raw: `{"insert":{"k":4,"b":${MAX},"d":"-${DEC}"}}`, headers: { 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(200);
    await Promise.all(watches);
    expect(json.io.stdoutText()).toMatch(new RegExp(`^\\{"view":"V","insert":\\{"K":4,"B":${MAX},"D":"?-${DEC}"?\\}\\}\\n$`));
    expect(live.io.stdoutText()).toMatch(new RegExp(` V \\+ K=4 B=${MAX} D="?-${DEC}"?\\n$`));
    const del = await svc.call('POST', '/v0/pipelines/nums/ingress/t?format=json', undefined, { raw: `{"delete":{"k":4,"b":${MAX},"d":"-${DEC}"}}`, headers: { 'content-type': 'application/json' } });
    expect(del.status, del.text).toBe(200);
  });

  it('snapshot --json, TSV and a terminal table: every digit', async () => {
    const json = context({ json: true });
    await runPipeSnapshot({ name: 'nums', view: 'v' }, json.ctx);
    const text = json.io.stdoutText();
    for (const row of serverRows) {
      for (const [, key, value] of row.matchAll(/"([A-Z])":("[^"]*"|[^,}]+)/g)) expect(text).toContain(`"${key}": ${value}`);
    }
    expect(text).toContain(`"B": ${BIG}`);
    expect(text).toContain(`"B": ${MIN}`);

    const tsv = context();
    await runPipeSnapshot({ name: 'nums', view: 'v' }, tsv.ctx);
    const lines = tsv.io.stdoutText().trim().split('\n').sort();
    expect(lines).toEqual([`1\t${BIG}\t${DEC}`, `2\t${MIN}\t-0.0000000001`, expect.stringMatching(/^3\t7\t1\.50*$/)]);

    const table = context({ tty: true });
    await runPipeSnapshot({ name: 'nums', view: 'v' }, table.ctx);
    const shown = table.io.stdoutText();
    expect(shown).toMatch(new RegExp(`\\n1\\s+${BIG}\\s+${DEC}\\n`));
    expect(shown).toMatch(new RegExp(`\\n2\\s+${MIN}\\s+-0\\.0000000001\\n`));
  });

  it('query --json, TSV and a terminal table: every digit, computed values too', async () => {
    const sql = 'SELECT k, b, d, b - 1 AS less FROM t WHERE k = 1';
    const json = context({ json: true });
    await runPipeQuery({ name: 'nums', sql }, json.ctx);
    const text = json.io.stdoutText();
    expect(text).toContain(`"B": ${BIG},`);
    expect(text).toContain(`"LESS": 9007199254740992`);
    expect(text).toMatch(new RegExp(`"D": "?${DEC}"?`));

    const tsv = context();
    await runPipeQuery({ name: 'nums', sql: 'SELECT k, b FROM t ORDER BY k' }, tsv.ctx);
    expect(tsv.io.stdoutText()).toBe(`1\t${BIG}\n2\t${MIN}\n3\t7\n`);

    const table = context({ tty: true });
    await runPipeQuery({ name: 'nums', sql: 'SELECT b FROM t WHERE k = 2' }, table.ctx);
    expect(table.io.stdoutText()).toBe(`B\n${MIN}\n`);
  });
});

describe.each(['legacy', 'current'] as const)('ops pipe against Feldera (%s API): BIGINT and DECIMAL sent as JSON numbers', (generation) => {
  const PRICE = '12345678901234567890.1234567890';
  const TINY = '-0.1234567890123456789';
  const contents = {
    v: [
      { ID: new JsonNumber(BIG), PRICE: new JsonNumber(PRICE), N: 1.5 },
      { ID: new JsonNumber(MIN), PRICE: new JsonNumber(TINY), N: 2 },
    ],
  };
  /** The rows as Feldera writes them: the numbers bare, every digit. */
  const ROW1 = `{"ID":${BIG},"PRICE":${PRICE},"N":1.5}`;
  const ROW2 = `{"ID":${MIN},"PRICE":${TINY},"N":2}`;
  let fake: FakeFeldera;
  const dir = tempDir('ops-exact-fake-');
  const context = (opts: { json?: boolean; tty?: boolean } = {}) => {
    const env = { OPS_PIPE_URL: fake.url, OPS_CONFIG_DIR: dir };
    const io = memoryIo({ env, tty: opts.tty, columns: 200 });
    return { ctx: new Context({ json: opts.json }, env, io), io };
  };

  beforeAll(async () => {
    fake = await new FakeFeldera({ generation, schema: { inputs: ['t'], outputs: ['v'] }, contents, logLines: [`{"msg":"step","records":${BIG}}`, 'plain text 9007199254740993'] }).start();
    fake.seed('p1', { deployment_status: 'Running', deployment_desired_status: 'Running' });
  });
  afterAll(() => fake?.close());

  it('watch --json --snapshot and a live change: the numbers as the server wrote them', async () => {
    const { ctx, io } = context({ json: true });
    const watch = runPipeWatch({ name: 'p1', views: ['v'], snapshot: true, count: '3' }, ctx);
    await waitFor(() => fake.watcherCount('v') === 1, 'the watch');
    // the snapshot (frames or a snapshot request) comes before the change
    await waitFor(() => io.stdoutText().split('\n').length > 2, 'the snapshot rows');
    fake.emit('v', [{ delete: { ID: new JsonNumber(MAX), PRICE: new JsonNumber(`-${PRICE}`), N: 0 } }]);
    await watch;
    expect(io.stdoutText()).toBe(`{"view":"v","insert":${ROW1}}\n{"view":"v","insert":${ROW2}}\n{"view":"v","delete":{"ID":${MAX},"PRICE":-${PRICE},"N":0}}\n`);
  });

  it('snapshot --json, TSV and a terminal table: every digit', async () => {
    const json = context({ json: true });
    await runPipeSnapshot({ name: 'p1', view: 'v' }, json.ctx);
    expect(json.io.stdoutText()).toBe(`[\n  {\n    "ID": ${BIG},\n    "PRICE": ${PRICE},\n    "N": 1.5\n  },\n  {\n    "ID": ${MIN},\n    "PRICE": ${TINY},\n    "N": 2\n  }\n]\n`);
    const tsv = context();
    await runPipeSnapshot({ name: 'p1', view: 'v' }, tsv.ctx);
    expect(tsv.io.stdoutText()).toBe(`${BIG}\t${PRICE}\t1.5\n${MIN}\t${TINY}\t2\n`);
    const table = context({ tty: true });
    await runPipeSnapshot({ name: 'p1', view: 'v' }, table.ctx);
    expect(table.io.stdoutText()).toMatch(new RegExp(`^ID\\s+PRICE\\s+N\\n${BIG}\\s+${PRICE}\\s+1\\.5\\n${MIN}\\s+${TINY}\\s+2\\n$`));
  });

  it.runIf(generation === 'current')('query --json: every digit', async () => {
    const json = context({ json: true });
    await runPipeQuery({ name: 'p1', sql: 'SELECT * FROM v' }, json.ctx);
    expect(JSON.parse(json.io.stdoutText().replace(/: (-?[0-9][0-9.]*)/g, ': "$1"'))).toEqual([
      { ID: BIG, PRICE, N: '1.5' },
      { ID: MIN, PRICE: TINY, N: '2' },
    ]);
  });

  it('logs --json passes a JSON log line on with every digit', async () => {
    const { ctx, io } = context({ json: true });
    await runPipeLogs({ name: 'p1' }, ctx);
    expect(io.stdoutText()).toBe(`{"msg":"step","records":${BIG}}\n{"line":"plain text ${BIG}"}\n`);
  });

  it('ingest sends big integers and decimals as they were written', async () => {
    const file = join(dir, `rows-${generation}.ndjson`);
    writeFileSync(file, `{"ID":${BIG},"PRICE":${PRICE}}\n{"ID":${MIN},"PRICE":${TINY}}\n`);
    const { ctx } = context();
    await runPipeIngest({ name: 'p1', table: 't', file }, ctx);
    expect(fake.ingested.at(-1)!.body).toBe(`[{"insert":{"ID":${BIG},"PRICE":${PRICE}}},{"insert":{"ID":${MIN},"PRICE":${TINY}}}]`);
  });
});
