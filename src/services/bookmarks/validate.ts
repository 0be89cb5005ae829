/**
 * The bounds of the bookmark API's input: the closed sets of values requests may carry and the limits of their
 * fields. fields.ts's rules refuse anything else (422, in Laravel's words), and the declarations (bodies/,
 * routes/queries.ts, the routes' queries) and routes/schemas.ts build openapi.json's enums from these same lists
 * (enumOf), so the document cannot drift from what is enforced.
 * (The order_by lists live beside their queries: store/links.ts LINK_ORDER, store/collections.ts, ...)
 */

/** Characters, as Laravel's max counts them; `query` is a search's. */
export const LIMITS = { url: 2048, title: 255, description: 20_000, name: 255, note: 20_000, icon: 255, query: 2048 } as const;

/** 1 public, 2 internal (logged-in users), 3 private. */
export const VISIBILITIES = [1, 2, 3] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const ORDER_DIRS = ['asc', 'desc'] as const;
export type OrderDir = (typeof ORDER_DIRS)[number];
/** How bulk edits attach tags and lists. */
export const ATTACH_MODES = ['append', 'replace'] as const;
/** What bulk delete removes. */
export const BULK_DELETE_TYPES = ['links', 'lists', 'tags'] as const;
/** v1 export formats. */
export const EXPORT_FORMATS = ['html', 'json'] as const;
/** Link health in answers: 1 ok, 2 moved, 3 broken (checker.ts). */
export const LINK_STATUSES = [1, 2, 3] as const;

/** The most tags (or lists) one link may be given in one request or one imported bookmark. */
export const MAX_REFS = 1000;

/** The most models one bulk request takes (LinkAce's bulk requests cap them at 1,000). */
export const MAX_BULK_MODELS = 1000;

/** A link's tag or list as a request names it: an id, or a name (created when new). */
export type Ref = { id: number } | { name: string };
