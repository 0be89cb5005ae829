/**
 * The datagen connector in a real runtime (runtime.ts with the engine): Feldera's documented examples,
 * strategies, null percentages, seeds, plans in order, resume from a position, a rate limit, and the
 * configuration errors (compile errors naming the option).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, type JsonRow, type JsonValue } from '../../../../src/engine/index.js';
import { compileProgram } from '../../../../src/services/pipelines/worker/compiler.js';
import { PipelineRuntime } from '../../../../src/services/pipelines/worker/runtime.js';

const root = mkdtempSync(join(tmpdir(), 'ops-datagen-unit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const table = (cols: string, config: unknown, name = 't') => `CREATE TABLE ${name} (${cols}) WITH ('connectors' = '[{"transport": {"name": "datagen", "config": ${JSON.stringify(config)}}}]');`;

async function start(sql: string, positions?: Record<string, JsonValue>) {
  const c = compile(sql);
  if (!c.ok) throw new Error(JSON.stringify(c.errors));
  const failures: Error[] = [];
  const rt = new PipelineRuntime(c.program, {
    emit: () => {},
    endStreams: () => {},
    log: () => {},
    onFatal: (err) => failures.push(err),
    connectorAccess: { root, fetchPolicy: 'any', maxBytes: 1 << 20 },
    connectorPositions: () => positions,
  });
  await rt.init();
  rt.resume();
  return { rt, failures };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every row the connector generated (a table without a key keeps them all), in generation order by the step's order. */
async function generate(sql: string, relation = 'T', positions?: Record<string, JsonValue>): Promise<JsonRow[]> {
  const { rt, failures } = await start(sql, positions);
  await until(() => rt.pipelineComplete || failures.length > 0, 'the end of the input');
  await rt.shutdown();
  if (failures.length > 0) throw failures[0];
  return rt.circuit.contents(relation).flatMap((r) => Array.from({ length: r.weight }, () => r.row));
}

const sortRows = (rows: JsonRow[]) => rows.map((r) => JSON.stringify(r)).sort();

function compileErrors(sql: string): string[] {
  const out = compileProgram(sql, 'upper');
  if (out.ok) return [];
  if ('systemError' in out) return [out.systemError];
  return out.messages.map((m) => `${m.error_type}: ${m.message}`);
}

