/**
 * A pipeline worker's report of its figures (WorkerMetrics in shared/protocol.ts), sent to the host after
 * every step and with the answers that change them: the runtime's counters, its input endpoints and output
 * files, the worker's own memory and CPU, and its process's figures. The host answers /stats and /metrics
 * from the last report (control/stats.ts, control/metrics.ts) without asking the worker.
 */
import { cpuUsage, memoryUsage } from 'node:process';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { latestProcessFigures } from '../shared/process-figures.js';
import type { WorkerMetrics } from '../shared/protocol.js';
import type { PipelineRuntime } from './runtime.js';
import { plainPart } from './connector-json.js';

function processCpuMsecs(): number {
  const { user, system } = cpuUsage();
  return Math.round((user + system) / 1000);
}

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
    transaction_records: rt.transaction?.records ?? null,
    // in a worker, heap figures are the worker's own isolate; external and array buffers are held by it
    memory_bytes: heap.total_heap_size + external,
    // the pipeline's whole process (it runs alone in one: workers/process-worker.ts), Node's runtime included
    process_rss_bytes: memoryUsage.rss(),
    // the worker thread's busy time since it started (its event loop's active time)
    busy_msecs: Math.round(performance.eventLoopUtilization().active),
    // the CPU time of the pipeline's whole process (its worker, the relay, V8's GC threads), as Feldera's cpu_msecs
    process_cpu_msecs: processCpuMsecs(),
    process: latestProcessFigures(),
    step_msecs: Math.round(rt.stepMsecs),
    heap_used_bytes: heap.used_heap_size,
    step_latency: rt.stepLatency.snapshot(),
    inputs: [...rt.inputs.values()].sort((a, b) => (a.endpoint_name < b.endpoint_name ? -1 : a.endpoint_name > b.endpoint_name ? 1 : 0)).map((ep) => ({ ...ep, metrics: { ...ep.metrics } })),
    file_outputs: rt.fileOutputs.map((o) => ({
      endpoint_name: o.endpointName,
      config: { stream: o.view.name, transport: plainPart(o.decl.transport), format: o.decl.format ? plainPart(o.decl.format) : null },
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

function safeStateSize(rt: PipelineRuntime): number {
  try {
    return rt.circuit.stateSize();
  } catch {
    return 0;
  }
}
