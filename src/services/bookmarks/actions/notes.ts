/**
 * Creating, updating and deleting notes, authorized as LinkAce 2.x authorizes them, before any validation:
 * - create: the caller must be able to see the link `link_id` names; a missing, null, unknown or trashed link
 *   leaves nothing to authorize against and answers 403 (LinkAce's NoteStoreRequest);
 * - update: the note's own policy (its owner, or anybody when the note is not private) and the note's link
 *   must be visible to the caller (LinkAce's NoteUpdateRequest), so a note on a link that became another
 *   user's private link answers 403;
 * - delete: the note's owner only, and (as every note operation here) only while its link is visible.
 * Bodies are read through their declarations (bodies/notes.ts); a v1 body's `is_private` becomes a visibility.
 */
import type { Deps } from '../deps.js';
import { canDelete, canUpdate, canView, type Caller } from '../access.js';
import { forbidden, notFound, unauthenticated } from '../errors.js';
import { Problems } from '../../kit/errors.js';
import { noteBodyFor, type NoteBody } from '../bodies/notes.js';
import { normalizeBody } from '../fields.js';
import { getLink } from '../store/links.js';
import { getNote, insertNote, setNoteDeleted, updateNote, type NoteRow } from '../store/notes.js';
import { defaultVisibility, requireUser, v1Visibility } from './links.js';

/** The link a `link_id` value names when it is a positive integer (or its digits) and the link is not trashed. */
function linkNamed(deps: Deps, value: unknown) {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? getLink(deps.db, id) : undefined;
}

/** A checked note body (its problems thrown as one 422); a v1 `is_private` read as a visibility. */
function readNoteBody(deps: Deps, input: unknown, opts: { create: boolean; v1?: boolean }): { note?: string; visibility?: number | null } {
  const problems = new Problems();
  const body: NoteBody = noteBodyFor(opts).collect(input, problems);
  problems.throwIfAny();
  return { note: body.note, visibility: opts.v1 ? v1Visibility(deps, body.is_private) : body.visibility };
}

export function createNote(deps: Deps, caller: Caller, input: unknown, opts: { v1?: boolean } = {}): NoteRow {
  const userId = requireUser(caller);
  const link = linkNamed(deps, normalizeBody(input).link_id);
  if (!link || !canView(caller, link)) throw forbidden();
  const { note, visibility } = readNoteBody(deps, input, { create: true, v1: opts.v1 });
  return insertNote(deps.db, { user_id: userId, link_id: link.id, note: note!, visibility: visibility ?? defaultVisibility(deps, userId) });
}

/** Loads a note for a change: 404, then 401 for guests, then 403 unless `allowed` and its link is visible. */
function changeableNote(deps: Deps, caller: Caller, id: number, allowed: (caller: Caller, row: NoteRow) => boolean): NoteRow {
  const row = getNote(deps.db, id);
  if (!row) throw notFound('Note', id);
  if (caller.kind === 'guest') throw unauthenticated();
  if (!allowed(caller, row)) throw forbidden();
  const link = getLink(deps.db, row.link_id);
  if (!link || !canView(caller, link)) throw forbidden();
  return row;
}

export function patchNote(deps: Deps, caller: Caller, id: number, input: unknown, opts: { v1?: boolean } = {}): NoteRow {
  changeableNote(deps, caller, id, canUpdate);
  const { note, visibility } = readNoteBody(deps, input, { create: false, v1: opts.v1 });
  return updateNote(deps.db, id, { note, visibility: visibility ?? undefined });
}

export function deleteNote(deps: Deps, caller: Caller, id: number): void {
  changeableNote(deps, caller, id, canDelete);
  setNoteDeleted(deps.db, id, true);
}
