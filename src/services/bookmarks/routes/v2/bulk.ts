/** v2 bulk routes: create links/lists/tags, edit links/lists/tags, delete links/lists/tags (the work is in actions/bulk.ts). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import type { CollectionKind } from '../../store/collections.js';
import { bulkCreateCollections, bulkCreateLinks, bulkDelete, bulkEditCollections, bulkEditLinks } from '../../actions/bulk.js';
import { callerOf } from '../common.js';
import { bulkCollectionEditBody, bulkCollectionsBody, bulkDeleteBody, bulkLinkEditBody, bulkLinksBody } from '../../bodies/bulk.js';
import { doc, linkFullSchema, listSchema, tagSchema } from '../schemas.js';

export function bulkRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/api/v2/bulk/links', { schema: doc('Bulk', 'Create several links', { body: bulkLinksBody.schema, ok: { type: 'array', items: linkFullSchema } }) }, async (req) =>
    bulkCreateLinks(deps, callerOf(req), req.body),
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.post(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Create several ${kind}`, {
          body: bulkCollectionsBody(kind).schema,
          ok: { type: 'array', items: kind === 'lists' ? listSchema : tagSchema },
        }),
      },
      async (req) => bulkCreateCollections(deps, callerOf(req), kind, req.body),
    );
  }

  app.patch(
    '/api/v2/bulk/links',
    {
      schema: doc('Bulk', 'Edit several links: tags and lists (append or replace) and visibility; null where the caller may not edit', {
        body: bulkLinkEditBody.schema,
        ok: { type: 'array', items: { anyOf: [linkFullSchema, { type: 'null' }] } },
      }),
    },
    async (req) => bulkEditLinks(deps, callerOf(req), req.body),
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.patch(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Edit the visibility of several ${kind}; null where the caller may not edit`, {
          body: bulkCollectionEditBody.schema,
          ok: { type: 'array', items: { anyOf: [kind === 'lists' ? listSchema : tagSchema, { type: 'null' }] } },
        }),
      },
      async (req) => bulkEditCollections(deps, callerOf(req), kind, req.body),
    );
  }

  app.delete(
    '/api/v2/bulk/delete',
    {
      schema: doc('Bulk', 'Move several links, lists or tags to the trash: an object id -> deleted?', {
        body: bulkDeleteBody.schema,
        ok: { type: 'object', additionalProperties: { type: 'boolean' } },
      }),
    },
    async (req) => bulkDelete(deps, callerOf(req), req.body),
  );
}
