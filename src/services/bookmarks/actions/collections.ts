/**
 * Creating, updating and deleting lists and tags. Who may: LinkAce 2.x's LinkListPolicy and TagPolicy (any
 * user updates a list or tag that is not private; only the owner deletes it).
 */
import type { Deps } from '../deps.js';
import { canDelete, canUpdate, canView, type Caller } from '../access.js';
import { forbidden, forbiddenEmpty, notFound, unauthenticated } from '../errors.js';
import { attributeName } from '../fields.js';
import { Problems } from '../../kit/errors.js';
import { collectionBodyFor } from '../bodies/collections.js';
import { collectionJson, findOwnByName, getCollection, insertCollection, setCollectionDeleted, updateCollection, KINDS, type CollectionKind, type CollectionRow } from '../store/collections.js';
import { defaultVisibility, emitTagsCreated, requireUser, v1Visibility, type BodyProblems } from './links.js';

export interface CollectionFields {
  name?: string;
  description?: string | null;
  visibility?: number | null;
}

/**
 * Reads the list/tag fields of a body into `to.problems`. Tag names (and renamed list names) are unique per user,
 * trash included, and within one request (`seen`); that problem is reported with the name's, before the others.
 */
export function readCollectionFields(
  deps: Deps,
  userId: number,
  kind: CollectionKind,
  input: unknown,
  to: BodyProblems,
  opts: { create: boolean; current?: CollectionRow; v1?: boolean; seen?: Set<string> },
): CollectionFields {
  const prefix = to.prefix ?? '';
  const mine = new Problems();
  const body = collectionBodyFor(kind, opts).collect(input, mine, prefix);
  const nameKey = `${prefix}name`;
  // one tag and one list per name per user (the store's unique indexes say so too)
  if (body.name !== undefined && (!opts.current || opts.current.name !== body.name)) {
    const other = findOwnByName(deps.db, kind, userId, body.name);
    if ((other && other.id !== opts.current?.id) || opts.seen?.has(body.name)) mine.add(nameKey, `The ${attributeName(nameKey)} has already been taken.`);
    opts.seen?.add(body.name);
  }
  // the name's rules run first (Laravel validates field by field)
  for (const [key, messages] of Object.entries(mine.errors).sort(([a], [b]) => Number(b === nameKey) - Number(a === nameKey))) for (const message of messages) to.problems.add(key, message);
  return { name: body.name, description: body.description, visibility: opts.v1 ? v1Visibility(deps, body.is_private) : body.visibility };
}

export function storeCollection(deps: Deps, userId: number, kind: CollectionKind, f: CollectionFields): CollectionRow {
  return insertCollection(deps.db, kind, {
    user_id: userId,
    name: f.name!,
    description: f.description ?? null,
    visibility: f.visibility ?? defaultVisibility(deps, userId),
  });
}

export function createCollection(deps: Deps, caller: Caller, kind: CollectionKind, input: unknown, opts: { v1?: boolean } = {}) {
  const userId = requireUser(caller);
  const problems = new Problems();
  const f = readCollectionFields(deps, userId, kind, input, { problems }, { create: true, v1: opts.v1 });
  problems.throwIfAny();
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

export function patchCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number, input: unknown, opts: { v1?: boolean } = {}) {
  const row = changeableCollection(deps, caller, kind, id, canUpdate);
  const problems = new Problems();
  const f = readCollectionFields(deps, row.user_id, kind, input, { problems }, { create: false, current: row, v1: opts.v1 });
  problems.throwIfAny();
  return updateCollection(deps.db, kind, id, { name: f.name, description: f.description, visibility: f.visibility ?? undefined });
}

export function deleteCollection(deps: Deps, caller: Caller, kind: CollectionKind, id: number): void {
  changeableCollection(deps, caller, kind, id, canDelete);
  setCollectionDeleted(deps.db, kind, id, true);
}

export { collectionJson };
