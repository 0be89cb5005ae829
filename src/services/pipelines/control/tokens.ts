/**
 * Completion tokens (today's Feldera): a token names a position in one input endpoint's stream (HTTP
 * ingress into a table, or a declared input connector) in one incarnation of a running pipeline. It is
 * complete once every record up to that position has been applied; its `step` is then the step that
 * applied the last of them, comparable with the stats' `global_metrics.total_completed_steps`.
 *
 * Rules:
 * - The wire format is Feldera's: URL-safe base64 without padding of `{"u": incarnation uuid, "e":
 *   endpoint id, "c": records}`. Decoding checks every field; a bad token is an error with a reason.
 * - Every start of a pipeline is a new incarnation (a new TokenBook): tokens of an earlier one are refused.
 * - Endpoint ids are given in the order endpoints are first seen; they are never reused in an incarnation.
 * - Memory is bounded: each endpoint keeps about `maxLabels` (position, step) labels (the oldest are dropped
 *   a quarter at a time, so that dropping costs little per label); a token older than every kept label
 *   answers with the oldest kept step (a later step, still complete: Feldera's token list gives the same
 *   answer once it has collected its completed tokens).
 */
import { randomUUID } from 'node:crypto';

export interface CompletionToken {
  /** The pipeline incarnation that issued it. */
  incarnation: string;
  /** The input endpoint, by its id in that incarnation. */
  endpoint: number;
  /** The endpoint's records up to the token's position. */
  count: number;
}

/** Labels kept per endpoint by default (16 bytes each). */
const MAX_LABELS = 100_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeToken(t: CompletionToken): string {
  return Buffer.from(JSON.stringify({ u: t.incarnation, e: t.endpoint, c: t.count }), 'utf8').toString('base64url');
}

/** The token, or throws an Error whose message says why it cannot be read. */
export function decodeToken(text: string): CompletionToken {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('completion token is not a valid base64 string');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (err) {
    // the decoded bytes are not echoed: they are whatever the caller sent (control characters included)
    throw new Error('error parsing completion token: its content is not JSON', { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('error parsing completion token: expected a JSON object');
  const { u, e, c } = value as Record<string, unknown>;
  if (typeof u !== 'string' || !UUID.test(u)) throw new Error("error parsing completion token: field 'u' must be a UUID");
  if (!isCount(e)) throw new Error("error parsing completion token: field 'e' must be a non-negative integer");
  if (!isCount(c)) throw new Error("error parsing completion token: field 'c' must be a non-negative integer");
  return { incarnation: u.toLowerCase(), endpoint: e, count: c };
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

export type TokenStatus = { ok: true; step: number | null } | { ok: false; reason: 'restarted' | 'unknown-endpoint' };

/** The tokens of one incarnation: endpoint ids and, per endpoint, which step applied which position. */
export class TokenBook {
  private readonly ids = new Map<string, number>();
  /** Per endpoint id: positions (records) ascending, and the step that completed each. */
  private readonly labels = new Map<number, { positions: number[]; steps: number[] }>();

  /** `incarnation`: the pipeline run's uuid (stats' incarnation_uuid). */
  constructor(
    readonly incarnation: string = randomUUID(),
    private readonly maxLabels = MAX_LABELS,
  ) {}

  /** The endpoint's id, given on first sight. */
  endpointId(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(name, id);
      this.labels.set(id, { positions: [], steps: [] });
    }
    return id;
  }

  has(name: string): boolean {
    return this.ids.has(name);
  }

  /** A token for the endpoint's position `count`. */
  token(name: string, count: number): string {
    return encodeToken({ incarnation: this.incarnation, endpoint: this.endpointId(name), count });
  }

  /** The endpoint's records up to `count` have all been applied by step `step` (counts only grow). */
  complete(name: string, count: number, step: number): void {
    const l = this.labels.get(this.endpointId(name))!;
    const last = l.positions.length - 1;
    if (last >= 0 && l.positions[last] >= count) return; // that position already has its step
    l.positions.push(count);
    l.steps.push(step);
    if (l.positions.length > this.maxLabels + Math.max(1, this.maxLabels >> 2)) {
      const drop = l.positions.length - this.maxLabels;
      l.positions.splice(0, drop);
      l.steps.splice(0, drop);
    }
  }

  /** The step that completed the token (null: not yet), or why it is not one of this incarnation's. */
  status(t: CompletionToken): TokenStatus {
    if (t.incarnation !== this.incarnation) return { ok: false, reason: 'restarted' };
    const l = this.labels.get(t.endpoint);
    if (!l) return { ok: false, reason: 'unknown-endpoint' };
    // the first label at or after the token's position
    let lo = 0;
    let hi = l.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (l.positions[mid] < t.count) lo = mid + 1;
      else hi = mid;
    }
    return { ok: true, step: lo < l.positions.length ? l.steps[lo] : null };
  }
}
