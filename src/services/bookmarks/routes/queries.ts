/**
 * The query fields and declarations shared by the bookmark routes (services/kit/declare.ts): page, per_page,
 * order_by and order_dir, a search's text, id lists and criterion rule, declared once for the routes' checks,
 * their handlers' types and their openapi.json parameters; and `withBracketLists`, PHP's `name[]` form.
 * A search's `query` is at most LIMITS.query characters; an id list is comma-separated (or repeated) digits.
 * Rules (pagination.ts): `page` below 1 or not a number is page 1; v2 `per_page` is an integer of at least
 * -1 (-1 and 0: all, capped at MAX_PER_PAGE); v1 `per_page` is never refused; `order_by` one of the route's
 * columns, `order_dir` asc or desc (422 "The selected order by is invalid." otherwise).
 */
import { field, objectOf, optional, withDefault } from '../../kit/declare.js';
import type { Problems } from '../../kit/errors.js';
import { choice, idList, normalizeQuery, rule, text, whole } from '../fields.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, pageNumber, v1PerPage, type PageRequest } from '../pagination.js';
import { LIMITS, ORDER_DIRS, type OrderDir } from '../validate.js';
import { enumOf } from './schemas.js';

export const page = withDefault(
  field<number>({ type: 'integer', description: 'below 1 or not a number: page 1' }, (v) => pageNumber(v)),
  1,
);

const perPageNumber = whole({ min: -1 });
/** v2: a number of rows, or all of them. */
export const perPage = withDefault(
  rule<number | 'all'>({ type: 'integer', description: '-1 or 0 = all; capped at 1000' }, (v, fail) => {
    const n = perPageNumber(v, fail);
    if (n === -1 || n === 0) return 'all';
    return n === undefined ? undefined : Math.min(n, MAX_PER_PAGE);
  }),
  DEFAULT_PER_PAGE,
);

export const v1PerPageField = withDefault(
  field<number>({ type: 'integer', description: 'capped at 100; 0, -1 or not a number give 100' }, (v) => v1PerPage(v)),
  DEFAULT_PER_PAGE,
);

/** order_by: one of `columns`, `fallback` when not given. */
export function orderBy<T extends string>(columns: readonly T[], fallback = 'created_at' as T) {
  return withDefault(rule<T>(enumOf(columns), choice(columns)), fallback);
}
export function orderDir(fallback: OrderDir = 'desc') {
  return withDefault(rule<OrderDir>(enumOf(ORDER_DIRS), choice(ORDER_DIRS)), fallback);
}

/** A v2 list's query: page, per_page, order_by (one of `columns`, created_at by default), order_dir. */
export function pagedQuery<T extends string>(columns: readonly T[]) {
  return objectOf({ page, per_page: perPage, order_by: orderBy(columns), order_dir: orderDir() }, { normalize: normalizeQuery });
}

/** A v1 list's query: page and per_page as LinkAce 1.x reads them (never refused). */
export const v1PageOnlyQuery = objectOf({ page, per_page: v1PerPageField }, { normalize: normalizeQuery });

/** A v1 list's query with its order: order_by one of `columns` (created_at by default), order_dir (desc). */
export function v1PagedQuery<T extends string>(columns: readonly T[]) {
  return objectOf({ page, per_page: v1PerPageField, order_by: orderBy(columns), order_dir: orderDir() }, { normalize: normalizeQuery });
}

export function pageOf(q: { page: number; per_page: number | 'all' }): PageRequest {
  return { page: q.page, perPage: q.per_page === 'all' ? null : q.per_page };
}

export function v1PageOf(q: { page: number; per_page: number }): PageRequest {
  return { page: q.page, perPage: q.per_page };
}

export function orderOf<T extends string>(q: { order_by: T; order_dir: OrderDir }): { by: T; dir: OrderDir } {
  return { by: q.order_by, dir: q.order_dir };
}

/**
 * A query whose id lists may also come as PHP arrays: `tags[]=1&tags[]=2` is read as `tags` when `tags` itself
 * is not given (LinkAce's clients send both forms).
 */
export function withBracketLists(query: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out = { ...query };
  for (const name of names) {
    const bracketed = out[`${name}[]`];
    delete out[`${name}[]`];
    if (out[name] === undefined && bracketed !== undefined) out[name] = bracketed;
  }
  return out;
}

/** A search's text: a string of at most LIMITS.query characters. */
export const searchText = optional(rule({ type: 'string', maxLength: LIMITS.query }, text(LIMITS.query)));

/** A query's comma-separated (or repeated) ids. */
export function idListField(description: string) {
  return optional(rule({ type: 'string', description }, idList));
}

/** Without any criterion a search is refused: this message under each criterion's field. */
export function requireCriterion(message: string, given: boolean, problems: Problems): void {
  if (!given) for (const f of ['query', 'only_lists', 'only_tags', 'broken_only']) problems.add(f, message);
}
