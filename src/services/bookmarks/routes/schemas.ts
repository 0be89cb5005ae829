/**
 * JSON schemas of the API objects, used to describe every route's answers in /openapi.json. They document;
 * they do not validate. The request bodies' schemas come from their declarations (../bodies/), which check them.
 */
import type { FastifySchema } from 'fastify';
import { LINK_STATUSES, VISIBILITIES } from '../validate.js';

/** openapi.json's enum of one of validate.ts's (or the store's) closed lists, with extra schema keywords. */
export function enumOf(values: readonly (string | number)[], extra: Record<string, unknown> = {}) {
  return { type: typeof values[0] === 'number' ? 'integer' : 'string', enum: [...values], ...extra };
}

const dt = { type: 'string', format: 'date-time', description: 'YYYY-MM-DDTHH:MM:SS.ffffffZ' };
const dtN = { type: ['string', 'null'], format: 'date-time' };
export const visibility = enumOf(VISIBILITIES, { description: '1 public, 2 internal, 3 private' });

export const tagSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, user_id: { type: 'integer' }, name: { type: 'string' }, visibility, created_at: dt, updated_at: dt, deleted_at: dtN },
};
export const listSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    user_id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    visibility,
    created_at: dt,
    updated_at: dt,
    deleted_at: dtN,
  },
};
const linkProps = {
  id: { type: 'integer' },
  user_id: { type: 'integer' },
  url: { type: 'string' },
  title: { type: 'string' },
  description: { type: ['string', 'null'] },
  icon: { type: ['string', 'null'] },
  visibility,
  status: enumOf(LINK_STATUSES, { description: '1 ok, 2 moved, 3 broken' }),
  check_disabled: { type: 'boolean' },
  last_checked_at: dtN,
  thumbnail: { type: ['string', 'null'] },
  created_at: dt,
  updated_at: dt,
  deleted_at: dtN,
};
export const linkSchema = { type: 'object', properties: linkProps };
export const linkFullSchema = { type: 'object', properties: { ...linkProps, lists: { type: 'array', items: listSchema }, tags: { type: 'array', items: tagSchema } } };
export const linkV1Schema = {
  type: 'object',
  properties: { ...Object.fromEntries(Object.entries(linkProps).filter(([k]) => k !== 'visibility')), is_private: { type: 'boolean' } },
};
export const noteSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    user_id: { type: 'integer' },
    link_id: { type: 'integer' },
    note: { type: 'string' },
    visibility,
    created_at: dt,
    updated_at: dt,
    deleted_at: dtN,
  },
};

export const errorSchema = { type: 'object', properties: { message: { type: 'string' } } };
export const validationSchema = {
  type: 'object',
  properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
};

const pageLinks = {
  type: 'object',
  properties: { first: { type: 'string' }, last: { type: 'string' }, prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } },
};
const pageMeta = {
  type: 'object',
  properties: {
    current_page: { type: 'integer' },
    from: { type: ['integer', 'null'] },
    last_page: { type: 'integer' },
    path: { type: 'string' },
    per_page: { type: 'integer' },
    to: { type: ['integer', 'null'] },
    total: { type: 'integer' },
  },
};

export function paginated(item: object) {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      links: pageLinks,
      meta: pageMeta,
      current_page: { type: 'integer' },
      last_page: { type: 'integer' },
      next_page_url: { type: ['string', 'null'] },
      prev_page_url: { type: ['string', 'null'] },
      total: { type: 'integer' },
    },
  };
}

/**
 * A v1 page: the description's `meta` and `links` objects beside Laravel's flat paginator fields, whose
 * `per_page` is a string as LinkAce 1.x sends it.
 */
export function v1Paginated(item: object) {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      meta: pageMeta,
      links: pageLinks,
      current_page: { type: 'integer' },
      first_page_url: { type: 'string' },
      from: { type: ['integer', 'null'] },
      last_page: { type: 'integer' },
      last_page_url: { type: 'string' },
      next_page_url: { type: ['string', 'null'] },
      path: { type: 'string' },
      per_page: { type: 'string', description: 'the page size, as a string (LinkAce 1.x)' },
      prev_page_url: { type: ['string', 'null'] },
      to: { type: ['integer', 'null'] },
      total: { type: 'integer' },
    },
  };
}

/** A v1 object: `is_private` (visibility 3) instead of `visibility`. */
export function v1Object(schema: { type: string; properties: Record<string, unknown> }) {
  return { type: 'object', properties: { ...Object.fromEntries(Object.entries(schema.properties).filter(([k]) => k !== 'visibility')), is_private: { type: 'boolean' } } };
}

export const idParams = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };

const errors = {
  401: { description: 'Unauthenticated', ...errorSchema },
  403: { description: 'Forbidden', ...errorSchema },
  404: { description: 'Not found', ...errorSchema },
  422: { description: 'Validation error', ...validationSchema },
  429: { description: 'Too many requests', ...errorSchema },
};

/** A route's documentation: tags, summary, inputs and the success answer plus the error answers. */
export function doc(
  tag: string,
  summary: string,
  parts: { querystring?: object; body?: object; params?: object; ok?: object; okStatus?: number; consumes?: string[]; produces?: string[] } = {},
): FastifySchema {
  const { ok, okStatus = 200, ...rest } = parts;
  return {
    tags: [tag],
    summary,
    ...rest,
    response: { [okStatus]: ok ?? { type: 'array', maxItems: 0 }, ...errors },
  } as FastifySchema;
}
