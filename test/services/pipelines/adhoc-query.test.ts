/** Today's ad-hoc query endpoint (GET .../query?sql=&format=json|text) and `ops pipe query`, against the real service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../../src/engine/index.js';
import { answerQuery } from '../../../src/services/pipelines/worker/egress/adhoc.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, waitFor, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (x INT NOT NULL, s VARCHAR, d DECIMAL(6, 2)) WITH ('materialized' = 'true');
CREATE TABLE hidden (y INT);
CREATE MATERIALIZED VIEW big AS SELECT x, s FROM t WHERE x > 1;
CREATE VIEW plain AS SELECT x FROM t;`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'q', SQL);
  await startRunning(svc, 'q');
  const rows = [
    { x: 3, s: 'c', d: '1.50' },
    { x: 1, s: 'a', d: '10.00' },
    { x: 2, s: null, d: null },
    { x: 3, s: 'c', d: '1.50' },
  ];
  const r = await ingest(svc, 'q', 't', 'format=json', rows.map((row) => JSON.stringify({ insert: row })).join('\n'));
  expect(r.status, r.text).toBe(200);
});
afterAll(async () => {
  await svc.close();
});

const query = (sql: string, format?: string) => svc.call('GET', `/v0/pipelines/q/query?sql=${encodeURIComponent(sql)}${format ? `&format=${format}` : ''}`);

describe('GET /v0/pipelines/{name}/query', () => {
  it('format=json: one object per row (duplicates kept), columns in select order, in row order', async () => {
    const r = await query('SELECT s, x FROM t', 'json');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('ndjson');
    expect(r.text).toBe('{"S":null,"X":2}\n{"S":"a","X":1}\n{"S":"c","X":3}\n{"S":"c","X":3}\n');
  });

  it("ORDER BY ... LIMIT keeps DataFusion's NULL order (after every value ascending), not a program's", async () => {
    expect((await query('SELECT s FROM t ORDER BY s LIMIT 1', 'json')).text).toBe('{"S":"a"}\n');
    expect((await query('SELECT s FROM t ORDER BY s DESC LIMIT 1', 'json')).text).toBe('{"S":null}\n');
    expect((await query('SELECT s FROM t ORDER BY s NULLS FIRST LIMIT 1', 'json')).text).toBe('{"S":null}\n');
  });

  it('reads materialized views, joins and aggregates them with tables, from the current contents', async () => {
    const r = await query('SELECT b.x, COUNT(*) AS n, SUM(t.d) AS total FROM big b JOIN t ON b.x = t.x GROUP BY b.x;', 'json');
    expect(r.status, r.text).toBe(200);
    expect(
      r.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { X: 2, N: 1, TOTAL: null },
      { X: 3, N: 4, TOTAL: '6.00' },
    ]);
    // a later step is seen by the next query
    expect((await ingest(svc, 'q', 't', 'format=json', '{"delete": {"x": 1, "s": "a", "d": "10.00"}}')).status).toBe(200);
    expect((await query('SELECT COUNT(*) AS c FROM t', 'json')).text).toBe('{"C":3}\n');
  });

  it('format=text (the default) draws a table; NULL is an empty cell', async () => {
    const r = await query('SELECT x, s FROM big');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(r.text).toBe(['+---+---+', '| X | S |', '+---+---+', '| 2 |   |', '| 3 | c |', '| 3 | c |', '+---+---+', ''].join('\n'));
  });

  it('constants and aggregates over no rows answer their rows (the contents, not only what a step changed)', async () => {
    expect((await query("SELECT 1 AS one, 'a' AS s", 'json')).text).toBe('{"ONE":1,"S":"a"}\n');
    expect((await query("VALUES (2, 'b'), (1, 'a')", 'json')).text).toBe('{"EXPR$0":1,"EXPR$1":"a"}\n{"EXPR$0":2,"EXPR$1":"b"}\n');
    expect((await query('SELECT COUNT(*) AS c, SUM(x) AS s FROM t WHERE x > 1000', 'json')).text).toBe('{"C":0,"S":null}\n');
  });

  it('a relation that is not materialized: the reason says what an ad-hoc query may read', async () => {
    const r = await query('SELECT y FROM hidden', 'json');
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/'hidden' not found \(an ad-hoc query reads only materialized tables and views/);
  });

  it('answers while paused', async () => {
    expect((await svc.call('POST', '/v0/pipelines/q/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/q')).json.deployment_status === 'Paused', 'Paused');
    expect((await query('SELECT MAX(x) AS m FROM t', 'json')).text).toBe('{"M":3}\n');
    expect((await svc.call('POST', '/v0/pipelines/q/start')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/q')).json.deployment_status === 'Running', 'Running');
  });

  it('refuses with a 400 and its reason: unmaterialized relations, bad SQL, more than a SELECT, bad parameters', async () => {
    const cases: [string, string | undefined, RegExp][] = [
      ['SELECT y FROM hidden', 'json', /hidden/i],
      ['SELECT x FROM plain', 'json', /plain/i],
      ['SELEC x FROM t', 'json', /./],
      ['DELETE FROM t WHERE x = 1', 'json', /Only SELECT and INSERT INTO statements/],
      ["UPDATE t SET s = 'z'", 'json', /Only SELECT and INSERT INTO statements/],
      ['SELECT x FROM t; CREATE TABLE z (a INT)', 'json', /one statement per request/i],
      ['SELECT x FROM t; SELECT 1', 'json', /one statement per request/i],
      ['SELECT x FROM t', 'csv', /unknown variant `csv`, expected `text`, `json`, `parquet`, `arrow_ipc` or `hash`/],
      ['', 'json', /sql/],
    ];
    for (const [sql, format, message] of cases) {
      const r = await query(sql, format);
      expect(r.status, `${sql}: ${r.text}`).toBe(400);
      // Feldera's code for a query that fails; a bad parameter is refused before any query runs
      expect(r.json.error_code).toBe(format === 'csv' || sql === '' ? 'InvalidQueryParameter' : 'AdHocQueryError');
      expect(r.json.message, sql).toMatch(message);
    }
    // the pipeline is unharmed
    expect((await query('SELECT COUNT(*) AS c FROM t', 'json')).status).toBe(200);
  });

  it('needs a running or paused pipeline', async () => {
    await createCompiled(svc, 'off', SQL);
    const r = await svc.call('GET', '/v0/pipelines/off/query?sql=SELECT%201');
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe('PipelineNotRunningOrPaused');
  });
});

describe('ad-hoc query values', () => {
  it('every column type comes back as the pipeline holds it (the query program declares the same types)', () => {
    const r = compile(
      "CREATE TABLE t (id INT, m MAP<VARCHAR, INT>, arr INT ARRAY, ts TIMESTAMP, d DATE, v VARIANT, b VARBINARY, dec DECIMAL(8,3), tm TIME, bo BOOLEAN, r REAL) WITH ('materialized'='true');",
      { outputCase: 'lower' },
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const circuit = r.program.newCircuit();
    const row = { id: 1, m: { x: 1 }, arr: [1, 2], ts: '2024-01-02 03:04:05', d: '2024-01-02', v: { k: [1] }, b: [1, 2, 255], dec: '1.500', tm: '10:11:12', bo: true, r: 1.5 };
    circuit.step([{ table: 't', op: 'insert', row }]);
    expect(JSON.parse(answerQuery(circuit, r.program, 'SELECT * FROM t', 'json', 'lower'))).toEqual(row);
    expect(JSON.parse(answerQuery(circuit, r.program, "SELECT m['x'] AS mx, arr[2] AS a2, CAST(dec AS INT) AS di FROM t", 'json', 'lower'))).toEqual({ mx: 1, a2: 2, di: 1 });
  });

  it('unsigned columns, bare and in an ARRAY, read back from the schema text the query program declares them with', () => {
    const r = compile("CREATE TABLE u (a TINYINT UNSIGNED, b SMALLINT UNSIGNED NOT NULL, c INT UNSIGNED ARRAY, d BIGINT UNSIGNED) WITH ('materialized'='true');", { outputCase: 'lower' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const circuit = r.program.newCircuit();
    const row = { a: 255, b: 65535, c: [4294967295], d: 7 };
    circuit.step([{ table: 'u', op: 'insert', row }]);
    expect(JSON.parse(answerQuery(circuit, r.program, 'SELECT * FROM u', 'json', 'lower'))).toEqual(row);
  });
});

describe('ops pipe query', () => {
  it('prints the rows (--json as an array), and a bad query as an error with exit 1', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: svc.base });
    const ok = await opsIn(['--json', 'pipe', 'query', 'q', 'SELECT x, s FROM big WHERE x = 3'], { env });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual([
      { X: 3, S: 'c' },
      { X: 3, S: 'c' },
    ]);
    const table = await opsIn(['pipe', 'query', 'q', 'SELECT MAX(x) AS m FROM t'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.trim().split('\n').pop()).toBe('3');
    const bad = await opsIn(['pipe', 'query', 'q', 'SELECT y FROM hidden'], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/hidden/i);
    await shutdown(svc, 'q');
  });
});
