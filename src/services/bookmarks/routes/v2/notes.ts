/** v2 notes: create, update, delete. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { noteJson } from '../../store/notes.js';
import { createNote, deleteNote, patchNote } from '../../actions/notes.js';
import { callerOf, idOf } from '../common.js';
import { doc, idParams, noteSchema } from '../schemas.js';
import { newNoteBody, noteUpdateBody } from '../../bodies/notes.js';

export function noteRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/api/v2/notes', { schema: doc('Notes', 'Add a note to a link', { body: newNoteBody.schema, ok: noteSchema }) }, async (req) => noteJson(createNote(deps, callerOf(req), req.body)));
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v2/notes/:id',
      schema: doc('Notes', 'Update a note', { params: idParams, body: noteUpdateBody.schema, ok: noteSchema }),
      handler: async (req) => noteJson(patchNote(deps, callerOf(req), idOf(req, 'Note'), req.body)),
    });
  }
  app.delete('/api/v2/notes/:id', { schema: doc('Notes', 'Move a note to the trash', { params: idParams }) }, async (req) => {
    deleteNote(deps, callerOf(req), idOf(req, 'Note'));
    return [];
  });
}
