/**
 * What GET /v0/pipelines/{name}/metrics reports for a deployed pipeline: Feldera's metric families (names,
 * HELP texts and types of its controller's `write_metrics`) for the figures `ops serve` really has, as a list
 * that metrics-format.ts renders to Prometheus text or Feldera's JSON.
 *
 * Rules:
 * - The figures are the ones /stats answers (pipelineStats: the worker's last report and the host's watch
 *   streams), so a scrape never waits for the worker and never disagrees with stats.
 * - Every sample carries Feldera's labels `pipeline` (`pipeline-<id>`) and `pipeline_name` (the name);
 *   per-connector families add `endpoint` (the stats endpoint_name).
 * - `process_*` are the pipeline's own process (it runs in one of its own): its resident memory and CPU time
 *   as stats' rss_bytes and cpu_msecs, and the figures its worker reads from /proc (process-figures.ts: open
 *   files and their limit, threads, virtual memory and its limit, swap), each left out where it cannot be read.
 * - Families for what `ops serve` has no notion of (storage, checkpoints, compaction, transactions,
 *   lateness, output stalls, multihost, connector latency histograms, panics) are left out rather than
 *   reported as zeros that would read as measurements.
 * - `dbsp_step_latency_seconds` is the worker's sliding window of step latencies (step-latency.ts).
 */
import type { HistogramBucket, Labels, MetricFamily, MetricType, Sample } from './metrics-format.js';
import type { PipelineHost } from '../runner/host.js';
import { pipelineStats } from './stats.js';
import { latencyBucketUpper, type StepLatencySnapshot } from '../shared/step-latency.js';

const PRESSURE_LEVEL: Record<string, number> = { low: 0, moderate: 1, high: 2, critical: 3 };

interface Endpoint {
  endpoint_name: string;
  metrics: Record<string, unknown>;
  paused?: boolean;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : 0;
}

