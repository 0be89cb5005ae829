/**
 * GET /v0/pipelines/{name}/stats: Feldera's ControllerStatus shape, with every global field of today's
 * (feldera-types ExternalGlobalControllerMetrics: today's Python SDK reads incarnation_uuid, start_time and
 * transaction_status and fails without them) and v0.24's. The worker reports its side (worker/worker-metrics.ts:
 * counters, input endpoints, output files, its own memory) after every step; the host adds its watch
 * streams and answers without asking the worker, so stats answer at once even while a big step runs.
 *
 * Rules: a request is applied when it is answered (inside a transaction: held, counted as input and
 * buffered, processed by the commit), so every step that began has completed (initiated = completed
 * steps) and every processed record is complete. Transactions are started by the API only (no connector
 * starts one); there are no checkpoints, storage or bootstrap here, so those fields keep their idle
 * values. Memory pressure is Feldera's levels of the worker's memory against its limit (85 / 90 / 95 %).
 */
import type { PipelineHost } from '../runner/host.js';

/** Main thread: the whole stats object from the worker's last report and the host's watch streams. */
export function pipelineStats(host: PipelineHost, pipelineConfig: Record<string, unknown> | null): Record<string, unknown> {
  const m = host.metrics;
  const now = Date.now();
  const inputs = m.inputs.map((ep) => ({ ...ep, is_fault_tolerant: false, barrier: false, health: health(ep.fatal_error), completed_frontier: null }));
  const limit = host.memoryMb * 1024 * 1024;
  let inputBytes = 0;
  let bufferedBytes = 0;
  for (const ep of m.inputs) {
    const em = ep.metrics as { total_bytes?: number; buffered_bytes?: number };
    inputBytes += Number(em.total_bytes ?? 0);
    bufferedBytes += Number(em.buffered_bytes ?? 0);
  }
  const outputs: ({ endpoint_name: string } & Record<string, unknown>)[] = [];
  for (const w of host.watchers()) {
    const q = w.queued;
    outputs.push({
      endpoint_name: w.endpointName,
      config: {
        stream: w.relation.name,
        transport: { name: 'http_output', config: { backpressure: w.backpressure } },
        format: { name: w.format, config: w.formatConfig },
        backpressure: w.backpressure,
        send_snapshot: w.sendSnapshot,
      },
      metrics: { ...w.metrics, queued_batches: q.batches, buffered_batches: q.batches, queued_bytes: q.bytes, total_processed_steps: m.total_completed_steps, memory: q.bytes },
      fatal_error: null,
      health: health(null),
    });
  }
  for (const o of m.file_outputs) outputs.push({ ...o, metrics: { ...o.metrics, total_processed_steps: m.total_completed_steps, memory: 0 }, health: health(o.fatal_error) });
  outputs.sort((a, b) => String(a.endpoint_name).localeCompare(String(b.endpoint_name)));
  return {
    pipeline_config: pipelineConfig,
    global_metrics: {
      state: host.state,
      bootstrap_in_progress: false,
      ...transactionMetrics(host, now),
      concurrent_bootstrap_phase: 'Inactive',
      concurrent_bootstrap_progress: null,
      // the resident memory of the pipeline's own process (as Feldera's: its process's RSS)
      rss_bytes: m.process_rss_bytes,
      heap_used_bytes: m.heap_used_bytes,
      memory_limit_bytes: limit,
      memory_pressure: memoryPressure(m.memory_bytes, limit),
      memory_pressure_epoch: 0,
      cpu_msecs: m.process_cpu_msecs,
      uptime_msecs: now - host.startedAt,
      start_time: Math.floor(host.startedAt / 1000),
      incarnation_uuid: host.incarnation,
      initial_start_time: Math.floor(host.startedAt / 1000),
      storage_bytes: 0,
      storage_mb_secs: 0,
      // Feldera: time spent executing steps, times the engine's threads (one here)
      runtime_elapsed_msecs: m.step_msecs,
      buffered_input_records: m.buffered_input_records,
      buffered_input_bytes: bufferedBytes,
      total_input_records: m.total_input_records,
      total_input_bytes: inputBytes,
      total_processed_records: m.total_processed_records,
      total_processed_bytes: inputBytes,
      total_completed_records: m.total_processed_records,
      output_stall_msecs: 0,
      total_initiated_steps: m.total_completed_steps,
      total_completed_steps: m.total_completed_steps,
      state_size_records: m.state_size_records,
      pipeline_complete: m.pipeline_complete,
    },
    suspend_error: null,
    checkpoint_activity: null,
    permanent_checkpoint_errors: null,
    inputs,
    outputs,
    metrics: [],
  };
}

/** The transaction fields of global_metrics (today's Feldera: only API-initiated transactions here). */
function transactionMetrics(host: PipelineHost, now: number): Record<string, unknown> {
  const txn = host.transaction;
  if (txn === null)
    return {
      transaction_status: 'NoTransaction',
      transaction_id: 0,
      transaction_msecs: null,
      transaction_records: null,
      commit_progress: null,
      transaction_initiators: { transaction_id: null, initiated_by_api: null, initiated_by_connectors: {} },
    };
  const committing = txn.commitStartedAt !== null;
  return {
    transaction_status: host.transactionStatus,
    transaction_id: txn.id,
    // as Feldera: while open, the time since the start; while committing, the time since the commit began
    transaction_msecs: now - (txn.commitStartedAt ?? txn.startedAt),
    transaction_records: host.metrics.transaction_records ?? 0,
    // the commit is one engine step here, with no per-operator progress to report
    commit_progress: null,
    transaction_initiators: { transaction_id: txn.id, initiated_by_api: committing ? 'Committed' : 'Started', initiated_by_connectors: {} },
  };
}

/** A connector's health as today's Feldera reports it: unhealthy once it has a fatal error. */
function health(fatalError: string | null | undefined): { status: 'Healthy' | 'Unhealthy'; description: string | null } {
  return fatalError ? { status: 'Unhealthy', description: fatalError } : { status: 'Healthy', description: null };
}

/** Feldera's memory pressure level of `used` bytes against a limit (feldera-types memory_pressure.rs). */
export function memoryPressure(used: number, limit: number): 'low' | 'moderate' | 'high' | 'critical' {
  const share = limit > 0 ? used / limit : 0;
  return share > 0.95 ? 'critical' : share > 0.9 ? 'high' : share > 0.85 ? 'moderate' : 'low';
}
