/** v2 bulk: create links/lists/tags, edit links/lists/tags, delete links/lists/tags. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { Check, isPlainObject, refuseTooManyModels, type Ref } from '../../validate.js';
import { canEdit } from '../../access.js';
import { attach, attachedIds, getLink, linkWithRelations, setLinkDeleted, updateLink, type LinkJson } from '../../store/links.js';
import { collectionJson, getCollection, setCollectionDeleted, updateCollection, type CollectionKind, type CollectionRow } from '../../store/collections.js';
import { checkRefs, emitTagsCreated, requireUser, resolveRefs, storeLink, validateNewLink } from '../../actions/links.js';
import { readCollectionFields, storeCollection } from '../../actions/collections.js';
import { bodyOf, callerOf } from '../common.js';
import { doc, linkBody, linkFullSchema, listBody, listSchema, tagBody, tagSchema } from '../schemas.js';
import { normalizeInput } from '../../validate.js';

/**
 * The cap is checked first and alone: a body over it is refused at once, before any model is looked
 * at (9,000,000 empty models would otherwise be validated one by one). The JSON body parser refuses
 * such a body even before it is parsed (see ../../http.ts); this covers form bodies.
 */
function refuseOverCap(c: Check): void {
  const raw = c.input.models;
  if (Array.isArray(raw)) refuseTooManyModels(raw.length);
}

