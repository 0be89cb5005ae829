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
import { jsonOfBody } from './request-body.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';

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

/** A parsed body as a ClockAdvanceRequest object (none, or not an object: serde's reason). */
function advanceRequest(body: unknown): Record<string, unknown> {
  if (body === null) throw ClockErrors.badBody('EOF while parsing a value at line 1 column 0');
  if (typeof body !== 'object' || Array.isArray(body)) throw ClockErrors.badBody(`invalid type: ${serdeKind(body)}, expected struct ClockAdvanceRequest`);
  return body as Record<string, unknown>;
}

/** `delta_ms`: a u64 or null (absent or null: undefined, one clock resolution). */
const deltaMs = optional(
  field<number | undefined>({ type: ['integer', 'null'], minimum: 0, description: 'milliseconds; null or absent: one clock resolution' }, (d) => {
    if (d === null) return undefined;
    if (typeof d === 'number' && Number.isInteger(d)) {
      if (d < 0) throw ClockErrors.badBody(`invalid value: integer \`${d}\`, expected u64`);
      return d;
    }
    throw ClockErrors.badBody(`invalid type: ${serdeKind(d)}, expected u64`);
  }),
);

/** POST .../clock/advance's body, read from the request's bytes. */
const advanceBody = objectOf({ delta_ms: deltaMs }, { normalize: (raw) => advanceRequest(jsonOfBody(raw)) });
/** The same fields over an already parsed body. */
const parsedAdvance = objectOf({ delta_ms: deltaMs }, { normalize: advanceRequest });

/** `delta_ms` of a parsed ClockAdvanceRequest body: a u64 or null (absent: null). */
export const parseClockAdvance = (body: unknown): number | null => parsedAdvance.check(body).delta_ms ?? null;

export function clockRoutes(app: FastifyInstance, manager: PipelineManager): void {
  declareRoute<ReturnType<typeof advanceBody.check>, undefined, { name: string }>(app, {
    method: 'POST',
    url: '/pipelines/:name/clock/advance',
    summary: 'Move an HTTP-driven pipeline clock (dev_tweaks.now_http_driven) and take the step with it',
    body: advanceBody,
    handler: async (req, _reply, input) => {
      const host = deployed(manager, req.params.name); // a pipeline not deployed is answered before its body is read
      const nowMs = await host.advanceClock(input.body.delta_ms ?? null);
      return { now_ms: nowMs, now: new Date(nowMs).toISOString() };
    },
  });
}