/** The metric families of one deployed pipeline. */
export function pipelineMetrics(host: PipelineHost, pipeline: { id: string; name: string }): MetricFamily[] {
  const stats = pipelineStats(host, null) as {
    global_metrics: Record<string, unknown>;
    inputs: Endpoint[];
    outputs: Endpoint[];
  };
  const g = stats.global_metrics;
  const base: Labels = [
    ['pipeline', `pipeline-${pipeline.id}`],
    ['pipeline_name', pipeline.name],
  ];
  const families: MetricFamily[] = [];
  const one = (name: string, type: MetricType, help: string, value: number) => families.push({ name, type, help, samples: [{ labels: base, value }] });
  const perEndpoint = (endpoints: Endpoint[], name: string, type: MetricType, help: string, value: (ep: Endpoint) => number) =>
    families.push({ name, type, help, samples: endpoints.map((ep): Sample => ({ labels: [...base, ['endpoint', ep.endpoint_name]], value: value(ep) })) });

  one('process_cpu_seconds_total', 'counter', 'Total user and system CPU time spent in seconds.', num(g.cpu_msecs) / 1000);
  one('process_resident_memory_bytes', 'gauge', 'Resident set size in bytes.', num(g.rss_bytes));
  one('process_start_time_seconds', 'counter', 'Start time of the process in seconds since the Unix epoch.', host.startedAt / 1000);
  // the pipeline process's other figures, where its worker could read them (as Feldera: those it cannot collect are left out)
  const p = host.metrics.process;
  const maybe = (name: string, help: string, value: number | null | undefined) => {
    if (typeof value === 'number') one(name, 'gauge', help, value);
  };
  maybe('process_open_fds', 'Number of open file descriptors.', p?.open_fds);
  maybe('process_max_fds', 'Maximum number of open file descriptors.', p?.max_fds);
  maybe('process_virtual_memory_bytes', 'Virtual memory size in bytes.', p?.virtual_memory_bytes);
  maybe('process_virtual_memory_max_bytes', 'Maximum amount of virtual memory available in bytes.', p?.virtual_memory_max_bytes);
  maybe('process_threads', 'Number of OS threads in the process.', p?.threads);
  maybe('process_swap_bytes', "Amount of the process's memory that is swapped out, in bytes.  A nonzero value indicates that the process is swapping, which degrades performance.", p?.swap_bytes);
  one('records_input_buffered', 'gauge', 'Total amount of data currently buffered by all endpoints, in records.', num(g.buffered_input_records));
  let bufferedBytes = 0;
  for (const ep of stats.inputs) bufferedBytes += num(ep.metrics.buffered_bytes);
  one('records_input_buffered_bytes', 'gauge', 'Total amount of data currently buffered by all endpoints, in bytes.', bufferedBytes);
  one('records_input_total', 'counter', 'Total amount of data received from all connectors, in records.', num(g.total_input_records));
  one('records_input_bytes_total', 'counter', 'Total amount of data received from all connectors, in bytes.', num(g.total_input_bytes));
  one('records_processed_total', 'counter', 'Total amount of input processed by the pipeline, in records.', num(g.total_processed_records));
  one('records_processed_bytes_total', 'counter', 'Total amount of input processed by the pipeline, in bytes.', num(g.total_processed_bytes));
  one('pipeline_complete', 'counter', 'Transitions from 0 to 1 when pipeline completes.', num(g.pipeline_complete));
  one('dbsp_steps_total', 'counter', 'Total number of DBSP steps executed.', num(g.total_completed_steps));
  one(
    'dbsp_runtime_elapsed_seconds_total',
    'counter',
    'Time elapsed while the pipeline is executing a step, multiplied by the number of foreground and background threads, in seconds.',
    num(g.runtime_elapsed_msecs) / 1000,
  );
  families.push({
    name: 'dbsp_step_latency_seconds',
    type: 'histogram',
    help: 'Latency of DBSP steps over the last 60 seconds or 1000 steps, whichever is less, in seconds',
    samples: [{ labels: base, histogram: latencyHistogram(host.metrics.step_latency) }],
  });
  one(
    'pipeline_start_time_seconds',
    'counter',
    'Start time of the pipeline in seconds since the Unix epoch.\n\nThis will be earlier than `process_start_time_seconds` if the pipeline resumed from a checkpoint.  This will be zero if the pipeline resumed from a checkpoint produced by a pipeline too old to record its start time.',
    num(g.initial_start_time),
  );
  one('max_rss_bytes', 'gauge', 'Configured maximum process RSS in bytes. A value of 0 means no limit is configured.', num(g.memory_limit_bytes));
  one('memory_pressure', 'gauge', 'Current memory pressure level in [0..3]: low=0, moderate=1, high=2, critical=3.', PRESSURE_LEVEL[String(g.memory_pressure)] ?? 0);

  const inputs = stats.inputs;
  perEndpoint(inputs, 'input_connector_bytes_total', 'counter', 'Total number of bytes received by an input connector.', (ep) => num(ep.metrics.total_bytes));
  perEndpoint(inputs, 'input_connector_records_total', 'counter', 'Total number of records received by an input connector.', (ep) => num(ep.metrics.total_records));
  perEndpoint(inputs, 'input_connector_buffered_records', 'gauge', 'Amount of data currently buffered by an input connector, in records.', (ep) => num(ep.metrics.buffered_records));
  perEndpoint(inputs, 'input_connector_buffered_records_bytes', 'gauge', 'Amount of data currently buffered by an input connector, in bytes.', (ep) => num(ep.metrics.buffered_bytes));
  perEndpoint(inputs, 'input_connector_errors_transport_total', 'counter', 'Total number of errors encountered by the input connector at the transport layer.', (ep) =>
    num(ep.metrics.num_transport_errors),
  );
  perEndpoint(inputs, 'input_connector_errors_parse_total', 'counter', 'Total number of errors encountered parsing records received by the input connector.', (ep) => num(ep.metrics.num_parse_errors));
  perEndpoint(inputs, 'input_connector_running', 'gauge', 'Whether the input connector is running (1) or paused by the user (0).', (ep) => (ep.paused ? 0 : 1));
  perEndpoint(inputs, 'input_connector_end_of_input', 'gauge', 'Whether the input connector has reached end of input (1 for true, 0 for false).', (ep) => num(ep.metrics.end_of_input));

  const outputs = stats.outputs;
  perEndpoint(outputs, 'output_connector_bytes_total', 'counter', 'Total number of bytes of records sent by the output connector.', (ep) => num(ep.metrics.transmitted_bytes));
  perEndpoint(outputs, 'output_connector_records_total', 'counter', 'Total number of records sent by the output connector.', (ep) => num(ep.metrics.transmitted_records));
  perEndpoint(outputs, 'output_connector_buffered_records', 'gauge', 'Number of records currently buffered by the output connector.', (ep) => num(ep.metrics.buffered_records));
  perEndpoint(outputs, 'output_buffered_batches', 'gauge', 'Number of batches of records currently buffered by the output connector.', (ep) => num(ep.metrics.buffered_batches));
  perEndpoint(outputs, 'output_connector_queued_records', 'gauge', 'Number of records currently queued by the output connector.', (ep) => num(ep.metrics.queued_records));
  perEndpoint(outputs, 'output_connector_queued_batches', 'gauge', 'Number of batches of records currently queued by the output connector.', (ep) => num(ep.metrics.queued_batches));
  perEndpoint(outputs, 'output_connector_errors_transport_total', 'counter', 'Total number of errors encountered at the transport layer sending records.', (ep) =>
    num(ep.metrics.num_transport_errors),
  );
  perEndpoint(outputs, 'output_connector_errors_encode_total', 'counter', 'Total number of errors encountered encoding records to send.', (ep) => num(ep.metrics.num_encode_errors));
  perEndpoint(outputs, 'output_connector_extra_memory_bytes', 'gauge', 'Additional memory used by an output connector beyond that used for buffered records.', (ep) => num(ep.metrics.memory));
  return families;
}

/** The worker's step latencies (µs per bucket) as cumulative buckets in seconds. */
function latencyHistogram(snap: StepLatencySnapshot | undefined): { buckets: HistogramBucket[]; sum: number; count: number } {
  const counts = snap?.counts ?? [];
  const buckets: HistogramBucket[] = [];
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    total += counts[i]!;
    const upper = latencyBucketUpper(i);
    buckets.push({ le: upper === Infinity ? Infinity : upper / 1_000_000, count: total });
  }
  return { buckets, sum: (snap?.sum ?? 0) / 1_000_000, count: total };
}
