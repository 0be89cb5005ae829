/**
 * `ops serve --demo`: fill a running server with demo content through the three clients (src/clients), as a
 * user's script would, so that a new user sees each service do something at once: bookmarks in lists and
 * tags, a running pipeline fed by a connector from a file shipped in the package, and a webhook registration
 * pointed at `ops hook serve`. A token for the demo, when the server did not hand one out, comes through the
 * admin route (admin-call.ts). Seeding is idempotent: what is already there is left alone.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HttpClient } from '../../core/http.js';
import { packageFile } from '../../core/package-root.js';
import { BookmarkClient } from '../../clients/bookmarks.js';
import { PipelinesClient, compileFailed, isCompiling, type Pipeline } from '../../clients/pipelines.js';
import { NotifyClient } from '../../clients/notify.js';
import type { LocalCredentials } from '../../services/types.js';
import type { TokenInfo, UserInfo } from '../../services/bookmarks/admin.js';
import { callAdmin } from './admin-call.js';

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

const asset = (name: string) => packageFile('assets', 'demo', name);

/** A client's HTTP to the local server: no proxy (the server is on this machine), the secret as a bearer. */
function localHttp(baseUrl: string, serviceName: string, secret: string | undefined): HttpClient {
  return new HttpClient({ baseUrl, serviceName, authorization: secret ? `Bearer ${secret}` : undefined, env: {} });
}

/** A bookmark token for the demo: the one handed out on first start, else a new one for the first user (through the admin route). */
async function bookmarkToken(dataDir: string, credentials: LocalCredentials): Promise<string> {
  if (credentials.bmToken) return credentials.bmToken;
  const [first] = await callAdmin<UserInfo[]>(dataDir, 'bookmarks', 'user.list');
  if (!first) throw new Error('the bookmark service has no user to own the demo content');
  return (await callAdmin<{ token: string; info: TokenInfo }>(dataDir, 'bookmarks', 'token.create', { user: String(first.id), name: 'demo' })).token;
}

export async function seedBookmarks(bookmarks: BookmarkClient): Promise<DemoSummary['bookmarks']> {
  const existing = await bookmarks.page('/api/v2/links', { per_page: 1 });
  if (existing.total > 0 || existing.items.length > 0) return { created: 0, skipped: true };
  const demo = JSON.parse(readFileSync(asset('bookmarks.json'), 'utf8')) as DemoBookmarks;
  const listIds = new Map<string, number>();
  for (const list of demo.lists) listIds.set(list.name, (await bookmarks.createCollection('lists', { ...list, visibility: 1 })).id);
  let created = 0;
  for (const link of demo.links) {
    const lists = (link.lists ?? []).map((name) => listIds.get(name)).filter((id) => id !== undefined);
    await bookmarks.createLink({ ...link, visibility: link.visibility ?? 2, lists, tags: link.tags ?? [] });
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

export async function seedPipeline(pipelines: PipelinesClient, connectorRoot?: string): Promise<DemoSummary['pipeline']> {
  if (!(await pipelines.find(DEMO_PIPELINE))) {
    await pipelines.put({
      name: DEMO_PIPELINE,
      description: 'ops serve --demo: orders from assets/demo/orders.json, revenue per product, top customers',
      workers: 1,
      programCode: demoProgram(connectorRoot),
    });
  }
  const compiled = await waitFor(
    'the demo pipeline to compile',
    () => pipelines.get(DEMO_PIPELINE),
    (p) => !isCompiling(p.program.status),
  );
  if (compiled.program.status !== 'Success') return { name: DEMO_PIPELINE, status: 'compile failed', error: compileProblem(compiled) };
  if (compiled.deployment.status !== 'Running') {
    await pipelines.action(DEMO_PIPELINE, 'start');
    const started = await waitFor(
      'the demo pipeline to run',
      () => pipelines.get(DEMO_PIPELINE),
      (p) => p.deployment.status === 'Running' || p.deployment.error !== null,
    );
    if (started.deployment.status !== 'Running') return { name: DEMO_PIPELINE, status: 'start failed', error: JSON.stringify(started.deployment.error) };
  }
  return { name: DEMO_PIPELINE, status: 'Running' };
}

function compileProblem(p: Pipeline): string {
  if (!compileFailed(p.program.status)) return p.program.status;
  return JSON.stringify(p.program.messages.length ? p.program.messages : (p.program.errorText ?? p.program.status));
}

export async function seedWebhook(notify: NotifyClient): Promise<DemoSummary['webhook']> {
  const existing = (await notify.listWebhooks()).find((w) => w.description === DEMO_WEBHOOK_DESCRIPTION);
  if (existing) return { id: existing.id, url: existing.url, secret: await notify.webhookSecret(existing.id), skipped: true };
  const created = await notify.createWebhook({ url: DEMO_RECEIVER_URL, events: ['*'], description: DEMO_WEBHOOK_DESCRIPTION });
  return { id: created.id, url: DEMO_RECEIVER_URL, secret: created.secret, skipped: false };
}

/** Seed all three services through their clients, as a user's script would; a failure in one is reported and does not stop the others. */
export async function seedDemo(
  baseUrl: string,
  dataDir: string,
  credentials: LocalCredentials,
  notifyApiKey: string | undefined,
  pipeApiKey: string | undefined,
  connectorRoot: string = join(dataDir, 'files'),
): Promise<DemoSummary> {
  const failed = (err: unknown) => (err as Error).message;
  const bookmarks = await bookmarkToken(dataDir, credentials)
    .then((token) => seedBookmarks(new BookmarkClient(localHttp(baseUrl, 'bookmark service', token))))
    .catch((err) => ({ created: 0, skipped: false, error: failed(err) }));
  const pipeline = await seedPipeline(new PipelinesClient(localHttp(baseUrl, 'pipeline service', pipeApiKey)), connectorRoot).catch((err) => ({
    name: DEMO_PIPELINE,
    status: 'failed',
    error: failed(err),
  }));
  const webhook = await seedWebhook(new NotifyClient(localHttp(`${baseUrl}/notify`, 'notification service', notifyApiKey))).catch((err) => ({
    url: DEMO_RECEIVER_URL,
    skipped: false,
    error: failed(err),
  }));
  return { bookmarks, pipeline, webhook };
}
