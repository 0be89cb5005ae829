/** 1M rows ingested in batches over HTTP; the stats and the views add up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, ingest, shutdown, startRunning, startSvc, WatchReader, type Svc } from './helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

const TOTAL = 1_000_000;
const BATCH = 50_000;

describe('bulk ingest', () => {
  it(`${TOTAL} rows in batches of ${BATCH}: total_input_records = total_processed_records = ${TOTAL}`, { timeout: 120_000 }, async () => {
    await createCompiled(
      svc,
      'bulk',
      `CREATE TABLE t (id BIGINT NOT NULL, grp INTEGER NOT NULL, amount DOUBLE);
CREATE VIEW evens AS SELECT id, amount FROM t WHERE grp = 0;`,
    );
    await startRunning(svc, 'bulk');
    const watch = await WatchReader.open(svc, 'bulk', 'evens', 'format=json');
    let evensExpected = 0;
    for (let start = 0; start < TOTAL; start += BATCH) {
      let body = '[';
      for (let id = start; id < start + BATCH; id++) {
        body += `${id === start ? '' : ','}{"id":${id},"grp":${id % 4},"amount":${id / 2}}`;
        if (id % 4 === 0) evensExpected++;
      }
      const r = await ingest(svc, 'bulk', 't', 'format=json&update_format=raw&array=true', body + ']');
      expect(r.status, r.text).toBe(200);
    }
    const stats = (await svc.call('GET', '/v0/pipelines/bulk/stats')).json;
    expect(stats.global_metrics).toMatchObject({ total_input_records: TOTAL, total_processed_records: TOTAL, buffered_input_records: 0 });
    expect(stats.global_metrics.total_completed_steps).toBe(TOTAL / BATCH);
    const ep = stats.inputs.find((i: any) => i.endpoint_name === 'api-ingress-T');
    expect(ep.metrics).toMatchObject({ total_records: TOTAL, num_parse_errors: 0 });
    await watch.until((w) => w.items().length >= evensExpected, 'every change on the watch stream', 60_000);
    expect(watch.items()).toHaveLength(evensExpected);
    const out = (await svc.call('GET', '/v0/pipelines/bulk/stats')).json.outputs[0];
    expect(out.metrics.transmitted_records).toBe(evensExpected);
    await shutdown(svc, 'bulk');
  });
});
