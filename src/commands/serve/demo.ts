/**
 * `ops serve --demo`: fill a running server with demo content through its own public APIs, so that a new
 * user sees each service do something at once: bookmarks in lists and tags, a running pipeline fed by a
 * connector from a file shipped in the package, and a webhook registration pointed at `ops hook serve`.
 * Seeding is idempotent: what is already there is left alone.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApiToken, listUsers } from '../../services/bookmarks/admin.js';
import type { LocalCredentials } from '../../services/types.js';

export const DEMO_PIPELINE = 'shop';
export const DEMO_RECEIVER_URL = 'http://127.0.0.1:8701/';
const DEMO_WEBHOOK_DESCRIPTION = 'ops serve --demo: run `ops hook serve` to receive these';

export interface DemoSummary {
  bookmarks: { created: number; skipped: boolean };
  pipeline: { name: string; status: string; error?: string };
  webhook: { id?: string; url: string; secret?: string; skipped: boolean; error?: string };
}

interface DemoBookmarks {
  lists: { name: string; description: string }[];
  links: { url: string; title: string; description: string; lists?: string[]; tags?: string[]; visibility?: number }[];
}

const asset = (name: string) => fileURLToPath(new URL(`../../../assets/demo/${name}`, import.meta.url));

async function call<T>(method: string, url: string, token: string | undefined, body?: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(url, {
    method,
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  return { status: res.status, data: data as T };
}

function ensure<T>(res: { status: number; data: T }, what: string): T {
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.data).slice(0, 300)}`);
  return res.data;
}

/** A bookmark token for the demo: the one handed out on first start, else a new one for the first user. */
function bookmarkToken(dataDir: string, credentials: LocalCredentials): string {
  if (credentials.bmToken) return credentials.bmToken;
  const [first] = listUsers(dataDir);
  if (!first) throw new Error('the bookmark service has no user to own the demo content');
  return createApiToken(dataDir, { user: first.id, name: 'demo' }).token;
}

export async function seedBookmarks(baseUrl: string, token: string): Promise<DemoSummary['bookmarks']> {
  const existing = ensure(await call<{ meta?: { total?: number }; total?: number }>('GET', `${baseUrl}/api/v2/links?per_page=1`, token), 'list links');
  if ((existing.meta?.total ?? existing.total ?? 0) > 0) return { created: 0, skipped: true };
  const demo = JSON.parse(readFileSync(asset('bookmarks.json'), 'utf8')) as DemoBookmarks;
  const listIds = new Map<string, number>();
  for (const list of demo.lists) {
    const created = ensure(await call<{ id: number }>('POST', `${baseUrl}/api/v2/lists`, token, { ...list, visibility: 1 }), `create list ${list.name}`);
    listIds.set(list.name, created.id);
  }
  let created = 0;
  for (const link of demo.links) {
    const body = { ...link, visibility: link.visibility ?? 2, lists: (link.lists ?? []).map((name) => listIds.get(name)).filter((id) => id !== undefined), tags: link.tags ?? [] };
    ensure(await call('POST', `${baseUrl}/api/v2/links`, token, body), `create link ${link.url}`);
    created++;
  }
  return { created, skipped: false };
}

/** Where the demo's orders are put under the connector root (file connectors reach only files there). */
export const DEMO_ORDERS_FILE = 'demo/orders.json';

/** Copies the shipped orders under the connector root (once) and answers the program reading them. */
export function demoProgram(connectorRoot?: string): string {
  let ordersPath = pathToFileURL(asset('orders.json')).toString();
  if (connectorRoot) {
    const target = join(connectorRoot, DEMO_ORDERS_FILE);
    if (!existsSync(target)) {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      copyFileSync(asset('orders.json'), target);
    }
    ordersPath = DEMO_ORDERS_FILE;
  }
  return readFileSync(asset('shop.sql'), 'utf8').replace('{{ORDERS_URL}}', ordersPath);
}

