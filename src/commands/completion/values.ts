/**
 * `ops completion __values KIND [PIPELINE]`: names the completion scripts offer, one per line.
 * Never prints an error and always exits 0: a completion must not spill messages into the terminal.
 *
 * - profiles: see profiles.ts (read from the files, without this module's imports);
 * - pipelines: `GET /v0/pipelines` on the pipeline service, 1 s timeout;
 * - relations: the tables and views of one pipeline (`GET /v0/pipelines/NAME`), 1 s timeout;
 * - tags: the tag names of the bookmark service (`GET /api/v2/tags`, every page in one), 1 s timeout;
 * - events: the event types of the notification service (`GET /v1/event-types`), 1 s timeout.
 */
import type { Context } from '../../context.js';
import { HttpClient } from '../../core/http.js';

/** How long a completion may wait for the pipeline service. */
export const REMOTE_TIMEOUT_MS = 1000;

interface NamedRelation {
  name?: unknown;
}

/** A client of one service that waits at most REMOTE_TIMEOUT_MS and never waits out a rate limit. */
function quickClient(ctx: Context, urlKey: string, secretKey: string, serviceName: string): HttpClient {
  const url = ctx.setting(urlKey).value!;
  const key = ctx.setting(secretKey).value;
  return new HttpClient({
    baseUrl: url,
    authorization: key ? `Bearer ${key}` : undefined,
    serviceName,
    timeoutMs: REMOTE_TIMEOUT_MS,
    maxRateLimitRetries: 0,
    env: ctx.env,
  });
}

const pipelineClient = (ctx: Context) => quickClient(ctx, 'pipe.url', 'pipe.api-key', 'pipeline service');
const quickly = {
  timeoutMs: REMOTE_TIMEOUT_MS,
  get signal() {
    return AbortSignal.timeout(REMOTE_TIMEOUT_MS);
  },
};

/** The bookmark service's tag names (the caller's own and the visible ones of others). */
export async function tagNames(ctx: Context): Promise<string[]> {
  const res = await quickClient(ctx, 'bm.url', 'bm.token', 'bookmark service').request<{ data?: { name?: unknown }[] }>('GET', '/api/v2/tags', { query: { per_page: -1 }, ...quickly });
  const names = (res.data?.data ?? []).map((t) => t.name).filter((n): n is string => typeof n === 'string');
  return [...new Set(names)].sort();
}

/** The notification service's event types. */
export async function eventTypes(ctx: Context): Promise<string[]> {
  const res = await quickClient(ctx, 'notify.url', 'notify.api-key', 'notification service').request<{ data?: { type?: unknown }[] }>('GET', '/v1/event-types', quickly);
  return (res.data?.data ?? []).map((t) => t.type).filter((n): n is string => typeof n === 'string');
}

function nameOf(item: unknown): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as { name?: unknown; descriptor?: { name?: unknown } };
  if (typeof o.name === 'string') return o.name;
  if (o.descriptor && typeof o.descriptor.name === 'string') return o.descriptor.name;
  return undefined;
}

export async function pipelineNames(ctx: Context): Promise<string[]> {
  const res = await pipelineClient(ctx).request<unknown>('GET', '/v0/pipelines', { query: { code: false }, timeoutMs: REMOTE_TIMEOUT_MS, signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
  const list = Array.isArray(res.data) ? res.data : [];
  return list
    .map(nameOf)
    .filter((n): n is string => Boolean(n))
    .sort();
}

export async function relationNames(ctx: Context, pipeline: string): Promise<string[]> {
  const res = await pipelineClient(ctx).request<unknown>('GET', `/v0/pipelines/${encodeURIComponent(pipeline)}`, { timeoutMs: REMOTE_TIMEOUT_MS, signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
  const data = res.data as { program_info?: { schema?: { inputs?: NamedRelation[]; outputs?: NamedRelation[] } } | null };
  const schema = data?.program_info?.schema;
  const names = [...(schema?.inputs ?? []), ...(schema?.outputs ?? [])].map((r) => r.name).filter((n): n is string => typeof n === 'string');
  return [...new Set(names)];
}

/** The names for `kind` (pipelines, relations, tags, events), or nothing when they cannot be had quickly. */
export async function remoteValues(ctx: Context, kind: string, rest: string[]): Promise<string[]> {
  try {
    if (kind === 'pipelines') return await pipelineNames(ctx);
    if (kind === 'relations' && rest[0]) return await relationNames(ctx, rest[0]);
    if (kind === 'tags') return await tagNames(ctx);
    if (kind === 'events') return await eventTypes(ctx);
  } catch {
    // unreachable service, bad profile, timeout: offer nothing
  }
  return [];
}
