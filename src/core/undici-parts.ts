/**
 * The parts of undici that a request of the CLI needs, loaded by their paths in the package: its Agent and its
 * request API. `import { Agent, request } from 'undici'` also loads what undici's index loads for everyone (fetch,
 * WebSocket, EventSource, caches, mocks, interceptors: most of its ~50 modules), 260 ms of CPU against 50 ms on
 * this machine, paid by every command. These are the very objects the index exports (test/core/undici-parts.test.ts
 * holds them to be, so an undici that moves them fails a test, not a user).
 *
 * Contract: `requestWith(dispatcher, url, options)` is undici's `request(url, { ...options, dispatcher })`. A proxy
 * (EnvHttpProxyAgent) needs the whole of undici (its tunnel uses the `connect` API the index adds to every
 * dispatcher): core/http.ts loads the index for it, only when a proxy is set. In the bundle this module is a
 * CommonJS file run with V8's code cache (core/code-cache.ts, scripts/bundle-cli.mjs): it imports nothing else.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

export { Agent };

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, { ...options, dispatcher })`, through the given dispatcher. */
export function requestWith(dispatcher: Dispatcher, url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const target = new URL(url);
  return apiRequest.call(dispatcher, { ...options, origin: target.origin, path: target.pathname + target.search });
}
