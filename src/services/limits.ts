/**
 * Request body limits shared by the services of `ops serve`: how many bytes a body may have and how
 * deep a JSON body may nest. The depth is measured by one linear scan of the text before JSON.parse
 * (no recursion, so a body of a million `[` cannot blow the stack or the parser); each service turns
 * a `BodyLimitError` into its own error shape.
 *
 * Rules: the limits are documented in docs/bookmarks.md ("Request limits"), docs/pipelines.md and
 * docs/notifications.md; a change here changes them there too.
 */

const MiB = 1024 * 1024;

/** The deepest nesting of arrays and objects a JSON body may have (LinkAce, Feldera and webhook bodies need < 10). */
export const MAX_JSON_DEPTH = 64;

/** Body size limits in bytes, per service and kind of body. */
export const BODY_LIMITS = {
  /** bookmarks: JSON and form bodies of single-item routes */
  bookmarksJson: 8 * MiB,
  /** bookmarks: the bulk routes (1,000 models with 20,000-character descriptions fit) */
  bookmarksBulk: 32 * MiB,
  /** bookmarks: an uploaded Netscape bookmark file (multipart) */
  bookmarksImport: 50 * MiB,
  /** pipelines: JSON bodies of the API (pipeline definitions, programs, actions); ingress has its own */
  pipelinesJson: 16 * MiB,
  /** notifications: JSON bodies (trigger payloads, endpoints) */
  notificationsJson: 1 * MiB,
} as const;

/**
 * How many of each thing one server holds (docs/security.md, "Caps"). Every key of a service shares one
 * set of webhooks and one set of pipelines (any key may list and change them all), so the caps are per
 * service: a cap per key would not bound the whole. Settable: `ops serve --max-webhooks`,
 * `--max-pipelines`, `--max-connections`.
 */
export const DEFAULT_CAPS = {
  /** webhook registrations of the notification service; past it 403 `limit_reached` */
  webhooks: 1_000,
  /** pipelines of the pipeline service; past it 403 `PipelineLimitReached` */
  pipelines: 100,
  /** open connections of the whole server; past it a 503 written on the new connection, which is closed */
  connections: 1_000,
} as const;

/** A cap from the server's options: a positive whole number, else the default. */
export function capOf(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** A body refused before it was used: too deep, not JSON, or too large. */
export class BodyLimitError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: 'json_too_deep' | 'invalid_json' | 'body_too_large',
    message: string,
    /** invalid_json: the JSON parser's own words (a service that answers in its words quotes them). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** What one scan of a JSON text tells before it is parsed. */
export interface JsonShape {
  /** nests deeper than the limit (the scan stopped there) */
  tooDeep: boolean;
  /** item counts of the arrays that are direct values of a top-level object, by key ({"models": [...]}) */
  topLevelArrays: Map<string, number>;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * One linear pass over a JSON text, constant stack: its depth (stopping as soon as it passes `limit`)
 * and the lengths of the top-level object's arrays, so that a route can refuse 9,000,000 items
 * without building them. Strings are skipped, escapes included. Malformed text is left to JSON.parse.
 */
export function scanJson(text: string, limit: number): JsonShape {
  const topLevelArrays = new Map<string, number>();
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  let lastKey: [number, number] | null = null;
  let topIsObject = false;
  let arrayKey: [number, number] | null = null;
  let items = 0;
  let sawValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) {
        inString = false;
        if (depth === 1) lastKey = [stringStart, i + 1];
      }
      continue;
    }
    if (isSpace(c)) continue;
    if (depth === 2 && arrayKey) {
      if (c === 0x2c /* , */) items++;
      else if (c !== 0x5d /* ] */) sawValue = true;
    }
    if (c === 0x22) {
      inString = true;
      stringStart = i;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (depth === 0) topIsObject = c === 0x7b;
      else if (depth === 1 && c === 0x5b && topIsObject && lastKey) {
        arrayKey = lastKey;
        items = 0;
        sawValue = false;
      }
      if (++depth > limit) return { tooDeep: true, topLevelArrays };
    } else if (c === 0x5d || c === 0x7d /* } */) {
      if (depth === 2 && arrayKey && c === 0x5d) {
        let key: string;
        try {
          key = JSON.parse(text.slice(arrayKey[0], arrayKey[1])) as string;
        } catch {
          key = text.slice(arrayKey[0] + 1, arrayKey[1] - 1);
        }
        topLevelArrays.set(key, sawValue ? items + 1 : 0);
        arrayKey = null;
      }
      depth--;
    }
  }
  return { tooDeep: false, topLevelArrays };
}

/** True when a JSON text nests arrays and objects deeper than `limit` (see scanJson). */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  return scanJson(text, limit).tooDeep;
}

/**
 * Parses a JSON body after checking its depth (BodyLimitError 400 when too deep or not JSON); `check`
 * sees the shape first and may throw to refuse the body before it is parsed.
 */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH, check?: (shape: JsonShape) => void): unknown {
  const shape = scanJson(text, maxDepth);
  if (shape.tooDeep) throw new BodyLimitError(400, 'json_too_deep', `The JSON body nests deeper than ${maxDepth} levels of arrays and objects.`);
  check?.(shape);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BodyLimitError(400, 'invalid_json', `Malformed JSON body: ${(e as Error).message}`, (e as Error).message);
  }
}

/** The message of a body over its size limit. */
export function tooLargeMessage(limit: number): string {
  return `The request body is larger than ${limit >= MiB ? `${limit / MiB} MiB` : `${Math.round(limit / 1024)} KiB`}.`;
}
