/**
 * Runaway ad-hoc queries from the attacker's side (issue 33): a cross join of 4 * 10^8 pairs, a computation
 * of 10^10 characters over a few thousand rows, a catastrophic regular expression, a huge answer, a huge
 * value. Each is answered within its limit (400 AdHocQueryError naming the limit and the flag that sets
 * it) while another pipeline and the bookmark service answer, and the pipeline goes on: the ingress that
 * waited behind the query is applied, later queries are answered. Real server on 127.0.0.1, real workers;
 * the limits are set small; time bounds are generous (the limit is 1.5 s, the test allows a minute).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompiled, ingest, startRunning, startSvc, startWholeServer, type Svc } from './helpers.js';

vi.setConfig({ testTimeout: 120_000 });

const SQL = "CREATE TABLE a (x INT) WITH ('materialized' = 'true');\nCREATE TABLE b (y INT) WITH ('materialized' = 'true');";
const column = (n: number): string => Array.from({ length: n }, (_, i) => `${i}\n`).join('');

async function filled(svc: Svc, name: string, n: number, extra: Record<string, unknown> = {}): Promise<void> {
  await createCompiled(svc, name, SQL, extra);
  await startRunning(svc, name);
  expect((await ingest(svc, name, 'a', 'format=csv', column(n))).status).toBe(200);
  expect((await ingest(svc, name, 'b', 'format=csv', column(n))).status).toBe(200);
}

const query = (svc: Svc, name: string, sql: string, format = 'json') => svc.call('GET', `/v0/pipelines/${name}/query?sql=${encodeURIComponent(sql)}&format=${format}`);

describe('the time limit of an ad-hoc query', () => {
  let svc: Svc;
  const N = 20_000;
  beforeAll(async () => {
    // each cancelled query below works the worker for the whole limit: 1 s is 5 times what the first test
    // needs it held for (the 200 ms before the ingress queued behind it)
    svc = await startWholeServer({ queryTimeoutMs: 1000 });
    await filled(svc, 'runaway', N);
    await filled(svc, 'other', 10);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('a cross join of 4 * 10^8 pairs is cancelled at the limit; the other pipeline, /api/version and the ingress behind it are served', async () => {
    const started = Date.now();
    const pending = query(svc, 'runaway', 'SELECT COUNT(*) AS c FROM a, b WHERE a.x + b.y < 0');
    await new Promise((r) => setTimeout(r, 200)); // the query holds the worker by now
    const behind = ingest(svc, 'runaway', 'a', 'format=csv', '-5\n'); // waits behind the query
    // meanwhile the rest of the server answers
    const version = await svc.call('GET', '/api/version');
    expect(version.json).toEqual({ version: '2.0' });
    const other = await query(svc, 'other', 'SELECT COUNT(*) AS c FROM a');
    expect(other.status, other.text).toBe(200);
    expect(JSON.parse(other.text)).toEqual({ C: 10 });

    const r = await pending;
    expect(r.status, r.text).toBe(400);
    expect(r.json).toMatchObject({
      error_code: 'AdHocQueryError',
      message: expect.stringMatching(/ran past the time limit of 1 s for an ad-hoc query \(ops serve --query-timeout\); nothing was changed/),
      details: { limit: 'query_timeout', value_ms: 1000 },
    });
    expect(Date.now() - started).toBeLessThan(60_000); // minutes without the limit
    expect((await behind).status).toBe(200);
    const after = await query(svc, 'runaway', 'SELECT COUNT(*) AS c, MIN(x) AS m FROM a');
    expect(after.status, after.text).toBe(200);
    expect(JSON.parse(after.text)).toEqual({ C: N + 1, M: -5 });
    expect((await svc.call('GET', '/v0/pipelines/runaway')).json.deployment_status).toBe('Running');
    expect((await svc.call('GET', '/v0/pipelines/runaway/logs')).text).toContain('An ad-hoc query went past its limit: The query was cancelled: it ran past the time limit');
  });

  it('an INSERT ... SELECT of the same join is cancelled the same way: nothing applied', async () => {
    const before = JSON.parse((await query(svc, 'runaway', 'SELECT COUNT(*) AS c FROM a')).text);
    const r = await query(svc, 'runaway', 'INSERT INTO a SELECT a.x FROM a, b WHERE a.x + b.y < 0');
    expect(r.status, r.text).toBe(400);
    expect(r.json.details).toEqual({ limit: 'query_timeout', value_ms: 1000 });
    expect(JSON.parse((await query(svc, 'runaway', 'SELECT COUNT(*) AS c FROM a')).text)).toEqual(before);
  });

  it('few rows but long work per row (string work checked by the step guard) is cancelled at the limit too', async () => {
    const started = Date.now();
    const r = await query(svc, 'runaway', "SELECT COUNT(*) AS c FROM a WHERE REPEAT(CAST(x AS VARCHAR), 200000) RLIKE 'z'");
    expect(r.status, r.text).toBe(400);
    expect(r.json.details).toEqual({ limit: 'query_timeout', value_ms: 1000 });
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("the issue's catastrophic regular expression answers at once (RE2), in a query as over a long text", async () => {
    const r = await query(svc, 'runaway', "SELECT REGEXP_REPLACE('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', '(a+)+$', 'b') AS r FROM a WHERE x = 1");
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ R: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' });
    const long = await query(svc, 'runaway', "SELECT CHAR_LENGTH(REGEXP_REPLACE(REPEAT('a', 1000000) || '!', '(a+)+$', 'b')) AS n, REPEAT('a', 100000) RLIKE '^(a|aa)+$' AS m FROM a WHERE x = 1");
    expect(long.status, long.text).toBe(200);
    expect(JSON.parse(long.text)).toEqual({ N: 1_000_001, M: true });
    const backref = await query(svc, 'runaway', "SELECT 'aa' RLIKE '(a)\\1' AS m");
    expect(backref.status).toBe(400);
    expect(backref.json.message).toMatch(/backreferences \(such as \\1\) are not supported/);
  });
});

describe('the row and byte limits of an ad-hoc query', () => {
  let svc: Svc;
  beforeAll(async () => {
    // a row limit far below the 4,000,000 pairs of the join below (the join builds rows up to the limit)
    svc = await startSvc({ queryMaxRows: 200_000, queryMaxBytes: 64 * 1024 });
    await filled(svc, 'rows', 2000);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('a join that builds more rows than the limit is cancelled, naming the limit', async () => {
    const r = await query(svc, 'rows', 'SELECT COUNT(*) AS c FROM a, b');
    expect(r.status, r.text).toBe(400);
    expect(r.json.message).toMatch(/it built \d+ rows, past the limit of 200000 rows for an ad-hoc query \(ops serve --query-max-rows\)/);
    expect(r.json.details).toEqual({ limit: 'query_max_rows', value: 200_000 });
    // narrowed, the same join is answered
    const small = await query(svc, 'rows', 'SELECT COUNT(*) AS c FROM a, b WHERE a.x < 100 AND b.y < 100');
    expect(small.status, small.text).toBe(200);
    expect(JSON.parse(small.text)).toEqual({ C: 10_000 });
  });

  it('an answer past the byte limit is refused, as JSON and as text; a smaller one is answered', async () => {
    for (const format of ['json', 'text']) {
      const r = await query(svc, 'rows', "SELECT x, 'padding-padding-padding' AS p FROM a", format);
      expect(r.status, r.text).toBe(400);
      expect(r.json.message).toMatch(/The answer is too large: more than 65536 bytes, the limit for an ad-hoc query's answer \(ops serve --query-max-mb\)/);
      expect(r.json.details).toEqual({ limit: 'query_max_bytes', value: 65536 });
    }
    const ok = await query(svc, 'rows', 'SELECT x FROM a WHERE x < 1000');
    expect(ok.status).toBe(200);
    expect(ok.text.trim().split('\n')).toHaveLength(1000);
  });

  it('an answer of one row of a huge weight counts every line it writes', async () => {
    const r = await query(svc, 'rows', 'SELECT 1 AS one FROM a, b WHERE a.x < 300 AND b.y < 300');
    expect(r.status, r.text).toBe(400); // one row of weight 90,000: 90,000 lines, far past 64 KiB
    expect(r.json.details).toEqual({ limit: 'query_max_bytes', value: 65536 });
  });
});

describe('huge values: 400 from a query, 422 from ingress, naming the function and the limit', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'values', "CREATE TABLE t (s VARCHAR, n INT) WITH ('materialized' = 'true');\nCREATE MATERIALIZED VIEW v AS SELECT REPEAT(s, n) AS r FROM t;");
    await startRunning(svc, 'values');
    expect((await ingest(svc, 'values', 't', 'format=csv', 'ab,2\n')).status).toBe(200);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each([
    ["SELECT REPEAT('x', 1000000000) AS r", 'REPEAT', '1000000000 characters'],
    ["SELECT LPAD('x', 2000000000, 'ab') AS r", 'LPAD', '2000000000 characters'],
    ['SELECT ARRAY_REPEAT(1, 1000000000) AS r', 'ARRAY_REPEAT', '1000000000 elements'],
    ['SELECT REPEAT(s, 100000000) AS r FROM t', 'REPEAT', '200000000 characters'],
  ])('%s', async (sql, fn, size) => {
    const r = await query(svc, 'values', sql);
    expect(r.status, r.text).toBe(400);
    expect(r.json.error_code).toBe('AdHocQueryError');
    expect(r.json.message).toContain(`value too large: ${fn} would build ${size}, past the limit of 16777216`);
  });

  it('an ingress whose view would build a huge value is refused whole (422); the pipeline runs on', async () => {
    const r = await ingest(svc, 'values', 't', 'format=csv', 'cd,1\nxy,1000000000\n');
    expect(r.status, r.text).toBe(422);
    expect(r.json.error_code).toBe('StepRefused');
    expect(r.json.message).toMatch(/value too large: REPEAT would build 2000000000 characters, past the limit of 16777216 characters/);
    expect(r.json.details).toMatchObject({ view: 'V', expression: 'REPEAT', type: 'VARCHAR' });
    const rows = await query(svc, 'values', 'SELECT r FROM v');
    expect(rows.text.trim()).toBe('{"R":"abab"}');
    expect((await ingest(svc, 'values', 't', 'format=csv', 'cd,1\n')).status).toBe(200);
  });
});
