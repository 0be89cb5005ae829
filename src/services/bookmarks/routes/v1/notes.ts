/**
 * v1 notes, as LinkAce 1.x serves them, in v1 shapes (`is_private`): `GET /links/{id}/notes` (a v1 page of the
 * notes the caller may see), `POST /notes` (201, as every v1 create here), `PATCH|PUT /notes/{id}`,
 * `DELETE /notes/{id}` (204). `is_private: true` is visibility 3, false internal (public with guest access).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { viewableLink } from '../../actions/links.js';
import { newNoteV1Body, noteUpdateV1Body } from '../../bodies/notes.js';
import { envelope } from '../../pagination.js';
import { declareRoute } from '../../../kit/route.js';
import { v1PageOf, v1PageOnlyQuery } from '../queries.js';
import { noteJson, notesOfLink } from '../../store/notes.js';
import { createNote, deleteNote, patchNote } from '../../actions/notes.js';
import { callerOf, idOf } from '../common.js';
import { doc, idParams, noteSchema, v1Object, v1Paginated } from '../schemas.js';
import { v1 } from './json.js';

const noteV1Schema = v1Object(noteSchema);

export function v1NoteRoutes(app: FastifyInstance, deps: Deps): void {
  declareRoute(app, {
    method: 'GET',
    url: '/api/v1/links/:id/notes',
    doc: doc('v1', 'Notes of a link (v1): a v1 page', { params: idParams, ok: v1Paginated(noteV1Schema) }),
    query: v1PageOnlyQuery,
    handler: async (req, _reply, input) => {
      const caller = callerOf(req);
      const id = idOf(req, 'Link');
      viewableLink(deps, caller, id, true);
      const p = notesOfLink(deps.db, caller, id, { by: 'id', dir: 'asc' }, v1PageOf(input.query));
      return envelope(req, { ...p, data: p.data.map((n) => v1(noteJson(n))) }, 1);
    },
  });

  app.post('/api/v1/notes', { schema: doc('v1', 'Add a note to a link (v1): 201', { body: newNoteV1Body.schema, ok: noteV1Schema, okStatus: 201 }) }, async (req, reply) =>
    reply.code(201).send(v1(noteJson(createNote(deps, callerOf(req), req.body, { v1: true })))),
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/api/v1/notes/:id',
      schema: doc('v1', 'Update a note (v1)', { params: idParams, body: noteUpdateV1Body.schema, ok: noteV1Schema }),
      handler: async (req) => v1(noteJson(patchNote(deps, callerOf(req), idOf(req, 'Note'), req.body, { v1: true }))),
    });
  }

  app.delete('/api/v1/notes/:id', { schema: doc('v1', 'Move a note to the trash (v1): 204', { params: idParams, okStatus: 204, ok: { type: 'null' } }) }, async (req, reply) => {
    deleteNote(deps, callerOf(req), idOf(req, 'Note'));
    return reply.code(204).send();
  });
}
