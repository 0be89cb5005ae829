/**
 * /stats carries every global field of today's Feldera (feldera-types ExternalGlobalControllerMetrics) with
 * its type, as today's Python SDK parses them (PipelineStatistics.from_dict reads incarnation_uuid,
 * start_time and transaction_status and fails without them), with values that follow the pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryPressure } from '../../../src/services/pipelines/control/stats.js';
import { createCompiled, ingest, shutdown, startRunning, startSvc, type Svc } from './helpers.js';

const SQL = 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELECT x FROM t;\n';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Today's global fields and the JSON type of each (null where Feldera's is an Option left empty here). */
const FIELDS: Record<string, string> = {
  state: 'string',
  bootstrap_in_progress: 'boolean',
  transaction_status: 'string',
  transaction_id: 'number',
  transaction_msecs: 'null',
  transaction_records: 'null',
  commit_progress: 'null',
  transaction_initiators: 'object',
  concurrent_bootstrap_phase: 'string',
  concurrent_bootstrap_progress: 'null',
  rss_bytes: 'number',
  memory_pressure: 'string',
  memory_pressure_epoch: 'number',
  cpu_msecs: 'number',
  uptime_msecs: 'number',
  start_time: 'number',
  incarnation_uuid: 'string',
  initial_start_time: 'number',
  storage_bytes: 'number',
  storage_mb_secs: 'number',
  runtime_elapsed_msecs: 'number',
  buffered_input_records: 'number',
  buffered_input_bytes: 'number',
  total_input_records: 'number',
  total_input_bytes: 'number',
  total_processed_records: 'number',
  total_processed_bytes: 'number',
  total_completed_records: 'number',
  output_stall_msecs: 'number',
  total_initiated_steps: 'number',
  total_completed_steps: 'number',
  pipeline_complete: 'boolean',
};
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

let svc: Svc;
beforeAll(async () => {
  svc = await startSvc();
});
afterAll(async () => {
  await svc.close();
});

describe('GET /stats: today global_metrics', () => {
  it('has every field of today with its type, and values that follow ingress; a new incarnation at each start', async () => {
    await createCompiled(svc, 'shape', SQL);
    await startRunning(svc, 'shape');
    const before = (await svc.call('GET', '/v0/pipelines/shape/stats')).json;
    for (const [field, type] of Object.entries(FIELDS)) expect([field, typeOf(before.global_metrics[field])]).toEqual([field, type]);
    expect(before).toMatchObject({ suspend_error: null, checkpoint_activity: null, permanent_checkpoint_errors: null });
    const g0 = before.global_metrics;
    expect(g0).toMatchObject({ state: 'Running', transaction_status: 'NoTransaction', concurrent_bootstrap_phase: 'Inactive', memory_pressure: 'low' });
    expect(g0.incarnation_uuid).toMatch(UUID);
    expect(g0.initial_start_time).toBe(g0.start_time);
    expect(Math.abs(g0.start_time - Date.now() / 1000)).toBeLessThan(600);

    const body = '1\n2\n3\n';
    expect((await ingest(svc, 'shape', 't', 'format=csv', body)).status).toBe(200);
    expect((await ingest(svc, 'shape', 't', 'format=csv', '4\n')).status).toBe(200);
    const g1 = (await svc.call('GET', '/v0/pipelines/shape/stats')).json.global_metrics;
    expect(g1).toMatchObject({ total_input_records: 4, total_processed_records: 4, total_completed_records: 4, buffered_input_records: 0 });
    expect(g1.total_input_bytes).toBe(body.length + 2);
    expect(g1.total_processed_bytes).toBe(g1.total_input_bytes);
    expect(g1.total_completed_steps).toBe(g0.total_completed_steps + 2);
    expect(g1.total_initiated_steps).toBe(g1.total_completed_steps);
    expect(g1.incarnation_uuid).toBe(g0.incarnation_uuid);

    // endpoints: the fields today's SDK requires (InputEndpointStatus: paused and barrier) and health
    const watch = new AbortController();
    const res = await fetch(`${svc.base}/v0/pipelines/shape/egress/v?format=json`, { method: 'POST', signal: watch.signal });
    expect(res.status).toBe(200);
    const s = (await svc.call('GET', '/v0/pipelines/shape/stats')).json;
    watch.abort();
    const input = s.inputs.find((i: { config: { stream: string } }) => i.config.stream.toLowerCase() === 't');
    expect(input).toMatchObject({ paused: false, barrier: false, fatal_error: null, health: { status: 'Healthy', description: null }, completed_frontier: null });
    expect(input.metrics).toMatchObject({ total_records: 4, total_bytes: body.length + 2, end_of_input: false });
    expect(s.outputs).toHaveLength(1);
    expect(s.outputs[0]).toMatchObject({ fatal_error: null, health: { status: 'Healthy', description: null } });
    expect(s.outputs[0].metrics).toMatchObject({ total_processed_steps: g1.total_completed_steps, memory: expect.any(Number) });

    await shutdown(svc, 'shape');
    await startRunning(svc, 'shape');
    const g2 = (await svc.call('GET', '/v0/pipelines/shape/stats')).json.global_metrics;
    expect(g2.incarnation_uuid).toMatch(UUID);
    expect(g2.incarnation_uuid).not.toBe(g0.incarnation_uuid);
    await shutdown(svc, 'shape');
  });

  it('memory pressure: Feldera levels of use against the limit', () => {
    const limit = 1000;
    expect([0, 850, 851, 900, 901, 950, 951, 2000].map((used) => memoryPressure(used, limit))).toEqual(['low', 'low', 'moderate', 'moderate', 'high', 'high', 'critical', 'critical']);
    expect(memoryPressure(5, 0)).toBe('low');
  });
});
