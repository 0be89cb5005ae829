/**
 * Feldera's docs' emit_final table (docs/tutorials/time-series.md, "Emitting final values of a view with
 * emit_final") through `ops serve`: the pipeline's real worker, real HTTP. After each of the four inserts the
 * views hold what the table shows, and the emit_final view's watch stream carries exactly one change, the final
 * 2020-01-01 total, which comes with the fourth insert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bag, createCompiled, ingest, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

const SQL = `CREATE TABLE purchase (customer_id INT, ts TIMESTAMP NOT NULL LATENESS INTERVAL 1 HOURS, amount BIGINT);
CREATE MATERIALIZED VIEW daily_total AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS d, SUM(amount) AS total FROM purchase GROUP BY TIMESTAMP_TRUNC(ts, DAY);
CREATE MATERIALIZED VIEW daily_total_final WITH ('emit_final' = 'd') AS SELECT TIMESTAMP_TRUNC(ts, DAY) AS d, SUM(amount) AS total FROM purchase GROUP BY TIMESTAMP_TRUNC(ts, DAY);`;

describe("emit_final: Feldera's docs' table through the pipeline service", { timeout: 120_000 }, () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startSvc();
    await createCompiled(svc, 'ts', SQL, { program_config: { output_case: 'lower' } });
    await startRunning(svc, 'ts');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  const contents = async (view: string) => {
    const r = await svc.call('GET', `/v0/pipelines/ts/query?sql=${encodeURIComponent(`SELECT * FROM ${view}`)}&format=json`);
    expect(r.status, r.text).toBe(200);
    return bag(
      r.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
  };

  it('the final 2020-01-01 total comes out with the fourth insert', async () => {
    const final = await WatchReader.open(svc, 'ts', 'daily_total_final', 'format=json');
    expect(final.status, final.raw).toBe(200);
    const day = (d: string, total: number) => ({ d: `${d} 00:00:00`, total });
    // the docs' rows, and the views' contents after each (daily_total's changes are the table's middle column)
    const steps: Array<[string, unknown[], unknown[]]> = [
      ['2020-01-01 01:00:00', [day('2020-01-01', 10)], []],
      ['2020-01-01 02:00:00', [day('2020-01-01', 20)], []],
      ['2020-01-02 00:00:00', [day('2020-01-01', 20), day('2020-01-02', 10)], []],
      ['2020-01-02 01:00:00', [day('2020-01-01', 20), day('2020-01-02', 20)], [day('2020-01-01', 20)]],
    ];
    for (const [ts, total, finalRows] of steps) {
      const r = await ingest(svc, 'ts', 'purchase', 'format=json', JSON.stringify({ insert: { customer_id: 1, ts, amount: 10 } }));
      expect(r.status, r.text).toBe(200);
      expect([ts, await contents('daily_total')]).toEqual([ts, bag(total)]);
      expect([ts, await contents('daily_total_final')]).toEqual([ts, finalRows]);
    }
    await final.until((w) => w.items().length > 0, 'the final row');
    expect(final.items()).toEqual([{ insert: day('2020-01-01', 20) }]);
    final.close();
  });
});
