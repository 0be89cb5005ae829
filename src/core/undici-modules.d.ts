// Types of the two undici modules that core/undici-parts.ts imports by path (undici ships types for its index only).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Called with a dispatcher as `this`, as undici's index does; no callback: a promise. */
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}
