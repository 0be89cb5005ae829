/** Creating, updating and deleting notes. A note may be added to any link the caller can see. */
import type { Deps } from '../deps.js';
import { canEdit, canView, type Caller } from '../access.js';
import { forbidden, notFound, unauthenticated } from '../errors.js';
import { Check, LIMITS, type Input } from '../validate.js';
import { getLink } from '../store/links.js';
import { getNote, insertNote, setNoteDeleted, updateNote, type NoteRow } from '../store/notes.js';
import { defaultVisibility, requireUser } from './links.js';

export function createNote(deps: Deps, caller: Caller, input: Input): NoteRow {
  const userId = requireUser(caller);
  const c = new Check(input);
  const linkId = c.integer('link_id', { required: true, min: 1 });
  const note = c.string('note', { required: true, max: LIMITS.note });
  const visibility = c.visibility('visibility');
  if (typeof linkId === 'number') {
    const link = getLink(deps.db, linkId);
    if (!link) c.fail('link_id', 'The selected :attribute is invalid.');
    else if (!canView(caller, link)) throw forbidden();
  }
  c.done();
  return insertNote(deps.db, { user_id: userId, link_id: linkId!, note: note!, visibility: visibility ?? defaultVisibility(deps, userId) });
}

export function editableNote(deps: Deps, caller: Caller, id: number): NoteRow {
  const row = getNote(deps.db, id);
  if (!row) throw notFound('Note', id);
  if (caller.kind === 'guest') throw unauthenticated();
  if (!canEdit(caller, row)) throw forbidden();
  return row;
}

export function patchNote(deps: Deps, caller: Caller, id: number, input: Input): NoteRow {
  editableNote(deps, caller, id);
  const c = new Check(input);
  const note = c.string('note', { max: LIMITS.note });
  const visibility = c.visibility('visibility');
  c.done();
  return updateNote(deps.db, id, { note: note ?? undefined, visibility: visibility ?? undefined });
}

export function deleteNote(deps: Deps, caller: Caller, id: number): void {
  editableNote(deps, caller, id);
  setNoteDeleted(deps.db, id, true);
}
