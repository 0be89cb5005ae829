/** Shared fixtures for the bookmark service tests: an app hosted as `ops serve` does, users and tokens. */
import service from '../../../src/services/bookmarks/index.js';
import { addUser, createApiToken } from '../../helpers/admin.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import type { ServeOptions } from '../../../src/services/types.js';
import type { DomainEvent } from '../../../src/services/events.js';

export interface Res {
  status: number;
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface Fixture {
  sa: ServiceApp;
  /** token of user A (the admin created on first start) */
  A: string;
  /** token of user B */
  B: string;
  /** system token without / with private access */
  S: string;
  SP: string;
  events: DomainEvent[];
  req(token: string | null, method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Res>;
  close(): Promise<void>;
}

export async function setup(options: Partial<ServeOptions> = {}): Promise<Fixture> {
  const sa = await buildServiceApp(service, { fetchMetadata: false, linkCheck: false, apiRateLimit: '100000', ...options });
  const events: DomainEvent[] = [];
  sa.events.subscribe((e) => events.push(e));
  const creds = await sa.handle.localCredentials!();
  const A = creds.bmToken!;
  const B = addUser(sa.dataDir, { name: 'bob', email: 'bob@example.com' }).token;
  const S = createApiToken(sa.dataDir, { system: true, name: 'sys' }).token;
  const SP = createApiToken(sa.dataDir, { system: true, name: 'sysp', privateAccess: true }).token;
  async function req(token: string | null, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
    const h: Record<string, string> = { accept: 'application/json', ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const r = await sa.app.inject({ method: method as 'GET', url, headers: h, payload });
    let parsed: unknown;
    try {
      parsed = r.body ? JSON.parse(r.body) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: r.statusCode, body: parsed, headers: r.headers as Res['headers'], text: r.body };
  }
  return { sa, A, B, S, SP, events, req, close: () => sa.close() };
}
