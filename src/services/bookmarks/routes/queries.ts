/**
 * The query declarations of the paged list routes (services/kit/declare.ts): page, per_page, order_by and
 * order_dir, declared once for the route's checks, its handler's types and its openapi.json parameters.
 * Rules (pagination.ts): `page` below 1 or not a number is page 1; v2 `per_page` is an integer of at least
 * -1 (-1 and 0: all, capped at MAX_PER_PAGE); v1 `per_page` is never refused; `order_by` one of the route's
 * columns, `order_dir` asc or desc (422 "The selected order by is invalid." otherwise).
 */
import { field, objectOf, withDefault } from '../../kit/declare.js';
import { rule, normalizeQuery } from '../fields.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, pageNumber, v1PerPage, type PageRequest } from '../pagination.js';
import { ORDER_DIRS, type OrderDir } from '../validate.js';
import { enumOf } from './schemas.js';

const page = withDefault(
  field<number>({ type: 'integer', description: 'below 1 or not a number: page 1' }, (v) => pageNumber(v)),
  1,
);

/** v2: a number of rows, or all of them. */
const perPage = withDefault(
  rule<number | 'all'>({ type: 'integer', description: '-1 or 0 = all; capped at 1000' }, (c, name) => {
    const n = c.integer(name, { min: -1 });
    if (n === -1 || n === 0) return 'all';
    return typeof n === 'number' ? Math.min(n, MAX_PER_PAGE) : n;
  }),
  DEFAULT_PER_PAGE,
);

const v1PerPageField = withDefault(
  field<number>({ type: 'integer', description: 'capped at 100; 0, -1 or not a number give 100' }, (v) => v1PerPage(v)),
  DEFAULT_PER_PAGE,
);

function orderBy<T extends string>(columns: readonly T[]) {
  return withDefault(
    rule<T>(enumOf(columns), (c, name) => c.oneOf(name, columns)),
    'created_at' as T,
  );
}
const orderDir = withDefault(
  rule<OrderDir>(enumOf(ORDER_DIRS), (c, name) => c.oneOf(name, ORDER_DIRS)),
  'desc',
);

/** A v2 list's query: page, per_page, order_by (one of `columns`, created_at by default), order_dir. */
export function pagedQuery<T extends string>(columns: readonly T[]) {
  return objectOf({ page, per_page: perPage, order_by: orderBy(columns), order_dir: orderDir }, { normalize: normalizeQuery });
}

/** A v1 list's query: page and per_page as LinkAce 1.x reads them (never refused). */
export const v1PageOnlyQuery = objectOf({ page, per_page: v1PerPageField }, { normalize: normalizeQuery });

export function pageOf(q: { page: number; per_page: number | 'all' }): PageRequest {
  return { page: q.page, perPage: q.per_page === 'all' ? null : q.per_page };
}

export function v1PageOf(q: { page: number; per_page: number }): PageRequest {
  return { page: q.page, perPage: q.per_page };
}

export function orderOf<T extends string>(q: { order_by: T; order_dir: OrderDir }): { by: T; dir: OrderDir } {
  return { by: q.order_by, dir: q.order_dir };
}
