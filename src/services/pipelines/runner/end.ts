/**
 * Ending a long-lived response (a watch stream, a followed log): the body completes normally, and a
 * client that does not take what is still queued for it within the drain time has its connection
 * destroyed, so a reader that stopped reading cannot hold the connection (and the queued output)
 * after its stream ended.
 */
import type { Writable } from 'node:stream';

/** How long a client may take to read what was queued when its stream ended. */
export const END_DRAIN_MS = 2000;

export function endResponse(res: Writable, stillQueued: boolean, drainMs = END_DRAIN_MS): void {
  res.end();
  if (!stillQueued || res.destroyed) return;
  const timer = setTimeout(() => res.destroy(), drainMs);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
