/**
 * Creating, updating and deleting links: validation, permissions, metadata, events. A body's format problems
 * (bodies/links.ts) and its database problems (lists and tags named exist, the url is not taken) are collected
 * together and answered as one 422, as Laravel's validator does.
 */
import type { Deps } from '../deps.js';
import { canDelete, canUpdate, canView, type Caller } from '../access.js';
import { forbidden, forbiddenEmpty, notFound, unauthenticated, ValidationError } from '../errors.js';
import { LIMITS, type Ref } from '../validate.js';
import { attributeName } from '../fields.js';
import { Problems } from '../../kit/errors.js';
import { linkBodyFor } from '../bodies/links.js';
import { getUser } from '../store/users.js';
import { attach, attachedIds, findOwnLinkByUrl, getLink, insertLink, linkJson, linkWithRelations, setLinkDeleted, updateLink, type LinkJson, type LinkRow } from '../store/links.js';
import { findOwnByName, getCollection, insertCollection, setCollectionDeleted, type CollectionKind, type CollectionRow, collectionJson } from '../store/collections.js';
import { fallbackTitle } from '../metadata.js';

/** Writes need a user token: guests get 401, system tokens 403. */
export function requireUser(caller: Caller): number {
  if (caller.kind === 'guest') throw unauthenticated();
  if (caller.kind !== 'user') throw forbidden();
  return caller.userId;
}

/** A v1 body's `is_private`: true is private (3), false internal (2, public 1 with guest access); absent or null none. */
export function v1Visibility(deps: Deps, isPrivate: boolean | null | undefined): number | undefined {
  if (typeof isPrivate !== 'boolean') return undefined;
  return isPrivate ? 3 : deps.guestAccess ? 1 : 2;
}

export function defaultVisibility(deps: Deps, userId: number): number {
  return getUser(deps.db, userId)?.default_visibility ?? 3;
}

/**
 * Checks that referenced ids exist and may be attached, as LinkAce's update policy says: the caller's own
 * lists and tags and other users' that are not private. Another user's private one is refused (LinkAce's
 * repository would attach any id; this is the one place ops is stricter) and named like an unknown id, so
 * that its existence is not told. Names are resolved later: found among the caller's own, or created.
 */
export function checkRefs(deps: Deps, caller: Caller, problems: Problems, field: string, kind: CollectionKind, refs: Ref[] | null | undefined): void {
  if (!refs) return;
  const unknown: number[] = [];
  for (const r of refs) {
    if ('id' in r) {
      const row = getCollection(deps.db, kind, r.id);
      if (!row || !canUpdate(caller, row)) unknown.push(r.id);
    }
  }
  const noun = kind === 'lists' ? 'list' : 'tag';
  if (unknown.length) problems.add(field, `The selected ${attributeName(field)} are invalid: unknown ${noun} id ${unknown.join(', ')}.`);
}

/** Resolves refs to ids, creating the user's own collections for unknown names. Run inside a transaction. */
export function resolveRefs(deps: Deps, userId: number, kind: CollectionKind, refs: Ref[], created: CollectionRow[]): number[] {
  const ids: number[] = [];
  for (const r of refs) {
    if ('id' in r) ids.push(r.id);
    else {
      const found = findOwnByName(deps.db, kind, userId, r.name);
      if (found) {
        if (found.deleted_at) setCollectionDeleted(deps.db, kind, found.id, false);
        ids.push(found.id);
      } else {
        const row = insertCollection(deps.db, kind, { user_id: userId, name: r.name, visibility: defaultVisibility(deps, userId) });
        if (kind === 'tags') created.push(row);
        ids.push(row.id);
      }
    }
  }
  return [...new Set(ids)];
}

/**
 * Replaces the lists or tags of a link that the caller can see with `ids`; those attached that the caller
 * cannot see (another user's private ones) stay: a user who updates someone else's shared link never
 * detaches what they were not shown. Run inside a transaction.
 */
export function replaceVisibleRefs(deps: Deps, caller: Caller, kind: CollectionKind, linkId: number, ids: number[]): void {
  const hidden = attachedIds(deps.db, kind, linkId).filter((id) => {
    const row = getCollection(deps.db, kind, id);
    return row !== undefined && !canView(caller, row);
  });
  attach(deps.db, kind, linkId, [...hidden, ...ids], 'replace');
}

/**
 * Publishes link.updated for a link: the link as its owner sees it (the event belongs to the owner), also when
 * another user changed it, whose view would show their own private tags and hide the owner's.
 */
