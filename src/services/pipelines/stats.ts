/**
 * GET /v0/pipelines/{name}/stats: Feldera's ControllerStatus shape (v0.24, plus a few of today's global
 * fields). The worker reports its side (workerMetrics: counters, input endpoints, output files, its own
 * memory) after every step; the host adds its watch streams and answers without asking the worker, so
 * stats answer at once even while a big step runs.
 */
import { memoryUsage } from 'node:process';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { PipelineHost } from './host.js';
import type { PipelineRuntime } from './runtime.js';
import type { WorkerMetrics } from './worker/protocol.js';

/** Worker side: the runtime's figures and the worker's own memory. */
export function workerMetrics(rt: PipelineRuntime): WorkerMetrics {
  const heap = getHeapStatistics();
  const external = (heap as { external_memory?: number }).external_memory ?? memoryUsage().external;
  return {
    state: rt.state,
    buffered_input_records: rt.bufferedRecords,
    total_input_records: rt.totalInputRecords,
    total_processed_records: rt.totalProcessedRecords,
    total_completed_steps: rt.steps,
    state_size_records: safeStateSize(rt),
    pipeline_complete: rt.pipelineComplete,
    // in a worker, heap figures are the worker's own isolate; external and array buffers are held by it
    memory_bytes: heap.total_heap_size + external,
    // the worker thread's busy time since it started (its event loop's active time)
    busy_msecs: Math.round(performance.eventLoopUtilization().active),
    heap_used_bytes: heap.used_heap_size,
    inputs: [...rt.inputs.values()].sort((a, b) => (a.endpoint_name < b.endpoint_name ? -1 : a.endpoint_name > b.endpoint_name ? 1 : 0)).map((ep) => ({ ...ep, metrics: { ...ep.metrics } })),
    file_outputs: rt.fileOutputs.map((o) => ({
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
    })),
  };
}

/** Main thread: the whole stats object from the worker's last report and the host's watch streams. */
export function pipelineStats(host: PipelineHost, pipelineConfig: Record<string, unknown> | null): Record<string, unknown> {
  const m = host.metrics;
  const now = Date.now();
  const inputs = m.inputs.map((ep) => ({ ...ep, is_fault_tolerant: false }));
  const outputs: ({ endpoint_name: string } & Record<string, unknown>)[] = [];
  for (const w of host.watchers()) {
    const q = w.queued;
    outputs.push({
      endpoint_name: w.endpointName,
      config: {
        stream: w.relation.name,
        transport: { name: 'http_output', config: {} },
        format: { name: w.format, config: w.formatConfig },
        backpressure: w.backpressure,
        send_snapshot: w.sendSnapshot,
      },
      metrics: { ...w.metrics, queued_batches: q.batches, buffered_batches: q.batches, queued_bytes: q.bytes },
      fatal_error: null,
    });
  }
  for (const o of m.file_outputs) outputs.push({ ...o });
  outputs.sort((a, b) => String(a.endpoint_name).localeCompare(String(b.endpoint_name)));
  return {
    pipeline_config: pipelineConfig,
    global_metrics: {
      state: host.state,
      // the pipeline's own worker: its heap and the memory its objects hold outside the heap
      rss_bytes: m.memory_bytes,
      heap_used_bytes: m.heap_used_bytes,
      memory_limit_bytes: host.memoryMb * 1024 * 1024,
      cpu_msecs: m.busy_msecs,
      uptime_msecs: now - host.startedAt,
      start_time: Math.floor(host.startedAt / 1000),
      buffered_input_records: m.buffered_input_records,
      total_input_records: m.total_input_records,
      total_processed_records: m.total_processed_records,
      total_completed_steps: m.total_completed_steps,
      state_size_records: m.state_size_records,
      pipeline_complete: m.pipeline_complete,
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
