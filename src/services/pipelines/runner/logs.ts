/**
 * Log lines of the pipeline service. Plain text by default; when ENGINE_LOG_JSON is set (to anything
 * but "", "0" or "false") every line is one JSON object:
 * {timestamp, level, target, fields: {message}, engine-service, pipeline-name?, pipeline-id?}.
 * Lines are kept in bounded per-pipeline rings (served by GET /v0/pipelines/{name}/logs) and a service ring.
 */

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
export type EngineService = 'manager' | 'compiler-server' | 'runner' | 'pipeline' | 'api-server';

export interface LogRecord {
  timestamp: string;
  level: LogLevel;
  target: string;
  message: string;
  service: EngineService;
  pipelineName?: string;
  pipelineId?: string;
}

export const MAX_LINES_PER_RING = 10_000;

export function jsonLogsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.ENGINE_LOG_JSON;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

const origin = performance.timeOrigin;

/** UTC timestamp with microsecond precision. */
export function microTimestamp(): string {
  const t = origin + performance.now();
  const ms = Math.floor(t);
  const micros = Math.floor((t - ms) * 1000);
  return new Date(ms).toISOString().replace(/Z$/, `${String(micros).padStart(3, '0')}Z`);
}

export function formatLog(r: LogRecord, json: boolean): string {
  if (json) {
    const o: Record<string, unknown> = {
      timestamp: r.timestamp,
      level: r.level,
      target: r.target,
      fields: { message: r.message },
      'engine-service': r.service,
    };
    if (r.pipelineName !== undefined || r.pipelineId !== undefined) {
      o['pipeline-name'] = r.pipelineName ?? 'N/A';
      if (r.pipelineId !== undefined) o['pipeline-id'] = r.pipelineId;
    }
    return JSON.stringify(o);
  }
  const who = r.pipelineName !== undefined ? ` ${r.pipelineName}` : '';
  return `${r.timestamp} ${r.level.padEnd(5)} ${r.service}${who}: ${r.message}`;
}

type Listener = ((line: LogRecord) => void) & { end?: () => void };

class Ring {
  readonly lines: LogRecord[] = [];
  readonly listeners = new Set<Listener>();
  push(r: LogRecord): void {
    this.lines.push(r);
    // trim in batches so that a full ring does not shift 10,000 entries on every line
    if (this.lines.length > MAX_LINES_PER_RING + 1000) this.lines.splice(0, this.lines.length - MAX_LINES_PER_RING);
    for (const l of this.listeners) l(r);
  }
}

export class LogBook {
  private readonly service = new Ring();
  private readonly pipelines = new Map<string, Ring>();

  constructor(private readonly sink?: (r: LogRecord) => void) {}

  log(level: LogLevel, service: EngineService, target: string, message: string, pipeline?: { name: string; id: string }): void {
    const r: LogRecord = { timestamp: microTimestamp(), level, target, message, service };
    if (pipeline) {
      r.pipelineName = pipeline.name;
      r.pipelineId = pipeline.id;
      this.ring(pipeline.id).push(r);
    } else this.service.push(r);
    this.sink?.(r);
  }

  private ring(id: string): Ring {
    let ring = this.pipelines.get(id);
    if (!ring) {
      ring = new Ring();
      this.pipelines.set(id, ring);
    }
    return ring;
  }

  lines(pipelineId?: string): LogRecord[] {
    return (pipelineId === undefined ? this.service.lines : this.ring(pipelineId).lines).slice(-MAX_LINES_PER_RING);
  }

  follow(pipelineId: string | undefined, listener: Listener): () => void {
    const ring = pipelineId === undefined ? this.service : this.ring(pipelineId);
    ring.listeners.add(listener);
    return () => ring.listeners.delete(listener);
  }

  /** Ends every follower (server shutdown). */
  endFollowers(): void {
    for (const ring of [this.service, ...this.pipelines.values()]) {
      for (const l of ring.listeners) l.end?.();
      ring.listeners.clear();
    }
  }

  /** Drops a deleted pipeline's lines and ends its followers (a renamed one keeps them: rings are keyed by id). */
  drop(pipelineId: string): void {
    const ring = this.pipelines.get(pipelineId);
    this.pipelines.delete(pipelineId);
    for (const l of ring?.listeners ?? []) l.end?.();
    ring?.listeners.clear();
  }
}
