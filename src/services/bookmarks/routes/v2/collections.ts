/** v2 lists and tags: CRUD and their links. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { envelope, requestBase } from '../../pagination.js';
import { declareRoute } from '../../../kit/route.js';
import { orderOf, pagedQuery, pageOf } from '../queries.js';
import { collectionJson, LIST_ORDER, listCollections, TAG_ORDER, type CollectionKind } from '../../store/collections.js';
import { LINK_ORDER, linksOfCollection } from '../../store/links.js';
import { createCollection, deleteCollection, patchCollection, viewableCollection } from '../../actions/collections.js';
import { callerOf, idOf } from '../common.js';
import { collectionBodyFor } from '../../bodies/collections.js';
import { doc, idParams, linkSchema, listSchema, paginated, tagSchema } from '../schemas.js';

const linksQuery = pagedQuery(LINK_ORDER);

export function collectionRoutes(app: FastifyInstance, deps: Deps, kind: CollectionKind): void {
  const base = `/api/v2/${kind}`;
  const tag = kind === 'lists' ? 'Lists' : 'Tags';
  const one = kind === 'lists' ? 'list' : 'tag';
  const model = kind === 'lists' ? 'LinkList' : 'Tag';
  const order = kind === 'lists' ? LIST_ORDER : TAG_ORDER;
  const schema = kind === 'lists' ? listSchema : tagSchema;
  const json = (r: Parameters<typeof collectionJson>[1]) => collectionJson(kind, r);

  declareRoute(app, {
    method: 'GET',
    url: base,
    doc: doc(tag, `List the ${kind} visible to the caller`, { ok: paginated(schema) }),
    query: pagedQuery(order),
    handler: async (req, _reply, input) => {
      const p = listCollections(deps.db, callerOf(req), kind, orderOf(input.query), pageOf(input.query));
      return envelope(req, { ...p, data: p.data.map(json) });
    },
  });

  app.post(base, { schema: doc(tag, `Create a ${one}`, { body: collectionBodyFor(kind, { create: true }).schema, ok: schema }) }, async (req) =>
    json(createCollection(deps, callerOf(req), kind, req.body)),
  );

  app.get(base + '/:id', { schema: doc(tag, `Get a ${one}`, { params: idParams, ok: schema }) }, async (req) => {
    const row = viewableCollection(deps, callerOf(req), kind, idOf(req, model));
    const out = json(row);
    if (kind === 'lists') {
      const b = requestBase(req);
      out.links = `${b.base}/api/v2/lists/${row.id}/links`;
    }
    return out;
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: base + '/:id',
      schema: doc(tag, `Update a ${one} (any subset of the fields)`, { params: idParams, body: collectionBodyFor(kind, { create: false }).schema, ok: schema }),
      handler: async (req) => json(patchCollection(deps, callerOf(req), kind, idOf(req, model), req.body)),
    });
  }

  app.delete(base + '/:id', { schema: doc(tag, `Move a ${one} to the trash`, { params: idParams }) }, async (req) => {
    deleteCollection(deps, callerOf(req), kind, idOf(req, model));
    return [];
  });

  declareRoute(app, {
    method: 'GET',
    url: base + '/:id/links',
    doc: doc(tag, `Links of a ${one} visible to the caller`, { params: idParams, ok: paginated(linkSchema) }),
    query: linksQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const id = idOf(req, model);
      viewableCollection(deps, caller, kind, id, true);
      return envelope(req, linksOfCollection(deps.db, caller, kind, id, orderOf(input.query), pageOf(input.query)));
    },
  });
}
