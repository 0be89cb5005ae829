/**
 * Creating, updating and deleting lists and tags. Who may: LinkAce 2.x's LinkListPolicy and TagPolicy (any
 * user updates a list or tag that is not private; only the owner deletes it).
 */
import type { Deps } from '../deps.js';
import { canDelete, canUpdate, canView, type Caller } from '../access.js';
import { forbidden, forbiddenEmpty, notFound, unauthenticated } from '../errors.js';
import { Check, LIMITS, type Input } from '../validate.js';
import { collectionJson, findOwnByName, getCollection, insertCollection, setCollectionDeleted, updateCollection, KINDS, type CollectionKind, type CollectionRow } from '../store/collections.js';
import { defaultVisibility, emitTagsCreated, requireUser } from './links.js';

function cleanName(name: string): string {
  return name.replace(/,/g, '').trim();
}

export interface CollectionFields {
  name?: string;
  description?: string | null;
  visibility?: number | null;
}

/** Validates list/tag fields. Tag names (and renamed list names) are unique per user, trash included. */
export function readCollectionFields(
  deps: Deps,
  userId: number,
  kind: CollectionKind,
  c: Check,
  opts: { create: boolean; current?: CollectionRow; v1?: boolean; seen?: Set<string> },
): CollectionFields {
  const f: CollectionFields = {};
  // on update the name may be left out, but not cleared (LinkAce: "The name field is required.")
  const name = c.string('name', { required: opts.create || c.input.name === null, max: LIMITS.name });
  if (typeof name === 'string') {
    const clean = cleanName(name);
    if (!clean) c.fail('name', 'The :attribute field is required.');
    else {
      f.name = clean;
      // one tag and one list per name per user (the store's unique indexes say so too)
      if (!opts.current || opts.current.name !== clean) {
        const other = findOwnByName(deps.db, kind, userId, clean);
        if ((other && other.id !== opts.current?.id) || opts.seen?.has(clean)) c.fail('name', 'The :attribute has already been taken.');
        opts.seen?.add(clean);
      }
    }
  }
  if (kind === 'lists') f.description = c.string('description', { max: LIMITS.description });
  if (opts.v1) {
    const p = c.boolean('is_private');
    if (typeof p === 'boolean') f.visibility = p ? 3 : deps.guestAccess ? 1 : 2;
  } else f.visibility = c.visibility('visibility');
  return f;
}

export function storeCollection(deps: Deps, userId: number, kind: CollectionKind, f: CollectionFields): CollectionRow {
  return insertCollection(deps.db, kind, {
    user_id: userId,
    name: f.name!,
    description: f.description ?? null,
    visibility: f.visibility ?? defaultVisibility(deps, userId),
  });
}

export function createCollection(deps: Deps, caller: Caller, kind: CollectionKind, input: Input, opts: { v1?: boolean } = {}) {
  const userId = requireUser(caller);
  const c = new Check(input);
  const f = readCollectionFields(deps, userId, kind, c, { create: true, v1: opts.v1 });
  c.done();
  const row = storeCollection(deps, userId, kind, f);
  if (kind === 'tags') emitTagsCreated(deps, [row]);
  return row;
}

export function viewableCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number, emptyForbidden = false): CollectionRow {
  const row = getCollection(deps.db, kind, id);
  if (!row) throw notFound(KINDS[kind].model, id);
  if (!canView(caller, row)) throw emptyForbidden ? forbiddenEmpty() : forbidden();
  return row;
}

/** Loads a list or tag for a change: 404, then 401 for guests, then 403 unless `allowed` (update or delete policy). */
function changeableCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number, allowed: (caller: Caller, row: CollectionRow) => boolean): CollectionRow {
  const row = getCollection(deps.db, kind, id);
  if (!row) throw notFound(KINDS[kind].model, id);
  if (caller.kind === 'guest') throw unauthenticated();
  if (!allowed(caller, row)) throw forbidden();
  return row;
}

export function patchCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number, input: Input, opts: { v1?: boolean } = {}) {
  const row = changeableCollection(deps, caller, kind, id, canUpdate);
  const c = new Check(input);
  const f = readCollectionFields(deps, row.user_id, kind, c, { create: false, current: row, v1: opts.v1 });
  c.done();
  return updateCollection(deps.db, kind, id, { name: f.name, description: f.description, visibility: f.visibility ?? undefined });
}

export function deleteCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number): void {
  changeableCollection(deps, caller, kind, id, canDelete);
  setCollectionDeleted(deps.db, kind, id, true);
}

export { collectionJson };
