/** v2 bulk routes: create links/lists/tags, edit links/lists/tags, delete links/lists/tags (the work is in actions/bulk.ts). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import type { CollectionKind } from '../../store/collections.js';
import { bulkCreateCollections, bulkCreateLinks, bulkDelete, bulkEditCollections, bulkEditLinks } from '../../actions/bulk.js';
import { bodyOf, callerOf } from '../common.js';
import { newLinkBody } from '../../bodies/links.js';
import { collectionBodyFor } from '../../bodies/collections.js';
import { doc, enumOf, linkFullSchema, listSchema, tagSchema } from '../schemas.js';
import { ATTACH_MODES, BULK_DELETE_TYPES, VISIBILITIES } from '../../validate.js';

const visibilityEdit = { type: ['integer', 'null'], enum: [...VISIBILITIES, null], description: 'null (or 0): left as it is' };

export function bulkRoutes(app: FastifyInstance, deps: Deps): void {
  app.post(
    '/api/v2/bulk/links',
    { schema: doc('Bulk', 'Create several links', { body: { type: 'object', properties: { models: { type: 'array', items: newLinkBody.schema } } }, ok: { type: 'array', items: linkFullSchema } }) },
    async (req) => bulkCreateLinks(deps, callerOf(req), bodyOf(req)),
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.post(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Create several ${kind}`, {
          body: { type: 'object', properties: { models: { type: 'array', items: collectionBodyFor(kind, { create: true }).schema } } },
          ok: { type: 'array', items: kind === 'lists' ? listSchema : tagSchema },
        }),
      },
      async (req) => bulkCreateCollections(deps, callerOf(req), kind, bodyOf(req)),
    );
  }

  app.patch(
    '/api/v2/bulk/links',
    {
      schema: doc('Bulk', 'Edit several links: tags and lists (append or replace) and visibility; null where the caller may not edit', {
        body: {
          type: 'object',
          properties: {
            models: { type: 'array', items: { type: 'integer' } },
            tags: { type: 'array', items: { type: ['integer', 'string'] } },
            tags_mode: enumOf(ATTACH_MODES),
            lists: { type: 'array', items: { type: ['integer', 'string'] } },
            lists_mode: enumOf(ATTACH_MODES),
            visibility: visibilityEdit,
          },
        },
        ok: { type: 'array', items: { anyOf: [linkFullSchema, { type: 'null' }] } },
      }),
    },
    async (req) => bulkEditLinks(deps, callerOf(req), bodyOf(req)),
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.patch(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Edit the visibility of several ${kind}; null where the caller may not edit`, {
          body: { type: 'object', properties: { models: { type: 'array', items: { type: 'integer' } }, visibility: visibilityEdit } },
          ok: { type: 'array', items: { anyOf: [kind === 'lists' ? listSchema : tagSchema, { type: 'null' }] } },
        }),
      },
      async (req) => bulkEditCollections(deps, callerOf(req), kind, bodyOf(req)),
    );
  }

  app.delete(
    '/api/v2/bulk/delete',
    {
      schema: doc('Bulk', 'Move several links, lists or tags to the trash: an object id -> deleted?', {
        body: { type: 'object', required: ['type', 'models'], properties: { type: enumOf(BULK_DELETE_TYPES), models: { type: 'array', items: { type: 'integer' } } } },
        ok: { type: 'object', additionalProperties: { type: 'boolean' } },
      }),
    },
    async (req) => bulkDelete(deps, callerOf(req), bodyOf(req)),
  );
}
