/** A pipeline fed by a datagen connector through the real server, and a datagen config refused at PUT. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiled, pipelineBody, shutdown, snapshot, startRunning, startSvc, waitFor, type Svc } from '../helpers.js';

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

describe('datagen connector in a running pipeline', () => {
  it('generates its plan while the pipeline runs and then ends its input', async () => {
    const sql = `CREATE TABLE stocks (symbol VARCHAR NOT NULL, price_time BIGINT NOT NULL, price DECIMAL(38, 2) NOT NULL) WITH ('connectors' = '[{
  "transport": {"name": "datagen", "config": {"seed": 1, "plan": [{"limit": 25000, "fields": {"symbol": {"values": ["AAPL", "GOOGL", "SPY", "NVDA"]}, "price": {"strategy": "uniform", "range": [100, 10000]}}}]}}
}]');
CREATE MATERIALIZED VIEW per_symbol AS SELECT symbol, COUNT(*) AS n, MIN(price) >= 100 AS above, MAX(price) < 10000 AS below FROM stocks GROUP BY symbol;`;
    await createCompiled(svc, 'dg', sql);
    await startRunning(svc, 'dg');
    const s = await waitFor(async () => {
      const st = (await svc.call('GET', '/v0/pipelines/dg/stats')).json;
      return st.global_metrics.pipeline_complete ? st : undefined;
    }, 'pipeline_complete');
    expect(s.global_metrics.total_processed_records).toBe(25_000);
    expect(s.inputs[0]).toMatchObject({ endpoint_name: 'STOCKS.unnamed-0', metrics: { total_records: 25_000, end_of_input: true } });
    const rows = (await snapshot(svc, 'dg', 'per_symbol')).json_data.map((x: any) => x.insert);
    expect(rows.sort((a: any, b: any) => (a.SYMBOL < b.SYMBOL ? -1 : 1))).toEqual([
      { SYMBOL: 'AAPL', N: 6250, ABOVE: true, BELOW: true },
      { SYMBOL: 'GOOGL', N: 6250, ABOVE: true, BELOW: true },
      { SYMBOL: 'NVDA', N: 6250, ABOVE: true, BELOW: true },
      { SYMBOL: 'SPY', N: 6250, ABOVE: true, BELOW: true },
    ]);
    await shutdown(svc, 'dg');
  });

  it('refuses a bad datagen configuration at compile time, naming the option', async () => {
    const sql = `CREATE TABLE t (x INT) WITH ('connectors' = '[{"transport": {"name": "datagen", "config": {"plan": [{"fields": {"x": {"strategy": "email"}}}]}}}]');`;
    await svc.call('PUT', '/v0/pipelines/dgbad', pipelineBody('dgbad', sql));
    const p = await waitFor(async () => {
      const r = await svc.call('GET', '/v0/pipelines/dgbad');
      return typeof r.json.program_status === 'object' ? r.json : undefined;
    }, 'SqlError');
    expect(p.program_status.SqlError[0]).toMatchObject({ error_type: 'ConnectorGenerationError', start_line_number: 1 });
    expect(p.program_status.SqlError[0].message).toBe("relation 'T', connector #1: datagen: plan[0].fields.X: strategy `email` makes strings; it cannot generate integer values");
  });
});