function readModels(c: Check, requiredObjects: boolean): unknown[] {
  refuseOverCap(c);
  const models = c.array('models', { required: true });
  if (!models) return [];
  if (requiredObjects)
    models.forEach((m, i) => {
      if (!isPlainObject(m)) c.fail(`models.${i}`, 'The :attribute must be an object.');
    });
  return models;
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

export function bulkRoutes(app: FastifyInstance, deps: Deps): void {
  app.post(
    '/api/v2/bulk/links',
    { schema: doc('Bulk', 'Create several links', { body: { type: 'object', properties: { models: { type: 'array', items: linkBody } } }, ok: { type: 'array', items: linkFullSchema } }) },
    async (req) => {
      const caller = callerOf(req);
      requireUser(caller);
      const body = bodyOf(req);
      const c = new Check(body);
      const models = readModels(c, true);
      const seen = new Set<string>();
      const fields = models.map((m, i) => {
        if (!isPlainObject(m)) return undefined;
        const mc = new Check(normalizeInput(m), `models.${i}.`);
        const f = validateNewLink(deps, caller, mc.input, mc);
        if (f.url && seen.has(f.url)) mc.fail('url', 'The :attribute has already been taken.');
        if (f.url) seen.add(f.url);
        Object.assign(c.errors, mc.errors);
        return f;
      });
      c.done();
      return mapLimit(fields, 8, (f) => storeLink(deps, caller, f!));
    },
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.post(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Create several ${kind}`, {
          body: { type: 'object', properties: { models: { type: 'array', items: kind === 'lists' ? listBody : tagBody } } },
          ok: { type: 'array', items: kind === 'lists' ? listSchema : tagSchema },
        }),
      },
      async (req) => {
        const caller = callerOf(req);
        const userId = requireUser(caller);
        const c = new Check(bodyOf(req));
        const models = readModels(c, true);
        const seen = new Set<string>();
        const fields = models.map((m, i) => {
          if (!isPlainObject(m)) return undefined;
          const mc = new Check(normalizeInput(m), `models.${i}.`);
          const f = readCollectionFields(deps, userId, kind, mc, { create: true, seen: kind === 'tags' ? seen : undefined });
          Object.assign(c.errors, mc.errors);
          return f;
        });
        c.done();
        const rows = deps.db.transaction(() => fields.map((f) => storeCollection(deps, userId, kind, f!)))();
        if (kind === 'tags') emitTagsCreated(deps, rows);
        return rows.map((r) => collectionJson(kind, r));
      },
    );
  }

  app.patch(
    '/api/v2/bulk/links',
    {
      schema: doc('Bulk', 'Edit several links: tags and lists (append or replace) and visibility; null where the caller may not edit', {
        body: {
          type: 'object',
          properties: {
            models: { type: 'array', items: { type: 'integer' } },
            tags: { type: 'array', items: { type: ['integer', 'string'] } },
            tags_mode: { type: 'string', enum: ['append', 'replace'] },
            lists: { type: 'array', items: { type: ['integer', 'string'] } },
            lists_mode: { type: 'string', enum: ['append', 'replace'] },
            visibility: { type: ['integer', 'null'], enum: [1, 2, 3, null] },
          },
        },
        ok: { type: 'array', items: { anyOf: [linkFullSchema, { type: 'null' }] } },
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      requireUser(caller);
      const body = bodyOf(req);
      const c = new Check(body);
      refuseOverCap(c);
      const ids = c.ids('models', { required: true });
      const tags = c.refs('tags');
      const lists = c.refs('lists');
      const tagsMode = c.oneOf('tags_mode', ['append', 'replace'] as const, { required: !!tags });
      const listsMode = c.oneOf('lists_mode', ['append', 'replace'] as const, { required: !!lists });
      const visibility = body.visibility === 0 ? null : c.visibility('visibility');
      checkRefs(deps, caller, c, 'tags', 'tags', tags);
      checkRefs(deps, caller, c, 'lists', 'lists', lists);
      c.done();
      const created: CollectionRow[] = [];
      const out: (LinkJson | null)[] = [];
      deps.db.transaction(() => {
        for (const id of ids ?? []) {
          const row = getLink(deps.db, id);
          if (!row) continue;
          if (!canEdit(caller, row)) {
            out.push(null);
            continue;
          }
          const apply = (kind: CollectionKind, refs: Ref[] | null | undefined, mode: 'append' | 'replace' | null | undefined) => {
            if (!refs || !mode) return;
            const resolved = resolveRefs(deps, row.user_id, kind, refs, created);
            attach(deps.db, kind, id, mode === 'append' ? [...attachedIds(deps.db, kind, id), ...resolved] : resolved, mode === 'append' ? 'append' : 'replace');
          };
          apply('tags', tags, tagsMode);
          apply('lists', lists, listsMode);
          const updated = updateLink(deps.db, id, visibility ? { visibility } : {});
          out.push(linkWithRelations(deps.db, caller, updated));
        }
      })();
      emitTagsCreated(deps, created);
      for (const l of out) if (l) deps.events.emit({ type: 'link.updated', data: l, userId: l.user_id });
      return out;
    },
  );

  for (const kind of ['lists', 'tags'] as CollectionKind[]) {
    app.patch(
      `/api/v2/bulk/${kind}`,
      {
        schema: doc('Bulk', `Edit the visibility of several ${kind}; null where the caller may not edit`, {
          body: { type: 'object', properties: { models: { type: 'array', items: { type: 'integer' } }, visibility: { type: ['integer', 'null'], enum: [1, 2, 3, null] } } },
          ok: { type: 'array', items: { anyOf: [kind === 'lists' ? listSchema : tagSchema, { type: 'null' }] } },
        }),
      },
      async (req) => {
        const caller = callerOf(req);
        requireUser(caller);
        const body = bodyOf(req);
        const c = new Check(body);
        refuseOverCap(c);
      const ids = c.ids('models', { required: true });
        const visibility = body.visibility === 0 ? null : c.visibility('visibility');
        c.done();
        return deps.db.transaction(() => {
          const out: (Record<string, unknown> | null)[] = [];
          for (const id of ids ?? []) {
            const row = getCollection(deps.db, kind, id);
            if (!row) continue;
            if (!canEdit(caller, row)) out.push(null);
            else out.push(collectionJson(kind, updateCollection(deps.db, kind, id, visibility ? { visibility } : {})));
          }
          return out;
        })();
      },
    );
  }

  app.delete(
    '/api/v2/bulk/delete',
    {
      schema: doc('Bulk', 'Move several links, lists or tags to the trash: an object id -> deleted?', {
        body: { type: 'object', required: ['type', 'models'], properties: { type: { type: 'string', enum: ['links', 'lists', 'tags'] }, models: { type: 'array', items: { type: 'integer' } } } },
        ok: { type: 'object', additionalProperties: { type: 'boolean' } },
      }),
    },
    async (req) => {
      const caller = callerOf(req);
      requireUser(caller);
      const c = new Check(bodyOf(req));
      const type = c.oneOf('type', ['links', 'lists', 'tags'] as const, { required: true });
      refuseOverCap(c);
      const ids = c.ids('models', { required: true });
      c.done();
      const out: Record<string, boolean> = {};
      deps.db.transaction(() => {
        for (const id of ids!) {
          const row = type === 'links' ? getLink(deps.db, id) : getCollection(deps.db, type!, id);
          if (!row) continue;
          if (!canEdit(caller, row)) {
            out[String(id)] = false;
            continue;
          }
          if (type === 'links') setLinkDeleted(deps.db, id, true);
          else setCollectionDeleted(deps.db, type!, id, true);
          out[String(id)] = true;
        }
      })();
      return out;
    },
  );
}

