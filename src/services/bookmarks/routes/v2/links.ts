/** v2 links: list, get, create, update, delete, notes of a link, check. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { envelope } from '../../pagination.js';
import { declareRoute } from '../../../kit/route.js';
import { orderOf, pagedQuery, pageOf } from '../queries.js';
import { LINK_ORDER, linkJson, linkWithRelations, listLinks, visibleUrlExists } from '../../store/links.js';
import { notesOfLink, noteJson, NOTE_ORDER } from '../../store/notes.js';
import { createLink, deleteLink, ownLink, patchLink, requireUser, viewableLink } from '../../actions/links.js';
import { callerOf, idOf } from '../common.js';
import { field, objectOf, optional } from '../../../kit/declare.js';
import { integer, normalizeBody, normalizeQuery } from '../../fields.js';
import { doc, idParams, linkFullSchema, linkSchema, noteSchema, paginated } from '../schemas.js';
import { linkUpdateBody, newLinkBody } from '../../bodies/links.js';
import { linksToCheck, linksVersion } from '../../store/links.js';
import { scopeKey } from '../../access.js';
import { PageCache } from '../../page-cache.js';

const linksQuery = pagedQuery(LINK_ORDER);
const notesQuery = pagedQuery(NOTE_ORDER);

/**
 * `GET /api/v2/links/check`: a `url` parameter, even an empty one, asks the duplicate check (LinkAce: empty ->
 * false) and `id` is then not read; else `id` (at least 1) checks the health of one link, none all of the caller's.
 */
const checkQuery = objectOf(
  {
    url: optional(field<string | null>({ type: 'string', description: 'is this URL saved (an empty one is not)' }, (v) => (typeof v === 'string' ? v : null))),
    id: integer({ min: 1 }),
  },
  {
    normalize(raw) {
      const given = normalizeBody(raw);
      return 'url' in given ? { url: given.url } : normalizeQuery(given);
    },
  },
);

export function linkRoutes(app: FastifyInstance, deps: Deps): void {
  const pages = new PageCache();

  declareRoute(app, {
    method: 'GET',
    url: '/api/v2/links/check',
    doc: doc('Links', "Is a URL already saved (url=...), or check the health of the caller's links (or id=N)", {
      ok: {
        type: 'object',
        properties: {
          linksFound: { type: 'boolean' },
          data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, url: { type: 'string' }, status: { type: 'integer' }, last_checked_at: { type: 'string' } } } },
        },
      },
    }),
    query: checkQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const { url, id } = input.query;
      if (url !== undefined) return { linksFound: url !== null && visibleUrlExists(deps.db, caller, url) };
      if (id !== undefined) {
        const row = ownLink(deps, caller, id);
        return { data: await deps.checker.check([row]) };
      }
      const userId = requireUser(caller);
      return { data: await deps.checker.check(linksToCheck(deps.db, 0, userId)) };
    },
  });

  declareRoute(app, {
    method: 'GET',
    url: '/api/v2/links',
    doc: doc('Links', 'List the links visible to the caller', { ok: paginated(linkSchema) }),
    query: linksQuery,
    handler: async (req, reply, input) => {
      const caller = callerOf(req);
      const order = orderOf(input.query);
      const cacheable = order.by !== 'random';
      const key = `${scopeKey(caller)} ${req.host} ${req.url}`;
      const version = linksVersion(deps.db);
      let body = cacheable ? pages.get(key, version) : undefined;
      if (body === undefined) {
        const p = listLinks(deps.db, caller, order, pageOf(input.query));
        body = JSON.stringify(envelope(req, { ...p, data: p.data.map(linkJson) }));
        if (cacheable) pages.set(key, version, body);
      }
      return reply
        .type('application/json; charset=utf-8')
        .serializer((s: unknown) => s as string)
        .send(body);
    },
  });

  app.post('/api/v2/links', { schema: doc('Links', 'Create a link (title and description fetched from the page when omitted)', { body: newLinkBody.schema, ok: linkFullSchema }) }, async (req) =>
    createLink(deps, callerOf(req), req.body),
  );

  app.get('/api/v2/links/:id', { schema: doc('Links', 'Get a link with its lists and tags', { params: idParams, ok: linkFullSchema }) }, async (req) => {
    const caller = callerOf(req);
    return linkWithRelations(deps.db, caller, viewableLink(deps, caller, idOf(req, 'Link')));
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v2/links/:id',
      schema: doc('Links', 'Update a link (any subset of the fields)', { params: idParams, body: linkUpdateBody.schema, ok: linkFullSchema }),
      handler: async (req) => patchLink(deps, callerOf(req), idOf(req, 'Link'), req.body),
    });
  }

  app.delete('/api/v2/links/:id', { schema: doc('Links', 'Move a link to the trash', { params: idParams }) }, async (req) => {
    deleteLink(deps, callerOf(req), idOf(req, 'Link'));
    return [];
  });

  declareRoute(app, {
    method: 'GET',
    url: '/api/v2/links/:id/notes',
    doc: doc('Links', 'Notes of a link', { params: idParams, ok: paginated(noteSchema) }),
    query: notesQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const id = idOf(req, 'Link');
      viewableLink(deps, caller, id, true);
      const p = notesOfLink(deps.db, caller, id, orderOf(input.query), pageOf(input.query));
      return envelope(req, { ...p, data: p.data.map(noteJson) });
    },
  });
}
