/**
 * Does a service answer, and does it accept our credential? One cheap authenticated read per service,
 * chosen to work against the real services too (LinkAce, Feldera) and against `ops serve`.
 */
import type { HttpClient } from '../core/http.js';
import { ApiError } from '../core/errors.js';

export type ProbeService = 'bm' | 'pipe' | 'notify';

const PROBE_PATH: Record<ProbeService, { path: string; query?: Record<string, string> }> = {
  bm: { path: '/api/v2/links', query: { per_page: '1' } },
  pipe: { path: '/v0/pipelines' },
  notify: { path: '/v1/webhooks' },
};

export interface ProbeResult {
  reachable: boolean;
  authenticated: boolean;
  status?: number;
  error?: string;
}

export async function probe(service: ProbeService, http: HttpClient): Promise<ProbeResult> {
  const { path, query } = PROBE_PATH[service];
  try {
    const res = await http.request('GET', path, { query, timeoutMs: 5_000 });
    return { reachable: true, authenticated: true, status: res.status };
  } catch (err) {
    if (err instanceof ApiError) {
      const authFailed = err.status === 401 || err.status === 403;
      return { reachable: true, authenticated: !authFailed, status: err.status, error: err.message };
    }
    return { reachable: false, authenticated: false, error: (err as Error).message };
  }
}
