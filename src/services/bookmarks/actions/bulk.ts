/**
 * Bulk actions of the v2 API: create several links, lists or tags; edit several links (tags, lists,
 * visibility) or lists/tags (visibility); move several of one type to the trash.
 *
 * Rules:
 * - the model cap is checked first and alone, before any model is looked at (see refuseOverCap);
 * - every model is validated before anything is written; one bad model refuses the whole request
 *   with its errors keyed `models.<i>.<field>`;
 * - edits and deletes run in one transaction; a model the caller may not update (LinkAce's update policy:
 *   own, or another user's not private) answers null, one the caller may not delete (not their own) answers
 *   false; a model that does not exist is left out of the answer;
 * - events (link.updated, tag.created) are emitted after the transaction has committed.
 */
import type { Deps } from '../deps.js';
import { canDelete, canUpdate, type Caller } from '../access.js';
import type { Ref } from '../validate.js';
import { attributeName } from '../fields.js';
import { isObject } from '../../kit/declare.js';
import { bulkCollectionEditBody, bulkCollectionsBody, bulkDeleteBody, bulkLinkEditBody, bulkLinksBody } from '../bodies/bulk.js';
import { attach, getLink, linkWithRelations, setLinkDeleted, updateLink, type LinkJson, type LinkRow } from '../store/links.js';
import { collectionJson, getCollection, setCollectionDeleted, updateCollection, type CollectionKind, type CollectionRow } from '../store/collections.js';
import { checkRefs, emitLinkUpdated, emitTagsCreated, replaceVisibleRefs, requireUser, resolveRefs, storeLink, urlTaken, validateNewLink } from './links.js';
import { Problems } from '../../kit/errors.js';
import { readCollectionFields, storeCollection } from './collections.js';

/** Links stored at once while a bulk create fetches their page metadata. */
const LINK_STORE_CONCURRENCY = 8;

