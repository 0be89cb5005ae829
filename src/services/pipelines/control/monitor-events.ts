/**
 * Pipeline monitor events (today's Feldera manager: `pipeline_monitor_event`): snapshots of a pipeline's
 * statuses, kept in memory per pipeline, served by routes/events.ts.
 *
 * Rules (as Feldera's manager, which records an event in the same transaction as each status write):
 * - An event is recorded when the pipeline is created and whenever its program status, deployment status
 *   (resources and runtime), desired status, storage status or deployment error changes. A snapshot equal
 *   to the pipeline's last event is not recorded again, except the heartbeat: a deployed pipeline whose last
 *   event is HEARTBEAT_MS (10 min, Feldera's DETAILS_UPDATE_MAX_INTERVAL) old gets the same event again.
 * - The fields are the pipeline object's in today's shape (model.ts serializePipeline with api 'current':
 *   the combined status split into resources and runtime status there, not here).
 * - The newest `retention` events of each pipeline are kept (Feldera's default 720,
 *   FELDERA_PIPELINE_MONITOR_EVENTS_RETENTION); recording one more drops the oldest at once.
 * - Ids are UUIDv7. recorded_at strictly increases (microseconds), so the list, newest first, is Feldera's
 *   `ORDER BY recorded_at DESC, event_id DESC`, and `latest` is its first event.
 * - In memory only, as the deployment state: a restarted server starts each pipeline with one event of the
 *   status it has then. A deleted pipeline's events go with it.
 */
import { serializePipeline, uuidv7, type DeploymentState, type PipelineRecord } from './model.js';

export const DEFAULT_EVENTS_RETENTION = 720;
export const HEARTBEAT_MS = 10 * 60 * 1000;

/** One recorded event with every field (Feldera's ExtendedPipelineMonitorEvent), in its field order. */
export interface MonitorEvent {
  event_id: string;
  recorded_at: string;
  deployment_resources_status: unknown;
  deployment_resources_status_details: unknown;
  deployment_resources_desired_status: unknown;
  deployment_runtime_status: unknown;
  deployment_runtime_status_details: unknown;
  deployment_runtime_desired_status: unknown;
  deployment_has_error: boolean;
  deployment_error: unknown;
  program_status: unknown;
  storage_status: unknown;
  storage_status_details: unknown;
}

export type EventSelector = 'status' | 'all';

/** The fields `selector=status` leaves out (the details and the error itself). */
const DETAIL_FIELDS = new Set(['deployment_resources_status_details', 'deployment_runtime_status_details', 'deployment_error', 'storage_status_details']);

/** The event as the API answers it: every field (`all`) or the status fields only (`status`). */
export function selectFields(ev: MonitorEvent, selector: EventSelector): Record<string, unknown> {
  if (selector === 'all') return { ...ev };
  return Object.fromEntries(Object.entries(ev).filter(([k]) => !DETAIL_FIELDS.has(k)));
}

type Snapshot = Omit<MonitorEvent, 'event_id' | 'recorded_at'>;

/** The statuses of a pipeline as an event records them: the pipeline object's fields in today's shape. */
function snapshotOf(rec: PipelineRecord, dep: DeploymentState): Snapshot {
  const p = serializePipeline(rec, dep, { code: false, api: 'current' });
  return {
    deployment_resources_status: p.deployment_resources_status,
    deployment_resources_status_details: p.deployment_resources_status_details,
    deployment_resources_desired_status: p.deployment_resources_desired_status,
    deployment_runtime_status: p.deployment_runtime_status,
    deployment_runtime_status_details: p.deployment_runtime_status_details,
    deployment_runtime_desired_status: p.deployment_runtime_desired_status,
    deployment_has_error: p.deployment_error !== null,
    deployment_error: p.deployment_error,
    program_status: p.program_status,
    storage_status: p.storage_status,
    storage_status_details: p.storage_status_details,
  };
}

interface History {
  /** Oldest first. */
  events: MonitorEvent[];
  /** The last snapshot, to tell a change from a repeat. */
  last: string;
  lastAtMs: number;
}

export class MonitorEvents {
  private readonly byPipeline = new Map<string, History>();
  private lastMicros = 0;

  constructor(private readonly retention: number = DEFAULT_EVENTS_RETENTION) {}

  /**
   * Records the pipeline's statuses when they differ from its last event (or always, with `repeat`: the
   * heartbeat). Returns whether an event was recorded.
   */
  record(rec: PipelineRecord, dep: DeploymentState, opts: { repeat?: boolean } = {}): boolean {
    const snapshot = snapshotOf(rec, dep);
    const key = JSON.stringify(snapshot);
    let h = this.byPipeline.get(rec.id);
    if (h && h.last === key && !opts.repeat) return false;
    if (!h) {
      h = { events: [], last: '', lastAtMs: 0 };
      this.byPipeline.set(rec.id, h);
    }
    const micros = Math.max(Date.now() * 1000, this.lastMicros + 1);
    this.lastMicros = micros;
    h.events.push({ event_id: uuidv7(), recorded_at: isoMicros(micros), ...snapshot });
    if (h.events.length > this.retention) h.events.splice(0, h.events.length - this.retention);
    h.last = key;
    h.lastAtMs = Date.now();
    return true;
  }

  /** The pipeline's events, newest first. */
  list(pipelineId: string): MonitorEvent[] {
    return [...(this.byPipeline.get(pipelineId)?.events ?? [])].reverse();
  }

  latest(pipelineId: string): MonitorEvent | undefined {
    return this.byPipeline.get(pipelineId)?.events.at(-1);
  }

  /** The event with this id (lower-case canonical form), if still kept. */
  find(pipelineId: string, eventId: string): MonitorEvent | undefined {
    return this.byPipeline.get(pipelineId)?.events.find((ev) => ev.event_id === eventId);
  }

  /** When the pipeline's last event was recorded (ms since the epoch; 0 when it has none). */
  lastRecordedAt(pipelineId: string): number {
    return this.byPipeline.get(pipelineId)?.lastAtMs ?? 0;
  }

  drop(pipelineId: string): void {
    this.byPipeline.delete(pipelineId);
  }
}

/** RFC 3339 in UTC with microseconds, as Feldera's timestamps. */
function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const sub = String(micros % 1000).padStart(3, '0');
  return new Date(ms).toISOString().replace(/Z$/, `${sub}Z`);
}