describe('datagen', () => {
  it("generates incrementing values for every type by default (Feldera's first example)", async () => {
    const rows = await generate(table('symbol VARCHAR NOT NULL, price_time BIGINT NOT NULL, price DECIMAL(38, 2) NOT NULL, ok BOOLEAN, ts TIMESTAMP, d DATE, tm TIME', { plan: [{ limit: 5 }] }));
    expect(sortRows(rows)).toEqual(
      sortRows(
        [0, 1, 2, 3, 4].map((i) => ({
          SYMBOL: String(i),
          PRICE_TIME: i,
          PRICE: `${i}.00`,
          OK: i % 2 === 1,
          TS: `1970-01-01 00:00:00${i ? `.00${i}` : ''}`,
          D: `1970-01-0${i + 1}`,
          TM: `00:00:00${i ? `.00${i}` : ''}`,
        })),
      ),
    );
  });

  it('takes values in turn, uniform numbers in a range, and date, timestamp and time ranges that wrap (the docs examples)', async () => {
    const rows = await generate(
      table('symbol VARCHAR NOT NULL, price_time BIGINT NOT NULL, price DOUBLE NOT NULL', {
        seed: 7,
        plan: [{ limit: 5, fields: { symbol: { values: ['AAPL', 'GOOGL', 'SPY', 'NVDA'] }, price: { strategy: 'uniform', range: [100, 10000] } } }],
      }),
    );
    const byTime = [...rows].sort((a, b) => (a.PRICE_TIME as number) - (b.PRICE_TIME as number));
    expect(byTime.map((r) => [r.SYMBOL, r.PRICE_TIME])).toEqual([
      ['AAPL', 0],
      ['GOOGL', 1],
      ['SPY', 2],
      ['NVDA', 3],
      ['AAPL', 4],
    ]);
    expect(rows.every((r) => (r.PRICE as number) >= 100 && (r.PRICE as number) < 10000)).toBe(true);
    const times = await generate(
      table('dt DATE NOT NULL, ts TIMESTAMP NOT NULL, t TIME NOT NULL', {
        plan: [
          {
            limit: 3,
            fields: {
              ts: { range: ['2024-08-28T00:00:00Z', '2024-08-28T00:00:02Z'], scale: 1000 },
              dt: { range: ['2024-08-28', '2024-08-30'] },
              t: { range: ['00:00:05', '00:00:07'], scale: 1000 },
            },
          },
        ],
      }),
    );
    expect(sortRows(times)).toEqual(
      sortRows([
        { DT: '2024-08-28', TS: '2024-08-28 00:00:00', T: '00:00:05' },
        { DT: '2024-08-29', TS: '2024-08-28 00:00:01', T: '00:00:06' },
        { DT: '2024-08-28', TS: '2024-08-28 00:00:00', T: '00:00:05' },
      ]),
    );
    const bins = await generate(table('bin VARBINARY NOT NULL', { plan: [{ limit: 6, fields: { bin: { range: [0, 5], value: { strategy: 'uniform', range: [128, 256] } } } }] }));
    expect(bins.map((r) => (r.BIN as number[]).length).sort()).toEqual([0, 0, 1, 2, 3, 4]);
    expect(bins.flatMap((r) => r.BIN as number[]).every((b) => b >= 128 && b < 256)).toBe(true);
  });

  it('is the same for a seed and differs for another; without a seed two starts differ', async () => {
    const sql = (seed?: number) =>
      table('a INT, s VARCHAR, x DOUBLE', {
        ...(seed === undefined ? {} : { seed }),
        plan: [{ limit: 200, fields: { a: { strategy: 'uniform' }, s: { strategy: 'uniform' }, x: { strategy: 'uniform', range: [0, 1] } } }],
      });
    const one = sortRows(await generate(sql(42)));
    expect(sortRows(await generate(sql(42)))).toEqual(one);
    expect(sortRows(await generate(sql(43)))).not.toEqual(one);
    expect(sortRows(await generate(sql()))).not.toEqual(sortRows(await generate(sql())));
  });

  it('makes NULLs at the null percentage, and always with empty values', async () => {
    const rows = await generate(table('a INT, b INT, c VARCHAR', { seed: 1, plan: [{ limit: 2000, fields: { a: { null_percentage: 30 }, c: { values: [] } } }] }));
    const nulls = rows.filter((r) => r.A === null).length;
    expect(nulls / rows.length).toBeGreaterThan(0.25);
    expect(nulls / rows.length).toBeLessThan(0.35);
    expect(rows.every((r) => r.B !== null && r.C === null)).toBe(true);
  });

  it('draws zipf ranks with the first most frequent, in a range and from values', async () => {
    const rows = await generate(
      table('a INT, b VARCHAR', { seed: 3, plan: [{ limit: 3000, fields: { a: { strategy: 'zipf', range: [10, 20] }, b: { strategy: 'zipf', values: ['x', 'y', 'z'] } } }] }),
    );
    const count = (k: string, v: JsonValue) => rows.filter((r) => r[k] === v).length;
    expect(rows.every((r) => (r.A as number) >= 10 && (r.A as number) < 20)).toBe(true);
    expect(count('A', 10)).toBeGreaterThan(count('A', 11));
    expect(count('A', 11)).toBeGreaterThan(count('A', 15));
    // Zipf(3, 1): 6/11, 3/11, 2/11
    expect(count('B', 'x') / rows.length).toBeGreaterThan(0.5);
    expect(count('B', 'x')).toBeGreaterThan(count('B', 'y'));
    expect(count('B', 'y')).toBeGreaterThan(count('B', 'z'));
  });

  it("makes strings by Feldera's string strategies", async () => {
    const fields = { w: { strategy: 'word' }, e: { strategy: 'email' }, ip: { strategy: 'ipv4' }, n: { strategy: 'name' }, ws: { strategy: 'words', range: [2, 4] }, cc: { strategy: 'country_code' } };
    const sql = table('w VARCHAR, e VARCHAR, ip VARCHAR, n VARCHAR, ws VARCHAR, cc VARCHAR', { seed: 9, plan: [{ limit: 50, fields }] });
    const rows = await generate(sql);
    for (const r of rows) {
      expect(r.W).toMatch(/^\S+$/);
      expect(r.E).toMatch(/^\S+@\S+\.\S+$/);
      expect(r.IP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(r.N).toMatch(/^\S+ \S+/);
      expect((r.WS as string).split(' ').length).toBeGreaterThanOrEqual(2);
      expect((r.WS as string).split(' ').length).toBeLessThan(4);
      expect(r.CC).toMatch(/^[A-Z]{2}$/);
    }
    expect(sortRows(await generate(sql))).toEqual(sortRows(rows));
  });

  it('runs its plans in order, each counting rows from 0; an upsert per key on a primary-key table', async () => {
    const rows = await generate(table('a INT, s VARCHAR', { plan: [{ limit: 3, fields: { s: { values: ['one'] } } }, { limit: 2, fields: { s: { values: ['two'] } } }, { limit: 0 }] }));
    expect(sortRows(rows)).toEqual(sortRows([0, 1, 2].map((a) => ({ A: a, S: 'one' })).concat([0, 1].map((a) => ({ A: a, S: 'two' })))));
    const keyed = await generate(table('k INT NOT NULL PRIMARY KEY, v INT', { plan: [{ limit: 10, fields: { k: { range: [0, 3] } } }] }));
    expect(sortRows(keyed)).toEqual(
      sortRows([
        { K: 0, V: 9 },
        { K: 1, V: 7 },
        { K: 2, V: 8 },
      ]),
    );
  });

  it('resumes from its position (seed included) to exactly the rows an uninterrupted run gives', async () => {
    const fields = { a: { strategy: 'uniform', range: [0, 1000000] }, s: { strategy: 'uniform', range: [1, 8] }, ts: { strategy: 'uniform' } };
    const sql = (seed: string) => table('a BIGINT, s VARCHAR, ts TIMESTAMP', { ...(seed ? { seed: Number(seed) } : {}), plan: [{ limit: 10_000, worker_chunk_size: 500, fields }, { limit: 500 }] });
    for (const seed of ['5', '']) {
      const first = await start(sql(seed));
      await until(() => first.rt.steps >= 3, 'three steps');
      first.rt.pause();
      await new Promise((r) => setTimeout(r, 30));
      const position = first.rt.connectorPositions()['T.unnamed-0'] as { seed: string; plan: number; row: number };
      expect(position).toMatchObject({ plan: 0, row: first.rt.totalProcessedRecords });
      if (seed) expect(position.seed).toBe(seed);
      await first.rt.shutdown();
      const before = first.rt.circuit.contents('T').map((r) => r.row);
      const rest = await generate(sql(seed), 'T', { 'T.unnamed-0': position });
      expect(before.length + rest.length).toBe(10_500);
      // without a seed the one drawn at the start is in the position: from its beginning, the same rows
      const whole = await generate(sql(seed), 'T', { 'T.unnamed-0': { ...position, plan: 0, row: 0 } });
      expect(sortRows([...before, ...rest])).toEqual(sortRows(whole));
      if (seed) expect(sortRows(await generate(sql(seed)))).toEqual(sortRows(whole));
    }
  });

  it("fits its values to the column's type: increments wrap at the type's max, uniform values stay in it", async () => {
    const rows = await generate(table('t TINYINT NOT NULL, s SMALLINT NOT NULL, u TINYINT NOT NULL', { seed: 2, plan: [{ limit: 300, fields: { u: { strategy: 'uniform' } } }] }));
    const ts = rows.map((r) => r.T as number).sort((a, b) => a - b);
    // (idx × 1) mod 127, as Feldera's increment without a range
    expect(ts.slice(0, 3)).toEqual([0, 0, 0]);
    expect(Math.max(...ts)).toBe(126);
    expect(rows.every((r) => (r.U as number) >= -128 && (r.U as number) <= 127)).toBe(true);
    expect(Math.max(...rows.map((r) => r.S as number))).toBe(299);
  });

  it("draws Feldera's own numbers for a seed, exact across UNSIGNED and BIGINT ranges up to i64::MAX (its SmallRng, small-rng.ts)", async () => {
    // written out: JSON.stringify cannot write 9223372036854775807
    const sql = `CREATE TABLE t (id INT, a TINYINT UNSIGNED, b BIGINT UNSIGNED, c BIGINT, d BIGINT UNSIGNED) WITH ('connectors' = '[{"transport": {"name": "datagen", "config": {"seed": 2024,
      "plan": [{"limit": 3, "fields": {"a": {"strategy": "uniform", "range": [3, 250]}, "b": {"strategy": "uniform", "range": [9007199254740993, 9223372036854775807]},
        "c": {"strategy": "uniform"}, "d": {"strategy": "uniform"}}}]}}}]');`;
    const rows = (await generate(sql)).sort((x, y) => (x.ID as number) - (y.ID as number));
    // the values of an independent model of rand 0.8 (see small-rng.test.ts); beyond 2^53 they are bigints
    expect(rows).toEqual([
      { ID: 0, A: 78, B: 5343131084004304485n, C: 7486270992050277327n, D: 2522181262906054528n },
      { ID: 1, A: 43, B: 3588257407839818791n, C: -2243897110584583918n, D: 1163114113027148190n },
      { ID: 2, A: 201, B: 7678524701419233479n, C: 8224405894029020473n, D: 8124286730217576146n },
    ]);
    // what the API shows of the configuration (program_info, a running pipeline's stats) is plain JSON: the long bound as a number
    const info = compileProgram(sql, 'upper');
    expect(info.ok && JSON.stringify(info.info)).toContain('"range":[9007199254740992,9223372036854776000]');
    const { rt } = await start(sql);
    expect(JSON.stringify([...rt.inputs.values()].map((i) => i.config))).toContain('"range":[9007199254740992,9223372036854776000]');
    await rt.shutdown();
    // a range beyond the type (BIGINT UNSIGNED takes i64 bounds, as Feldera's generator) or not an integer is refused
    expect(compileErrors(table('b BIGINT UNSIGNED', { plan: [{ fields: { b: { strategy: 'uniform', range: [-1, 5] } } }] }))[0]).toMatch(
      /range: \[-1, 5\) is outside the column's type \(0\.\.=9223372036854775807\)/,
    );
    expect(compileErrors(table('b TINYINT UNSIGNED', { plan: [{ fields: { b: { range: [0, 1.5] } } }] }))[0]).toMatch(/range values must be integers/);
  });

  it('fails the pipeline, naming the connector and the column, when given values do not fit the column', async () => {
    const { rt, failures } = await start(table('a INT NOT NULL', { plan: [{ limit: 5, fields: { a: { values: [1, 'two'] } } }] }));
    await until(() => failures.length > 0, 'the failure');
    expect(failures[0]!.message).toMatch(/^Input connector 'T.unnamed-0' generated a record its table refuses: error parsing field 'A'/);
    expect(rt.inputs.get('T.unnamed-0')!.fatal_error).toBe(failures[0]!.message);
    await rt.shutdown();
  });

  it('runs connectors of two tables side by side, each to its limit, through a pause', async () => {
    const sql = `${table('a INT', { plan: [{ limit: 30_000, worker_chunk_size: 1000 }] })}\n${table('b INT', { plan: [{ limit: 20_000, worker_chunk_size: 1000 }] }, 'u')}`;
    const { rt, failures } = await start(sql);
    await until(() => rt.steps >= 2, 'two steps');
    rt.pause();
    await new Promise((r) => setTimeout(r, 30));
    const steps = rt.steps;
    await new Promise((r) => setTimeout(r, 100));
    expect(rt.steps).toBe(steps);
    rt.resume();
    await until(() => rt.pipelineComplete, 'both ends');
    expect(failures).toEqual([]);
    expect(rt.circuit.contents('T').length).toBe(30_000);
    expect(rt.circuit.contents('U').length).toBe(20_000);
    expect(rt.steps).toBe(50);
    await rt.shutdown();
  });

  it("makes ROW columns field by field, each by its own settings (Feldera's struct fields)", async () => {
    const rows = await generate(table('r ROW(a INT, b VARCHAR, c ROW(d BOOLEAN)) NOT NULL', { plan: [{ limit: 3, fields: { r: { fields: { a: { scale: 2 }, b: { values: ['x', 'y'] } } } } }] }));
    expect(sortRows(rows)).toEqual(sortRows([{ R: { A: 0, B: 'x', C: { D: false } } }, { R: { A: 2, B: 'y', C: { D: true } } }, { R: { A: 4, B: 'x', C: { D: false } } }]));
    expect(compileErrors(table('r ROW(a INT)', { plan: [{ fields: { r: { fields: { zz: {} } } } }] }))[0]).toContain('plan[0].fields.R.fields: `zz` is not a field of the ROW (A)');
  });

  it('keeps to its rate', async () => {
    const { rt } = await start(table('a INT', { plan: [{ rate: 20, limit: 10_000 }] }));
    await new Promise((r) => setTimeout(r, 500));
    rt.pause();
    // a second's worth at once (the bucket), then 20 a second: far fewer than the limit
    expect(rt.totalProcessedRecords).toBeGreaterThanOrEqual(1);
    expect(rt.totalProcessedRecords).toBeLessThan(100);
    await rt.shutdown();
  });

  it.each([
    [{ plans: [] }, 'config: unknown field `plans`, expected one of `plan`, `workers`, `seed`, `transaction_size`'],
    [{ plan: [{ limit: 5, speed: 2 }] }, 'plan[0]: unknown field `speed`, expected one of `rate`, `limit`, `worker_chunk_size`, `fields`'],
    [{ plan: [{ fields: { nope: {} } }] }, 'Field `nope` specified in datagen does not exist in the table schema.'],
    [{ plan: [{ fields: { a: { strategy: 'gaussian' } } }] }, 'plan[0].fields.A: unknown strategy `gaussian`, expected one of `increment`, `uniform`, `zipf`, `word`'],
    [{ plan: [{ fields: { a: { strategy: 'word' } } }] }, 'plan[0].fields.A: strategy `word` makes strings; it cannot generate integer values'],
    [{ plan: [{ fields: { a: { range: [5, 5] } } }] }, 'plan[0].fields.A.range: empty range, min >= max (5 >= 5)'],
    [{ plan: [{ fields: { a: { range: [0, 1e12] } } }] }, 'plan[0].fields.A.range: [0, 1000000000000) is outside the column'],
    [{ plan: [{ fields: { ts: { range: ['yesterday', 'today'] } } }] }, "plan[0].fields.TS.range: 'yesterday' is not an RFC 3339 timestamp"],
    [{ plan: [{ fields: { s: { range: [-1, 3] } } }] }, 'plan[0].fields.S.range: lengths must be positive'],
    [{ plan: [{ fields: { a: { null_percentage: 101 } } }] }, 'plan[0].fields.A.null_percentage: 101 is out of range (0..=100)'],
    [{ plan: [{ fields: { a: { colour: 1 } } }] }, 'plan[0].fields.A: unknown field `colour`'],
    [{ seed: -1 }, 'seed: -1 is out of range for u64'],
    [{ workers: 0 }, 'workers: 0 is out of range'],
  ])('refuses %j with a compile error naming it', (config, message) => {
    const errors = compileErrors(table('a INT, s VARCHAR, ts TIMESTAMP', config));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("ConnectorGenerationError: relation 'T', connector #1: datagen: ");
    expect(errors[0]).toContain(message);
  });
});