/** The problems of `mine` added to `to` in the order of `fields` (Laravel validates field by field). */
function inFieldOrder(mine: Problems, fields: string[], to: Problems): void {
  const rank = (key: string) => fields.indexOf(key);
  for (const [key, messages] of Object.entries(mine.errors).sort(([a], [b]) => rank(a) - rank(b))) for (const message of messages) to.add(key, message);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** POST /api/v2/bulk/links: validates every model (urls unique within the request too), then stores them. */
export async function bulkCreateLinks(deps: Deps, caller: Caller, input: unknown): Promise<LinkJson[]> {
  requireUser(caller);
  const problems = new Problems();
  const { models = [] } = bulkLinksBody.collect(input, problems);
  const seen = new Set<string>();
  const fields = models.map((m, i) => {
    if (!isObject(m)) return undefined;
    const to = { problems, prefix: `models.${i}.` };
    const f = validateNewLink(deps, caller, m, to);
    if (f.url && seen.has(f.url)) urlTaken(to);
    if (f.url) seen.add(f.url);
    return f;
  });
  problems.throwIfAny();
  return mapLimit(fields, LINK_STORE_CONCURRENCY, (f) => storeLink(deps, caller, f!));
}

/** POST /api/v2/bulk/lists|tags: validates every model (tag names unique within the request), stores them in one transaction. */
export function bulkCreateCollections(deps: Deps, caller: Caller, kind: CollectionKind, input: unknown): Record<string, unknown>[] {
  const userId = requireUser(caller);
  const problems = new Problems();
  const { models = [] } = bulkCollectionsBody(kind).collect(input, problems);
  const seen = new Set<string>();
  const fields = models.map((m, i) => {
    if (!isObject(m)) return undefined;
    return readCollectionFields(deps, userId, kind, m, { problems, prefix: `models.${i}.` }, { create: true, seen: kind === 'tags' ? seen : undefined });
  });
  problems.throwIfAny();
  const rows = deps.db.transaction(() => fields.map((f) => storeCollection(deps, userId, kind, f!)))();
  if (kind === 'tags') emitTagsCreated(deps, rows);
  return rows.map((r) => collectionJson(kind, r));
}

/** PATCH /api/v2/bulk/links: tags and lists (append or replace) and visibility of several links. */
export function bulkEditLinks(deps: Deps, caller: Caller, input: unknown): (LinkJson | null)[] {
  const userId = requireUser(caller);
  const mine = new Problems();
  const body = bulkLinkEditBody.collect(input, mine);
  // a mode is required with the tags (lists) it attaches
  for (const [given, key] of [
    [body.tags, 'tags_mode'],
    [body.lists, 'lists_mode'],
  ] as const)
    if (given && body[key] === undefined && !mine.has(key)) mine.add(key, `The ${attributeName(key)} field is required.`);
  const problems = new Problems();
  inFieldOrder(mine, Object.keys(bulkLinkEditBody.schema.properties as object), problems);
  const { models: ids, tags, lists, tags_mode: tagsMode, lists_mode: listsMode, visibility } = body;
  checkRefs(deps, caller, problems, 'tags', 'tags', tags);
  checkRefs(deps, caller, problems, 'lists', 'lists', lists);
  problems.throwIfAny();
  const created: CollectionRow[] = [];
  const out: (LinkJson | null)[] = [];
  const updatedRows: LinkRow[] = [];
  deps.db.transaction(() => {
    for (const id of ids ?? []) {
      const row = getLink(deps.db, id);
      if (!row) continue;
      if (!canUpdate(caller, row)) {
        out.push(null);
        continue;
      }
      const apply = (kind: CollectionKind, refs: Ref[] | null | undefined, mode: 'append' | 'replace' | null | undefined) => {
        if (!refs || !mode) return;
        const resolved = resolveRefs(deps, userId, kind, refs, created);
        if (mode === 'append') attach(deps.db, kind, id, resolved, 'append');
        else replaceVisibleRefs(deps, caller, kind, id, resolved);
      };
      apply('tags', tags, tagsMode);
      apply('lists', lists, listsMode);
      const updated = updateLink(deps.db, id, visibility ? { visibility } : {});
      updatedRows.push(updated);
      out.push(linkWithRelations(deps.db, caller, updated));
    }
  })();
  emitTagsCreated(deps, created);
  let n = 0;
  for (const l of out) if (l) emitLinkUpdated(deps, caller, updatedRows[n++]!, l);
  return out;
}

/** PATCH /api/v2/bulk/lists|tags: the visibility of several lists or tags. */
export function bulkEditCollections(deps: Deps, caller: Caller, kind: CollectionKind, input: unknown): (Record<string, unknown> | null)[] {
  requireUser(caller);
  const { models: ids, visibility } = bulkCollectionEditBody.check(input);
  return deps.db.transaction(() => {
    const out: (Record<string, unknown> | null)[] = [];
    for (const id of ids ?? []) {
      const row = getCollection(deps.db, kind, id);
      if (!row) continue;
      if (!canUpdate(caller, row)) out.push(null);
      else out.push(collectionJson(kind, updateCollection(deps.db, kind, id, visibility ? { visibility } : {})));
    }
    return out;
  })();
}

/** DELETE /api/v2/bulk/delete: moves several links, lists or tags to the trash; id -> whether it was. */
export function bulkDelete(deps: Deps, caller: Caller, input: unknown): Record<string, boolean> {
  requireUser(caller);
  const { type, models: ids } = bulkDeleteBody.check(input);
  const out: Record<string, boolean> = {};
  deps.db.transaction(() => {
    for (const id of ids!) {
      const row = type === 'links' ? getLink(deps.db, id) : getCollection(deps.db, type!, id);
      if (!row) continue;
      if (!canDelete(caller, row)) {
        out[String(id)] = false;
        continue;
      }
      if (type === 'links') setLinkDeleted(deps.db, id, true);
      else setCollectionDeleted(deps.db, type!, id, true);
      out[String(id)] = true;
    }
  })();
  return out;
}
