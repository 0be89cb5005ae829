/**
 * Today's `POST /v0/pipelines/{name}/clock/advance` (Feldera's clock_advance, for tests that drive NOW()):
 * body `{"delta_ms": N | null}`, answer 200 `{"now_ms": N, "now": "<RFC 3339, ms, Z>"}` once the worker
 * moved the clock and, running, took the step with it (Feldera answers before the step; answering after it
 * lets a caller read the views at once). Served in both `--pipeline-api` modes, as the other today's-only
 * paths (v0.24 had no such path to clash with).
 *
 * Rules (as Feldera, clock.ts and clock-errors.ts): `delta_ms` 0 reads NOW(), null or absent advances one
 * clock resolution, n advances n ms rounded up to the resolution; a negative, fractional or non-number
 * `delta_ms`, a body that is not a JSON object (an empty one too) is 400 with serde's reason; a pipeline not
 * deployed is 503 PipelineInteractionNotDeployed (503 Initializing while it initializes); a program without
 * NOW() or a clock not driven over HTTP (`dev_tweaks.now_http_driven`) is 400 InvalidParam.
 */
import type { FastifyInstance } from 'fastify';
import type { PipelineManager } from '../manager.js';
import { ClockErrors } from '../../shared/clock-errors.js';
import { deployed } from './completion.js';
import { jsonBody } from './util.js';

/** How serde names a JSON value that is not of the expected type. */
function serdeKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  return String(v);
}

/** `delta_ms` of a ClockAdvanceRequest body: a u64 or null (absent: null). */
export function parseClockAdvance(body: unknown): number | null {
  if (body === null) throw ClockErrors.badBody('EOF while parsing a value at line 1 column 0');
  if (typeof body !== 'object' || Array.isArray(body)) throw ClockErrors.badBody(`invalid type: ${serdeKind(body)}, expected struct ClockAdvanceRequest`);
  const d = (body as { delta_ms?: unknown }).delta_ms;
  if (d === undefined || d === null) return null;
  if (typeof d === 'number' && Number.isInteger(d)) {
    if (d < 0) throw ClockErrors.badBody(`invalid value: integer \`${d}\`, expected u64`);
    return d;
  }
  throw ClockErrors.badBody(`invalid type: ${serdeKind(d)}, expected u64`);
}

export function clockRoutes(app: FastifyInstance, manager: PipelineManager): void {
  app.post<{ Params: { name: string } }>('/pipelines/:name/clock/advance', async (req) => {
    const host = deployed(manager, req.params.name);
    const deltaMs = parseClockAdvance(jsonBody(req));
    const nowMs = await host.advanceClock(deltaMs);
    return { now_ms: nowMs, now: new Date(nowMs).toISOString() };
  });
}
