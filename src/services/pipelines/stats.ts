/** GET /v0/pipelines/{name}/stats: Feldera's ControllerStatus shape (v0.24, plus a few of today's global fields). */
import { cpuUsage, memoryUsage } from 'node:process';
import type { PipelineRuntime } from './runtime.js';

export function pipelineStats(rt: PipelineRuntime, pipelineConfig: Record<string, unknown> | null): Record<string, unknown> {
  const now = Date.now();
  const cpu = cpuUsage();
  const inputs = [...rt.inputs.values()]
    .sort((a, b) => (a.endpoint_name < b.endpoint_name ? -1 : a.endpoint_name > b.endpoint_name ? 1 : 0))
    .map((ep) => ({ ...ep, metrics: { ...ep.metrics }, is_fault_tolerant: false }));
  const outputs: Record<string, unknown>[] = [];
  for (const set of rt.watchers.values())
    for (const w of set) {
      const q = w.queued;
      outputs.push({
        endpoint_name: w.endpointName,
        config: { stream: w.relation.name, transport: { name: 'http_output', config: {} }, format: { name: w.format, config: {} }, backpressure: w.backpressure },
        metrics: { ...w.metrics, queued_batches: q.batches, buffered_batches: q.batches },
        fatal_error: null,
      });
    }
  for (const o of rt.fileOutputs)
    outputs.push({
      endpoint_name: o.endpointName,
      config: { stream: o.view.name, transport: o.decl.transport, format: o.decl.format ?? null },
      metrics: {
        transmitted_records: o.transmittedRecords,
        transmitted_bytes: o.transmittedBytes,
        queued_records: 0,
        queued_batches: 0,
        buffered_records: 0,
        buffered_batches: 0,
        num_encode_errors: 0,
        num_transport_errors: o.errors,
        total_processed_input_records: rt.totalProcessedRecords,
      },
      fatal_error: o.fatalError,
    });
  outputs.sort((a, b) => String(a.endpoint_name).localeCompare(String(b.endpoint_name)));
  return {
    pipeline_config: pipelineConfig,
    global_metrics: {
      state: rt.state,
      rss_bytes: memoryUsage.rss(),
      cpu_msecs: Math.round((cpu.user + cpu.system) / 1000),
      uptime_msecs: now - rt.startedAt,
      start_time: Math.floor(rt.startedAt / 1000),
      buffered_input_records: rt.bufferedRecords,
      total_input_records: rt.totalInputRecords,
      total_processed_records: rt.totalProcessedRecords,
      total_completed_steps: rt.steps,
      state_size_records: safeStateSize(rt),
      pipeline_complete: rt.pipelineComplete,
    },
    inputs,
    outputs,
    metrics: [],
  };
}

function safeStateSize(rt: PipelineRuntime): number {
  try {
    return rt.circuit.stateSize();
  } catch {
    return 0;
  }
}
