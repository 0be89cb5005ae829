/**
 * The trash, v2 and v1 (LinkAce 1.x has the same routes): list the caller's trashed items, restore one, clear a
 * type for good. v2 answers `[]` (Laravel's empty response); v1 items are in v1 shapes (`is_private`), restore
 * answers 200 `{}` as LinkAce 1.x, and clear 204 as every v1 deletion here. The work is in actions/trash.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { TRASH_TYPES } from '../../store/trash.js';
import { clearTrashBody, clearTrashOf, restoreBody, restoreFromTrash, trashedItems } from '../../actions/trash.js';
import { declareRoute } from '../../../kit/route.js';
import { callerOf } from '../common.js';
import { doc, linkSchema, listSchema, noteSchema, tagSchema, v1Object } from '../schemas.js';
import { v1 } from '../v1/json.js';

export function trashRoutes(app: FastifyInstance, deps: Deps, version: 'v1' | 'v2' = 'v2'): void {
  const isV1 = version === 'v1';
  const tag = isV1 ? 'v1' : 'Trash';
  const suffix = isV1 ? ' (v1)' : '';
  const shape = (schema: { type: string; properties: Record<string, unknown> }): object => (isV1 ? v1Object(schema) : schema);
  const schemas = { links: shape(linkSchema), lists: shape(listSchema), tags: shape(tagSchema), notes: shape(noteSchema) };
  const out = (obj: Record<string, unknown>) => (isV1 ? v1(obj) : obj);
  for (const type of TRASH_TYPES) {
    app.get(`/api/${version}/trash/${type}`, { schema: doc(tag, `The caller's trashed ${type}${suffix}`, { ok: { type: 'array', items: schemas[type] } }) }, async (req) =>
      trashedItems(deps, callerOf(req), type).map(out),
    );
  }

  declareRoute(app, {
    method: 'DELETE',
    url: `/api/${version}/trash/clear`,
    doc: doc(tag, `Delete all trashed items of one type for good${isV1 ? ' (v1): 204' : ''}`, isV1 ? { okStatus: 204, ok: { type: 'null' } } : {}),
    body: clearTrashBody,
    handler: async (req, reply, input) => {
      clearTrashOf(deps, callerOf(req), () => input.body);
      return isV1 ? reply.code(204).send() : [];
    },
  });

  declareRoute(app, {
    method: 'PATCH',
    url: `/api/${version}/trash/restore`,
    doc: doc(tag, `Restore one trashed item${isV1 ? ' (v1): {}' : ''}`, isV1 ? { ok: { type: 'object', maxProperties: 0 } } : {}),
    body: restoreBody,
    handler: async (req, _reply, input) => {
      restoreFromTrash(deps, callerOf(req), () => input.body);
      return isV1 ? {} : [];
    },
  });
}