export function emitLinkUpdated(deps: Deps, caller: Caller, row: LinkRow, asCaller: LinkJson): void {
  const own = caller.kind === 'user' && caller.userId === row.user_id;
  const data = own ? asCaller : linkWithRelations(deps.db, { kind: 'user', userId: row.user_id, tokenId: 0 }, row);
  deps.events.emit({ type: 'link.updated', data, userId: row.user_id });
}

export function emitTagsCreated(deps: Deps, tags: CollectionRow[]): void {
  for (const t of tags) deps.events.emit({ type: 'tag.created', data: collectionJson('tags', t), userId: t.user_id });
}

interface LinkFields {
  url?: string;
  title?: string | null;
  description?: string | null;
  icon?: string | null;
  visibility?: number | null;
  check_disabled?: boolean | null;
  lists?: Ref[] | null;
  tags?: Ref[] | null;
}

/** Where a body's problems go: `prefix` names nested fields (bulk: "models.0."). */
export interface BodyProblems {
  problems: Problems;
  prefix?: string;
}

/** Reads the link fields of a body into `to.problems`, format rules then the lists and tags named. */
export function readLinkFields(deps: Deps, caller: Caller, input: unknown, to: BodyProblems, opts: { create: boolean; v1?: boolean }): LinkFields {
  const prefix = to.prefix ?? '';
  const body = linkBodyFor(opts).collect(input, to.problems, prefix);
  const f: LinkFields = { url: body.url, title: body.title, description: body.description, icon: body.icon, check_disabled: body.check_disabled, lists: body.lists, tags: body.tags };
  f.visibility = opts.v1 ? v1Visibility(deps, body.is_private) : body.visibility;
  checkRefs(deps, caller, to.problems, `${prefix}lists`, 'lists', f.lists);
  checkRefs(deps, caller, to.problems, `${prefix}tags`, 'tags', f.tags);
  return f;
}

/** Adds "has already been taken" for the url of a body (`prefix` as in BodyProblems). */
export function urlTaken(to: BodyProblems): void {
  const key = `${to.prefix ?? ''}url`;
  to.problems.add(key, `The ${attributeName(key)} has already been taken.`);
}

function isUniqueViolation(e: unknown): boolean {
  return !!e && typeof e === 'object' && 'code' in e && String((e as { code: unknown }).code).startsWith('SQLITE_CONSTRAINT');
}

/** Validates a create body without writing (its problems into `to`); returns the fields for `storeLink`. */
export function validateNewLink(deps: Deps, caller: Caller, input: unknown, to: BodyProblems, opts: { v1?: boolean } = {}): LinkFields {
  const userId = requireUser(caller);
  const f = readLinkFields(deps, caller, input, to, { create: true, v1: opts.v1 });
  if (f.url && findOwnLinkByUrl(deps.db, userId, f.url)) urlTaken(to);
  return f;
}

export interface StoreOptions {
  /** skip the page fetch (import) */
  noMetadata?: boolean;
  createdAt?: string;
  /** emit events (default true) */
  events?: boolean;
}

/** Creates a validated link: fetches metadata when title or description is missing, then stores it. */
export async function storeLink(deps: Deps, caller: Caller, f: LinkFields, opts: StoreOptions = {}): Promise<LinkJson> {
  const userId = requireUser(caller);
  const url = f.url!;
  let title = f.title ?? null;
  let description = f.description ?? null;
  let thumbnail: string | null = null;
  let status = 1;
  let checkDisabled = f.check_disabled ?? false;
  if ((title === null || description === null) && deps.fetchMetadata && !opts.noMetadata) {
    const meta = await deps.metadata(url);
    if (meta) {
      title ??= meta.title;
      description ??= meta.description;
      thumbnail = meta.thumbnail;
    } else {
      status = 3;
      checkDisabled = true;
    }
  }
  title ??= fallbackTitle(url);
  title = [...title].slice(0, LIMITS.title).join('');
  if (description !== null) description = [...description].slice(0, LIMITS.description).join('');
  const createdTags: CollectionRow[] = [];
  let row: LinkRow;
  try {
    row = await deps.write(() => {
      const link = insertLink(deps.db, {
        user_id: userId,
        url,
        title: title!,
        description,
        icon: f.icon ?? 'link',
        visibility: f.visibility ?? defaultVisibility(deps, userId),
        status,
        check_disabled: checkDisabled,
        thumbnail,
        created_at: opts.createdAt,
      });
      if (f.lists?.length) attach(deps.db, 'lists', link.id, resolveRefs(deps, userId, 'lists', f.lists, createdTags), 'replace');
      if (f.tags?.length) attach(deps.db, 'tags', link.id, resolveRefs(deps, userId, 'tags', f.tags, createdTags), 'replace');
      return link;
    });
  } catch (e) {
    if (isUniqueViolation(e)) ValidationError.of('url', 'The url has already been taken.');
    throw e;
  }
  const json = f.lists?.length || f.tags?.length ? linkWithRelations(deps.db, caller, row) : { ...linkJson(row), lists: [], tags: [] };
  if (opts.events !== false) {
    emitTagsCreated(deps, createdTags);
    deps.events.emit({ type: 'link.created', data: json, userId });
  }
  return json;
}

