/**
 * The trash: the caller's trashed links, lists, tags and notes, restoring one, clearing a type for good.
 *
 * Rules: guests get 401; a user sees and touches only their own trash; a system token has no trash of
 * its own (it sees an empty one, clearing does nothing, restoring finds nothing: 404).
 */
import type { Deps } from '../deps.js';
import type { Caller } from '../access.js';
import { notFound, unauthenticated } from '../errors.js';
import { objectOf } from '../../kit/declare.js';
import { integer, normalizeBody, oneOf } from '../fields.js';
import { clearTrash, restore, RESTORE_TYPES, TRASH_TYPES, trashed, type RestoreType, type TrashType } from '../store/trash.js';
import { linkJson, type LinkRow } from '../store/links.js';
import { collectionJson, type CollectionRow } from '../store/collections.js';
import { noteJson, type NoteRow } from '../store/notes.js';

const MODELS = { link: 'Link', list: 'LinkList', tag: 'Tag', note: 'Note' } as const;

/** The user whose trash the caller works on; null for a system token. */
function ownerOf(caller: Caller): number | null {
  if (caller.kind === 'guest') throw unauthenticated();
  return caller.kind === 'user' ? caller.userId : null;
}

/** The caller's trashed items of one type, by id (as LinkAce lists them), in their v2 JSON shape. */
export function trashedItems(deps: Deps, caller: Caller, type: TrashType): Record<string, unknown>[] {
  const owner = ownerOf(caller);
  if (owner === null) return [];
  const rows = trashed(deps.db, owner, type);
  if (type === 'links') return rows.map((r) => linkJson(r as unknown as LinkRow));
  if (type === 'notes') return rows.map((r) => noteJson(r as unknown as NoteRow));
  return rows.map((r) => collectionJson(type, r as unknown as CollectionRow));
}

/** The body of DELETE /trash/clear: the type to clear. */
export const clearTrashBody = objectOf({ model: oneOf(TRASH_TYPES, { required: true }) }, { normalize: normalizeBody });

/** The body of PATCH /trash/restore: the item to restore. */
export const restoreBody = objectOf({ model: oneOf(Object.keys(RESTORE_TYPES) as RestoreType[], { required: true }), id: integer({ required: true, min: 1 }) }, { normalize: normalizeBody });

/** Deletes for good all trashed items of the type named by `model` (the body is read once the caller may). */
export function clearTrashOf(deps: Deps, caller: Caller, body: () => ReturnType<typeof clearTrashBody.check>): void {
  const owner = ownerOf(caller);
  const { model } = body();
  if (owner !== null) clearTrash(deps.db, owner, model);
}

/** Restores one trashed item (`model`, `id`); 404 when the caller has no such item in the trash. */
export function restoreFromTrash(deps: Deps, caller: Caller, body: () => ReturnType<typeof restoreBody.check>): void {
  const owner = ownerOf(caller);
  const { model, id } = body();
  if (owner === null || !restore(deps.db, owner, RESTORE_TYPES[model], id)) throw notFound(MODELS[model], id);
}
