/** v2 trash: list the caller's trashed items, restore one, clear a type for good. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { Check } from '../../validate.js';
import { notFound, unauthenticated } from '../../errors.js';
import { clearTrash, restore, RESTORE_TYPES, TRASH_TYPES, trashed, type RestoreType } from '../../store/trash.js';
import { linkJson, type LinkRow } from '../../store/links.js';
import { collectionJson, type CollectionRow } from '../../store/collections.js';
import { noteJson, type NoteRow } from '../../store/notes.js';
import { bodyOf, callerOf } from '../common.js';
import { doc, linkSchema, listSchema, noteSchema, tagSchema } from '../schemas.js';
import type { Caller } from '../../access.js';

function ownerOf(caller: Caller): number | null {
  if (caller.kind === 'guest') throw unauthenticated();
  return caller.kind === 'user' ? caller.userId : null;
}

const MODELS = { link: 'Link', list: 'LinkList', tag: 'Tag', note: 'Note' } as const;

export function trashRoutes(app: FastifyInstance, deps: Deps): void {
  const schemas = { links: linkSchema, lists: listSchema, tags: tagSchema, notes: noteSchema };
  for (const type of TRASH_TYPES) {
    app.get(`/api/v2/trash/${type}`, { schema: doc('Trash', `The caller's trashed ${type}`, { ok: { type: 'array', items: schemas[type] } }) }, async (req) => {
      const owner = ownerOf(callerOf(req));
      if (owner === null) return [];
      const rows = trashed(deps.db, owner, type);
      if (type === 'links') return rows.map((r) => linkJson(r as unknown as LinkRow));
      if (type === 'notes') return rows.map((r) => noteJson(r as unknown as NoteRow));
      return rows.map((r) => collectionJson(type, r as unknown as CollectionRow));
    });
  }

  app.delete(
    '/api/v2/trash/clear',
    {
      schema: doc('Trash', 'Delete all trashed items of one type for good', {
        body: { type: 'object', required: ['model'], properties: { model: { type: 'string', enum: [...TRASH_TYPES] } } },
      }),
    },
    async (req) => {
      const owner = ownerOf(callerOf(req));
      const c = new Check(bodyOf(req));
      const model = c.oneOf('model', TRASH_TYPES, { required: true });
      c.done();
      if (owner !== null) clearTrash(deps.db, owner, model!);
      return [];
    },
  );

  app.patch(
    '/api/v2/trash/restore',
    {
      schema: doc('Trash', 'Restore one trashed item', {
        body: { type: 'object', required: ['model', 'id'], properties: { model: { type: 'string', enum: Object.keys(RESTORE_TYPES) }, id: { type: 'integer' } } },
      }),
    },
    async (req) => {
      const owner = ownerOf(callerOf(req));
      const c = new Check(bodyOf(req));
      const model = c.oneOf('model', Object.keys(RESTORE_TYPES) as RestoreType[], { required: true });
      const id = c.integer('id', { required: true, min: 1 });
      c.done();
      if (owner === null || !restore(deps.db, owner, RESTORE_TYPES[model!], id!)) throw notFound(MODELS[model!], id!);
      return [];
    },
  );
}
