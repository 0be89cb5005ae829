/**
 * Creating many links (bulk add, import): bulk requests of up to 100 where the server has the bulk API,
 * one request per link otherwise. A bulk request refused for some items (422 `models.N.field`) is retried
 * without them, so one bad item never sinks the others. Results are per item, in input order.
 */
import type { BookmarkClient, Link, LinkInput } from '../../clients/bookmarks.js';
import { ApiError } from '../../core/errors.js';
import { mapLimit } from './shared.js';

export interface CreateOutcome {
  ok: boolean;
  id?: number;
  error?: string;
}

export const BULK_SIZE = 100;

function isMissingRoute(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}

/** `models.3.url: [...]` -> {3: "url: ..."}. */
function itemErrors(err: ApiError): Map<number, string> {
  const out = new Map<number, string>();
  for (const [field, msgs] of Object.entries(err.fieldErrors)) {
    const m = /^models\.(\d+)(?:\.(.+))?$/.exec(field);
    if (!m) continue;
    const i = Number(m[1]);
    const text = `${m[2] ?? 'item'}: ${msgs.join(' ')}`;
    out.set(i, out.has(i) ? `${out.get(i)}; ${text}` : text);
  }
  return out;
}

export async function createMany(
  client: BookmarkClient,
  kind: 'links' | 'lists' | 'tags',
  models: readonly Record<string, unknown>[],
  opts: { onProgress?: (done: number) => void; concurrency?: number; useBulk?: boolean } = {},
): Promise<CreateOutcome[]> {
  const results: CreateOutcome[] = new Array(models.length);
  let done = 0;
  const tick = (n: number) => {
    done += n;
    opts.onProgress?.(done);
  };
  const single = async (i: number): Promise<void> => {
    try {
      const created = kind === 'links' ? await client.createLink(models[i] as LinkInput) : await client.createCollection(kind, models[i] as { name: string });
      results[i] = { ok: true, id: (created as Link).id };
    } catch (err) {
      results[i] = { ok: false, error: (err as Error).message };
    }
    tick(1);
  };
  let bulk = opts.useBulk !== false;
  for (let start = 0; start < models.length; start += BULK_SIZE) {
    let pending = Array.from({ length: Math.min(BULK_SIZE, models.length - start) }, (_, k) => start + k);
    while (bulk && pending.length > 0) {
      try {
        const created = await client.bulkCreate<{ id?: number }>(
          kind,
          pending.map((i) => models[i]),
        );
        pending.forEach((i, k) => {
          const item = Array.isArray(created) ? created[k] : undefined;
          results[i] = item && typeof item === 'object' ? { ok: true, id: item.id } : { ok: false, error: 'the server did not create this item' };
        });
        tick(pending.length);
        pending = [];
      } catch (err) {
        if (isMissingRoute(err)) {
          bulk = false;
          break;
        }
        if (err instanceof ApiError && err.status === 422) {
          const bad = itemErrors(err);
          if (bad.size === 0) break; // not per item: fall back to one by one for this chunk
          const keep: number[] = [];
          pending.forEach((i, k) => {
            if (bad.has(k)) {
              results[i] = { ok: false, error: bad.get(k) };
              tick(1);
            } else keep.push(i);
          });
          pending = keep;
          continue;
        }
        if (!(err instanceof ApiError) || err.status === 401 || err.status === 403) throw err;
        // Any other failure: the server may have created some of them, so they are not sent again.
        for (const i of pending) results[i] = { ok: false, error: `bulk request failed: ${err.message}` };
        tick(pending.length);
        pending = [];
      }
    }
    await mapLimit(pending, opts.concurrency ?? 4, (i) => single(i));
  }
  return results;
}
