/**
 * Client of the admin route of a running `ops serve` (`POST /admin/<service>/<action>`, see
 * services/admin-route.ts): the secret goes in `Authorization: Bearer` (set on the HttpClient), the
 * answer's `result` is returned. Errors are the HttpClient's (ApiError with the body, NetworkError).
 */
import type { HttpClient } from '../core/http.js';

export class ServeAdminClient {
  constructor(private readonly http: HttpClient) {}

  /** Runs one action; never retried (actions like `user.add` are not idempotent). */
  async call<T = unknown>(service: string, action: string, args: Record<string, unknown>): Promise<T> {
    const body = await this.http.json<{ result: T }>('POST', `/admin/${encodeURIComponent(service)}/${encodeURIComponent(action)}`, { body: args, idempotent: false });
    return body.result;
  }
}
