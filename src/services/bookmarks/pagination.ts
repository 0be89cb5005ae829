/**
 * Page parameters and the paginated envelopes. Both versions answer `{data, links: {first, last, prev, next},
 * meta: {...}}` plus Laravel's flat paginator fields (current_page, next_page_url, ...) that LinkAce clients
 * read; v1's flat `per_page` is a string, as LinkAce 1.x sends it. Page URLs keep the other query parameters.
 * Rules (Laravel's, as LinkAce applies them): `page` below 1 or not a number is page 1; v1 `per_page` is
 * capped at 100 and never refused (0, -1 and anything not a number give a page of 100, 25 when absent);
 * v2 `per_page` -1 and 0 mean all, anything else is capped at MAX_PER_PAGE.
 */
import type { FastifyRequest } from 'fastify';
import { lastOf, toInt } from './fields.js';

export const DEFAULT_PER_PAGE = 25;
/** The system limit for one page (v2); -1 and 0 mean "all". */
export const MAX_PER_PAGE = 1000;
export const V1_MAX_PER_PAGE = 100;

export interface PageRequest {
  page: number;
  /** null = all rows */
  perPage: number | null;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: PageRequest;
}

/** Laravel's page resolver: a whole number of at least 1, anything else is page 1. */
export function pageNumber(v: unknown): number {
  const n = toInt(lastOf(v));
  return n !== undefined && n >= 1 ? n : 1;
}

/** v1 page size: absent 25; a number 1..100 as given; above 100, 0, negative or not a number: 100. */
export function v1PerPage(v: unknown): number {
  const raw = lastOf(v);
  if (raw === undefined || raw === null) return DEFAULT_PER_PAGE;
  const n = toInt(raw);
  return n !== undefined && n >= 1 ? Math.min(n, V1_MAX_PER_PAGE) : V1_MAX_PER_PAGE;
}

/** LIMIT/OFFSET for a page request. */
export function limitOffset(p: PageRequest): { limit: number; offset: number } {
  if (p.perPage === null) return { limit: -1, offset: 0 };
  return { limit: p.perPage, offset: (p.page - 1) * p.perPage };
}

export function requestBase(req: FastifyRequest): { base: string; path: string; query: URLSearchParams } {
  const url = req.raw.url ?? req.url;
  const qi = url.indexOf('?');
  const path = qi < 0 ? url : url.slice(0, qi);
  const query = new URLSearchParams(qi < 0 ? '' : url.slice(qi + 1));
  return { base: `${req.protocol}://${req.host}`, path, query };
}

function pageUrl(b: ReturnType<typeof requestBase>, page: number): string {
  const q = new URLSearchParams(b.query);
  q.set('page', String(page));
  return `${b.base}${b.path}?${q.toString()}`;
}

export function envelope<T>(req: FastifyRequest, p: Page<T>, version: 1 | 2 = 2): Record<string, unknown> {
  const b = requestBase(req);
  const perPage = p.page.perPage ?? Math.max(p.total, p.data.length);
  const current = p.page.perPage === null ? 1 : p.page.page;
  const lastPage = p.page.perPage === null ? 1 : Math.max(1, Math.ceil(p.total / p.page.perPage));
  const offset = p.page.perPage === null ? 0 : (current - 1) * p.page.perPage;
  const from = p.data.length ? offset + 1 : null;
  const to = p.data.length ? offset + p.data.length : null;
  const first = pageUrl(b, 1);
  const last = pageUrl(b, lastPage);
  const prev = current > 1 ? pageUrl(b, Math.min(current - 1, lastPage)) : null;
  const next = current < lastPage ? pageUrl(b, current + 1) : null;
  const path = `${b.base}${b.path}`;
  const meta = { current_page: current, from, last_page: lastPage, path, per_page: perPage, to, total: p.total };
  const links = { first, last, prev, next };
  return {
    data: p.data,
    links,
    meta,
    current_page: current,
    first_page_url: first,
    from,
    last_page: lastPage,
    last_page_url: last,
    next_page_url: next,
    path,
    per_page: version === 1 ? String(perPage) : perPage,
    prev_page_url: prev,
    to,
    total: p.total,
  };
}
