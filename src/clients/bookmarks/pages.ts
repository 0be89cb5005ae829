/**
 * Reading one page of a list whatever envelope the server used:
 * - ours (v2): `{data, links: {first, last, prev, next}, meta: {current_page, last_page, per_page, total, ...}}`
 * - LinkAce 2.x: Laravel's flat paginator `{current_page, data, last_page, per_page, total, next_page_url, links: [...]}`
 *   (`per_page` may be a string; `per_page=0` answers everything with per_page 999999999)
 * - a plain array (trash endpoints, some search endpoints).
 */
import type { Page } from './types.js';

function num(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
}

export class ShapeError extends Error {}

export function normalizePage<T>(raw: unknown): Page<T> {
  if (Array.isArray(raw)) {
    return { items: raw as T[], page: 1, lastPage: 1, perPage: raw.length, total: raw.length, hasNext: false, shape: 'array' };
  }
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { data?: unknown }).data)) {
    throw new ShapeError('the bookmark service answered a list request with something that is not a list');
  }
  const body = raw as Record<string, unknown>;
  const items = body.data as T[];
  const meta = body.meta && typeof body.meta === 'object' && !Array.isArray(body.meta) ? (body.meta as Record<string, unknown>) : undefined;
  const src = meta ?? body;
  const page = num(src.current_page, 1);
  const lastPage = num(src.last_page, page);
  const total = num(src.total, items.length);
  const perPage = num(src.per_page, items.length);
  const hasNext = items.length > 0 && page < lastPage;
  return { items, page, lastPage, perPage, total, hasNext, shape: meta ? 'envelope' : 'flat' };
}

/** `{ "83": "programming" }` (LinkAce search/tags), `[]`, or an array of objects -> [{id, name}]. */
export function normalizeNameMap(raw: unknown): { id: number; name: string }[] {
  if (Array.isArray(raw)) {
    return raw
      .filter((r): r is { id: unknown; name: unknown } => !!r && typeof r === 'object')
      .map((r) => ({ id: Number(r.id), name: String(r.name) }))
      .filter((r) => Number.isFinite(r.id));
  }
  if (raw && typeof raw === 'object') {
    const body = raw as Record<string, unknown>;
    if (Array.isArray(body.data)) return normalizeNameMap(body.data);
    return Object.entries(body)
      .map(([id, name]) => ({ id: Number(id), name: String(name) }))
      .filter((r) => Number.isFinite(r.id));
  }
  return [];
}
