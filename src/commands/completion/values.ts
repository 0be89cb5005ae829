/**
 * `ops completion __values KIND [PIPELINE]`: names the completion scripts offer, one per line.
 * Never prints an error and always exits 0: a completion must not spill messages into the terminal.
 *
 * - profiles: see profiles.ts (read from the files, without this module's imports);
 * - pipelines: `GET /v0/pipelines` on the pipeline service, 1 s timeout;
 * - relations: the tables and views of one pipeline (`GET /v0/pipelines/NAME`), 1 s timeout.
 */
import type { Context } from '../../context.js';
import { HttpClient } from '../../core/http.js';

/** How long a completion may wait for the pipeline service. */
export const REMOTE_TIMEOUT_MS = 1000;

interface NamedRelation {
  name?: unknown;
}

function pipelineClient(ctx: Context): HttpClient {
  const url = ctx.setting('pipe.url').value!;
  const key = ctx.setting('pipe.api-key').value;
  return new HttpClient({
    baseUrl: url,
    authorization: key ? `Bearer ${key}` : undefined,
    serviceName: 'pipeline service',
    timeoutMs: REMOTE_TIMEOUT_MS,
    maxRateLimitRetries: 0,
    env: ctx.env,
  });
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

/** The names for `kind` (pipelines, relations), or nothing when they cannot be had quickly. */
export async function remoteValues(ctx: Context, kind: string, rest: string[]): Promise<string[]> {
  try {
    if (kind === 'pipelines') return await pipelineNames(ctx);
    if (kind === 'relations' && rest[0]) return await relationNames(ctx, rest[0]);
  } catch {
    // unreachable service, bad profile, timeout: offer nothing
  }
  return [];
}