export async function createLink(deps: Deps, caller: Caller, input: unknown, opts: { v1?: boolean } = {}): Promise<LinkJson> {
  const problems = new Problems();
  const f = validateNewLink(deps, caller, input, { problems }, opts);
  problems.throwIfAny();
  return storeLink(deps, caller, f);
}

/** Loads a link for reading: 404 when absent or trashed, 403 when the caller may not see it (with no body where LinkAce's route answers none). */
export function viewableLink(deps: Deps, caller: Caller, id: number, emptyForbidden = false): LinkRow {
  const row = getLink(deps.db, id);
  if (!row) throw notFound('Link', id);
  if (!canView(caller, row)) throw emptyForbidden ? forbiddenEmpty() : forbidden();
  return row;
}

/** Loads a link for updating: 404 when absent or trashed, then 401 for guests, then 403 unless LinkAce's update policy allows it. */
export function updatableLink(deps: Deps, caller: Caller, id: number): LinkRow {
  const row = getLink(deps.db, id);
  if (!row) throw notFound('Link', id);
  if (caller.kind === 'guest') throw unauthenticated();
  if (!canUpdate(caller, row)) throw forbidden();
  return row;
}

/** Loads a link for deleting (or checking now): 404, then 401 for guests, then 403 unless the caller owns it. */
export function ownLink(deps: Deps, caller: Caller, id: number): LinkRow {
  const row = getLink(deps.db, id);
  if (!row) throw notFound('Link', id);
  if (caller.kind === 'guest') throw unauthenticated();
  if (!canDelete(caller, row)) throw forbidden();
  return row;
}

/** Validates an update of one link; returns a function applying it (inside a transaction). */
export function prepareLinkUpdate(deps: Deps, caller: Caller, row: LinkRow, input: unknown, to: BodyProblems, opts: { v1?: boolean } = {}) {
  const f = readLinkFields(deps, caller, input, to, { create: false, v1: opts.v1 });
  if (f.url && f.url !== row.url) {
    const other = findOwnLinkByUrl(deps.db, row.user_id, f.url);
    if (other && other.id !== row.id) urlTaken(to);
  }
  return (created: CollectionRow[]): LinkRow => {
    const patch: Record<string, unknown> = {};
    if (f.url !== undefined && f.url !== row.url) {
      patch.url = f.url;
      patch.status = 1;
      patch.last_checked_at = null;
    }
    if (f.title !== undefined) patch.title = f.title ?? fallbackTitle(f.url ?? row.url);
    if (f.description !== undefined) patch.description = f.description;
    if (f.icon !== undefined) patch.icon = f.icon ?? 'link';
    if (f.visibility !== undefined && f.visibility !== null) patch.visibility = f.visibility;
    if (f.check_disabled !== undefined && f.check_disabled !== null) patch.check_disabled = f.check_disabled;
    const updated = updateLink(deps.db, row.id, patch);
    const userId = requireUser(caller);
    if (f.lists !== undefined) replaceVisibleRefs(deps, caller, 'lists', row.id, resolveRefs(deps, userId, 'lists', f.lists ?? [], created));
    if (f.tags !== undefined) replaceVisibleRefs(deps, caller, 'tags', row.id, resolveRefs(deps, userId, 'tags', f.tags ?? [], created));
    return updated;
  };
}

export function patchLink(deps: Deps, caller: Caller, id: number, input: unknown, opts: { v1?: boolean } = {}): LinkJson {
  const row = updatableLink(deps, caller, id);
  const problems = new Problems();
  const apply = prepareLinkUpdate(deps, caller, row, input, { problems }, opts);
  problems.throwIfAny();
  const created: CollectionRow[] = [];
  let updated: LinkRow;
  try {
    updated = deps.db.transaction(() => apply(created))();
  } catch (e) {
    if (isUniqueViolation(e)) ValidationError.of('url', 'The url has already been taken.');
    throw e;
  }
  const json = linkWithRelations(deps.db, caller, updated);
  emitTagsCreated(deps, created);
  emitLinkUpdated(deps, caller, updated, json);
  return json;
}

export function deleteLink(deps: Deps, caller: Caller, id: number): void {
  ownLink(deps, caller, id);
  setLinkDeleted(deps.db, id, true);
}
