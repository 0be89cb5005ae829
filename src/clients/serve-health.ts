/**
 * Client of `GET /health` of `ops serve`: the overall status and each service's, as the server reports them
 * (200 when none is down, 503 with the same body when one is). Never throws for a 503; a server that does not
 * answer (refused, timed out) is a NetworkError, any other answer an ApiError.
 */
import { ApiError } from '../core/errors.js';
import type { HttpClient } from '../core/http.js';

export type ServiceStatus = 'ok' | 'degraded' | 'down';

export interface ServeHealth {
  status: ServiceStatus;
  services: Record<string, { status: ServiceStatus; [k: string]: unknown }>;
}

const isHealth = (v: unknown): v is ServeHealth => typeof v === 'object' && v !== null && typeof (v as ServeHealth).status === 'string' && typeof (v as ServeHealth).services === 'object';

export async function serveHealth(http: HttpClient, timeoutMs = 5_000): Promise<ServeHealth> {
  try {
    const res = await http.request<unknown>('GET', '/health', { timeoutMs });
    if (isHealth(res.data)) return res.data;
    throw new ApiError('the server answered /health with something else than a health report', res.status, res.data);
  } catch (err) {
    if (err instanceof ApiError && err.status === 503 && isHealth(err.body)) return err.body;
    throw err;
  }
}
