/**
 * Ingress limits (documented in docs/pipelines.md, "Limits"): the largest request body, refused as a
 * whole with 413 (nothing applied), and the deepest JSON nesting, a parse error (400) naming the limit.
 */
import { FelderaError } from './errors.js';

/** Largest ingress request body by default: 256 MiB. */
export const DEFAULT_INGRESS_BODY_LIMIT = 256 * 1024 * 1024;

/** Deepest nesting of arrays and objects in one JSON input value (the update wrapper counts). */
export const MAX_JSON_DEPTH = 64;

export function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

export function bodyTooLarge(limit: number): FelderaError {
  return new FelderaError(
    413,
    'PayloadTooLarge',
    `The request body is larger than the ingress limit of ${formatBytes(limit)} (${limit} bytes); nothing from this request was applied. Split the input into smaller requests.`,
    { limit_bytes: limit },
  );
}