async function waitFor<T>(what: string, poll: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await poll();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface PipelineState {
  program_status: unknown;
  deployment_status: string;
  deployment_error?: unknown;
}

export async function seedPipeline(baseUrl: string, apiKey: string | undefined, connectorRoot?: string): Promise<DemoSummary['pipeline']> {
  const url = `${baseUrl}/v0/pipelines/${DEMO_PIPELINE}`;
  const current = await call<PipelineState>('GET', url, apiKey);
  if (current.status === 404) {
    ensure(
      await call('PUT', url, apiKey, {
        name: DEMO_PIPELINE,
        description: 'ops serve --demo: orders from assets/demo/orders.json, revenue per product, top customers',
        runtime_config: { workers: 1 },
        program_config: {},
        program_code: demoProgram(connectorRoot),
      }),
      'create the demo pipeline',
    );
  }
  const compiled = await waitFor(
    'the demo pipeline to compile',
    async () => ensure(await call<PipelineState>('GET', url, apiKey), 'read the demo pipeline'),
    (p) => p.program_status === 'Success' || (typeof p.program_status === 'object' && p.program_status !== null),
  );
  if (compiled.program_status !== 'Success') return { name: DEMO_PIPELINE, status: 'compile failed', error: JSON.stringify(compiled.program_status) };
  if (compiled.deployment_status !== 'Running') {
    ensure(await call('POST', `${url}/start`, apiKey), 'start the demo pipeline');
    const started = await waitFor(
      'the demo pipeline to run',
      async () => ensure(await call<PipelineState>('GET', url, apiKey), 'read the demo pipeline'),
      (p) => p.deployment_status === 'Running' || Boolean(p.deployment_error),
    );
    if (started.deployment_status !== 'Running') return { name: DEMO_PIPELINE, status: 'start failed', error: JSON.stringify(started.deployment_error) };
  }
  return { name: DEMO_PIPELINE, status: 'Running' };
}

export async function seedWebhook(notifyBase: string, apiKey: string | undefined): Promise<DemoSummary['webhook']> {
  const list = ensure(await call<{ data: { id: string; description?: string; url: string }[] }>('GET', `${notifyBase}/v1/webhooks`, apiKey), 'list webhooks');
  const existing = list.data.find((w) => w.description === DEMO_WEBHOOK_DESCRIPTION);
  if (existing) {
    const { secret } = ensure(await call<{ secret: string }>('GET', `${notifyBase}/v1/webhooks/${existing.id}/secret`, apiKey), 'read the demo webhook secret');
    return { id: existing.id, url: existing.url, secret, skipped: true };
  }
  const created = ensure(
    await call<{ id: string; secret: string }>('POST', `${notifyBase}/v1/webhooks`, apiKey, { url: DEMO_RECEIVER_URL, events: ['*'], description: DEMO_WEBHOOK_DESCRIPTION }),
    'register the demo webhook',
  );
  return { id: created.id, url: DEMO_RECEIVER_URL, secret: created.secret, skipped: false };
}

/** Seed all three services; a failure in one is reported and does not stop the others. */
export async function seedDemo(
  baseUrl: string,
  dataDir: string,
  credentials: LocalCredentials,
  notifyApiKey: string | undefined,
  pipeApiKey: string | undefined,
  connectorRoot: string = join(dataDir, 'files'),
): Promise<DemoSummary> {
  const failed = (err: unknown) => (err as Error).message;
  const bookmarks = await seedBookmarks(baseUrl, bookmarkToken(dataDir, credentials)).catch((err) => ({ created: 0, skipped: false, error: failed(err) }));
  const pipeline = await seedPipeline(baseUrl, pipeApiKey, connectorRoot).catch((err) => ({ name: DEMO_PIPELINE, status: 'failed', error: failed(err) }));
  const webhook = await seedWebhook(`${baseUrl}/notify`, notifyApiKey).catch((err) => ({ url: DEMO_RECEIVER_URL, skipped: false, error: failed(err) }));
  return { bookmarks, pipeline, webhook };
}
