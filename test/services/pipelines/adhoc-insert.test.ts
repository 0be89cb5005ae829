/** Ad-hoc INSERT INTO through today's `/query` endpoint (Pipeline.execute in Feldera's SDK), against the real service. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.js';
import { opsIn } from '../../helpers/ops-in-process.js';
import { createCompiled, ingest, startRunning, startSvc, waitFor, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TABLE t (x INT NOT NULL, s VARCHAR, d DECIMAL(6, 2), f DOUBLE, n INT NOT NULL DEFAULT 7) WITH ('materialized' = 'true');
CREATE TABLE kv (k INT NOT NULL PRIMARY KEY, v VARCHAR) WITH ('materialized' = 'true');
CREATE TABLE raw (y BIGINT, w DECIMAL(38, 10));
CREATE MATERIALIZED VIEW agg AS SELECT COUNT(*) AS c, SUM(x) AS sx FROM t;
CREATE MATERIALIZED VIEW raw_m AS SELECT y, w FROM raw;
CREATE MATERIALIZED VIEW kv_m AS SELECT k, v FROM kv;
CREATE MATERIALIZED VIEW scaled AS SELECT x * 1000000 AS m FROM t;
CREATE VIEW plain AS SELECT x FROM t;`;

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
  await createCompiled(svc, 'ins', SQL);
  await startRunning(svc, 'ins');
});
afterAll(async () => {
  await svc.close();
});

const query = (sql: string, format = 'json', pipeline = 'ins') => svc.call('GET', `/v0/pipelines/${pipeline}/query?sql=${encodeURIComponent(sql)}&format=${format}`);
const rows = async (sql: string): Promise<any[]> => {
  const r = await query(sql);
  expect(r.status, r.text).toBe(200);
  return r.text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
};
const stats = async () => (await svc.call('GET', '/v0/pipelines/ins/stats')).json.global_metrics;

describe('INSERT INTO ... VALUES', () => {
  it('inserts the rows as one step and answers their count (json); values converted as ingress does them', async () => {
    const before = await stats();
    const r = await query("INSERT INTO t VALUES (1, 'a', 1.5, 2.5, 1), (2, NULL, 3, 1, 2);");
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('ndjson');
    expect(r.text).toBe('{"count":2}\n');
    // DECIMAL literals into DECIMAL and DOUBLE columns, an INT literal into DECIMAL, DOUBLE
    expect(await rows('SELECT * FROM t')).toEqual([
      { X: 1, S: 'a', D: '1.50', F: 2.5, N: 1 },
      { X: 2, S: null, D: '3.00', F: 1, N: 2 },
    ]);
    // a materialized view reflects them in a following SELECT
    expect(await rows('SELECT c, sx FROM agg')).toEqual([{ C: 2, SX: 3 }]);
    // stats count the records and the step as they count an ingress (applied when answered)
    const after = await stats();
    expect(after.total_input_records - before.total_input_records).toBe(2);
    expect(after.total_processed_records - before.total_processed_records).toBe(2);
    // what the Python SDK's execute(wait=True) polls for (_wait_for_adhoc_write): already there when answered
    expect(after.total_completed_records - before.total_completed_records).toBe(2);
    expect(after.total_completed_records).toBeGreaterThanOrEqual(after.total_input_records - after.buffered_input_records);
  });

  it('format=text answers the count as a table', async () => {
    const r = await query("INSERT INTO t VALUES (3, 'c', 0.25, 0.5, 3)", 'text');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(r.text).toBe(['+-------+', '| count |', '+-------+', '| 1     |', '+-------+', ''].join('\n'));
    expect(await rows('SELECT s FROM t WHERE x = 3')).toEqual([{ S: 'c' }]);
  });

  it('a column list: the other columns take their DEFAULT or NULL; names by SQL rules, in any order', async () => {
    const r = await query("insert into T (S, x) values ('four', 4), ('five', 5)");
    expect(r.text).toBe('{"count":2}\n');
    expect(await rows('SELECT * FROM t WHERE x >= 4')).toEqual([
      { X: 4, S: 'four', D: null, F: null, N: 7 },
      { X: 5, S: 'five', D: null, F: null, N: 7 },
    ]);
  });

  it('a table with a PRIMARY KEY: inserting an existing key replaces its row', async () => {
    expect((await query("INSERT INTO kv VALUES (1, 'one'), (2, 'two')")).text).toBe('{"count":2}\n');
    expect((await query("INSERT INTO kv VALUES (1, 'uno')")).text).toBe('{"count":1}\n');
    expect(await rows('SELECT k, v FROM kv_m')).toEqual([
      { K: 1, V: 'uno' },
      { K: 2, V: 'two' },
    ]);
  });

  it('long numbers stay exact (BIGINT beyond 2^53, a DECIMAL of 38 digits)', async () => {
    const r = await query('INSERT INTO raw VALUES (9223372036854775807, 1234567890123456789012345678.1234567891), (-9007199254740993, 0.1)');
    expect(r.status, r.text).toBe(200);
    expect((await query('SELECT y, w FROM raw_m WHERE y > 0')).text).toBe('{"Y":9223372036854775807,"W":"1234567890123456789012345678.1234567891"}\n');
    expect((await query('SELECT y FROM raw_m WHERE y < 0')).text).toBe('{"Y":-9007199254740993}\n');
  });
});

describe('INSERT INTO ... SELECT', () => {
  it('reads the materialized relations and inserts into any table (this one is not materialized)', async () => {
    const base = (await rows('SELECT COUNT(*) AS c FROM raw_m'))[0].C;
    const r = await query('INSERT INTO raw (y) SELECT x * 10 FROM t WHERE x <= 2');
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('{"count":2}\n');
    expect(await rows('SELECT y, w FROM raw_m WHERE y IN (10, 20)')).toEqual([
      { Y: 10, W: null },
      { Y: 20, W: null },
    ]);
    expect((await rows('SELECT COUNT(*) AS c FROM raw_m'))[0].C).toBe(base + 2);
  });

  it('a query with no rows inserts nothing and answers count 0', async () => {
    expect((await query('INSERT INTO t SELECT * FROM t WHERE x > 1000')).text).toBe('{"count":0}\n');
  });

  it('duplicates of the source are inserted as many times (a table without a key is a bag)', async () => {
    const r = await query('INSERT INTO raw (y) SELECT 42 FROM t WHERE x <= 2');
    expect(r.text).toBe('{"count":2}\n');
    expect(await rows('SELECT COUNT(*) AS c FROM raw_m WHERE y = 42')).toEqual([{ C: 2 }]);
  });
});

describe('watch streams', () => {
  it('see the step of an INSERT as they see an ingress', async () => {
    const w = await WatchReader.open(svc, 'ins', 'agg');
    expect(w.status).toBe(200);
    try {
      const [{ C: c, SX: sx }] = await rows('SELECT c, sx FROM agg');
      expect((await query('INSERT INTO t (x) VALUES (100)')).text).toBe('{"count":1}\n');
      await w.until((r) => r.items().length >= 2, 'the change of agg');
      expect(w.items()).toEqual([{ delete: { C: c, SX: sx } }, { insert: { C: c + 1, SX: sx + 100 } }]);
    } finally {
      w.close();
    }
  });
});

describe('refused statements: a 400 AdHocQueryError with the reason, nothing applied', () => {
  it('bad values, wrong shapes, unknown names, views, OVERWRITE, a step the engine refuses', async () => {
    const contents = async () => ({ t: await rows('SELECT * FROM t'), raw: await rows('SELECT * FROM raw_m'), kv: await rows('SELECT * FROM kv_m') });
    const before = await contents();
    const statsBefore = await stats();
    const cases: [string, RegExp][] = [
      // the second row is bad: the first is not applied either
      ["INSERT INTO t VALUES (6, 'ok', 1, 1, 1), (3000000000, 'too big', 1, 1, 1)", /row 2: error parsing field 'X': invalid value: integer `3000000000`, expected i32/],
      ["INSERT INTO t VALUES ('e', 'bad', 1, 1, 1)", /row 1: error parsing field 'X': invalid type: string "e", expected i32/],
      ["INSERT INTO t VALUES (6, 'ok', 1, 1, 1), ('e', 'bad', 1, 1, 1)", /Incompatible types in VALUES/],
      ['INSERT INTO t VALUES (6, NULL, 1, 1, NULL)', /error parsing field 'N': invalid type: null/],
      ['INSERT INTO t VALUES (6, NULL, 12345.678, 1, 1)', /field 'D'.*outside the value range/],
      ['INSERT INTO t VALUES (6, NULL)', /expects 5 values per row \(X, S, D, F, N\) but the query gives 2/],
      ['INSERT INTO t (x, s) VALUES (6)', /expects 2 values per row \(X, S\) but the query gives 1/],
      ["INSERT INTO t (s) VALUES ('no x')", /NOT NULL column 'X'/],
      ['INSERT INTO nope VALUES (1)', /Unknown table 'nope'/],
      ['INSERT INTO t (x, zz) VALUES (1, 2)', /Unknown column 'zz'/],
      ['INSERT INTO t (x, X) VALUES (1, 2)', /named twice/],
      ['INSERT INTO agg VALUES (1, 2)', /'AGG' is a view/],
      ['INSERT INTO plain VALUES (1)', /'PLAIN' is a view/],
      ['INSERT OVERWRITE t VALUES (1)', /OVERWRITE is not supported/],
      ['INSERT t VALUES (1)', /Expected INTO/],
      ['INSERT INTO t', /needs VALUES/],
      ['INSERT INTO t DEFAULT VALUES', /DEFAULT VALUES is not supported/],
      ['INSERT INTO raw SELECT x FROM plain', /plain/i],
      ['INSERT INTO t (x) SELECT x FRM t', /./],
      // the view `scaled` overflows INTEGER on this row: the engine refuses the step
      ['INSERT INTO t (x) VALUES (1000000)', /refused.*overflow/i],
    ];
    for (const [sql, message] of cases) {
      const r = await query(sql);
      expect(r.status, `${sql}: ${r.text}`).toBe(400);
      expect(r.json.error_code, sql).toBe('AdHocQueryError');
      expect(r.json.message, sql).toMatch(message);
    }
    // a format the endpoint does not serve is refused before the statement runs
    const arrow = await query('INSERT INTO t (x) VALUES (7)', 'arrow');
    expect(arrow.status).toBe(400);
    expect(arrow.json.error_code).toBe('InvalidQueryParameter');
    expect(await contents()).toEqual(before);
    const statsAfter = await stats();
    expect(statsAfter.total_input_records).toBe(statsBefore.total_input_records);
    // the pipeline is unharmed
    expect((await svc.call('GET', '/v0/pipelines/ins')).json.deployment_status).toBe('Running');
    expect((await query('INSERT INTO t (x) VALUES (7)')).text).toBe('{"count":1}\n');
  });
});

describe('a paused pipeline', () => {
  it('an INSERT waits until the pipeline runs again (a SELECT answers at once), then applies', async () => {
    expect((await svc.call('POST', '/v0/pipelines/ins/pause')).status).toBe(202);
    await waitFor(async () => (await svc.call('GET', '/v0/pipelines/ins')).json.deployment_status === 'Paused', 'Paused');
    let answered = false;
    const pending = query("INSERT INTO kv VALUES (3, 'three')").then((r) => {
      answered = true;
      return r;
    });
    // while paused: SELECTs are answered, the INSERT is neither answered nor applied
    for (let i = 0; i < 5; i++) {
      expect(await rows('SELECT k FROM kv_m WHERE k = 3')).toEqual([]);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(answered).toBe(false);
    expect((await svc.call('POST', '/v0/pipelines/ins/start')).status).toBe(202);
    const r = await pending;
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('{"count":1}\n');
    expect(await rows('SELECT k, v FROM kv_m WHERE k = 3')).toEqual([{ K: 3, V: 'three' }]);
  });

  it('an INSERT into a pipeline that is not deployed is refused', async () => {
    await createCompiled(svc, 'off', SQL);
    const r = await query('INSERT INTO t (x) VALUES (1)', 'json', 'off');
    expect(r.status).toBe(400);
    expect(r.json.error_code).toBe('PipelineNotRunningOrPaused');
  });
});

describe('ingress and INSERT together', () => {
  it('an INSERT sees the rows ingested before it, and ingress after it sees the INSERT', async () => {
    expect((await ingest(svc, 'ins', 'kv', 'format=json', '{"insert": {"k": 10, "v": "ten"}}')).status).toBe(200);
    expect((await query("INSERT INTO kv SELECT k + 1, v || '+1' FROM kv_m WHERE k = 10")).text).toBe('{"count":1}\n');
    expect((await ingest(svc, 'ins', 'kv', 'format=json', '{"delete": {"k": 10}}')).status).toBe(200);
    expect(await rows('SELECT k, v FROM kv_m WHERE k >= 10')).toEqual([{ K: 11, V: 'ten+1' }]);
  });
});

describe('ops pipe query', () => {
  it('runs an INSERT and prints its count', async () => {
    const env = isolatedEnv({ OPS_PIPE_URL: svc.base });
    const out = await opsIn(['--json', 'pipe', 'query', 'ins', "INSERT INTO kv VALUES (20, 'twenty'), (21, 'twenty-one')"], { env });
    expect(out.exitCode, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual([{ count: 2 }]);
    expect(await rows('SELECT k FROM kv_m WHERE k >= 20')).toEqual([{ K: 20 }, { K: 21 }]);
    const bad = await opsIn(['pipe', 'query', 'ins', 'INSERT INTO nope VALUES (1)'], { env });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/Unknown table 'nope'/);
  });
});

describe("docs/pipelines.md's examples", () => {
  it("on the demo's shop program (its seed connector left out)", async () => {
    const shop = readFileSync(new URL('../../../assets/demo/shop.sql', import.meta.url), 'utf8').replace(/\) WITH \('connectors' = '\[[\s\S]*?\]'\);/, ');');
    expect(shop).not.toContain('connectors');
    await createCompiled(svc, 'shop', shop);
    await startRunning(svc, 'shop');
    const env = isolatedEnv({ OPS_PIPE_URL: svc.base });
    const cli = await opsIn(['pipe', 'query', 'shop', "INSERT INTO orders VALUES (1001, 'ada', 'pen', 2, 5.00, TIMESTAMP '2026-11-22 10:05:00')"], { env });
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stdout.trim().split('\n').pop()).toBe('1');
    const sql = `INSERT INTO orders
  (id, customer, product, quantity, amount, placed_at) VALUES (1002, 'bob', 'pen', 1, 2.5, '2026-11-22 10:06:00')`;
    const r = await query(sql, 'json', 'shop');
    expect(r.status, r.text).toBe(200);
    expect(r.text).toBe('{"count":1}\n');
    const revenue = await query("SELECT product, orders, units, revenue FROM revenue_by_product WHERE product = 'pen'", 'json', 'shop');
    expect(revenue.text).toBe('{"PRODUCT":"pen","ORDERS":2,"UNITS":3,"REVENUE":"7.50"}\n');
  });
});
