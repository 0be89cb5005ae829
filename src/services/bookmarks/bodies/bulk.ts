/**
 * The bulk bodies (POST, PATCH /api/v2/bulk/links|lists|tags, DELETE /api/v2/bulk/delete), declared once
 * (services/kit/declare.ts): format rules (fields.ts's words), openapi.json schema and type.
 *
 * Rules:
 * - a `models` array of more than MAX_BULK_MODELS is refused first and alone (the precheck), before any model;
 * - creates: `models` an array (required) whose items are objects ("The models.<i> must be an object.", every
 *   such item before any model's own problems); each model is then read by its own declaration
 *   (bodies/links.ts, bodies/collections.ts) under `models.<i>.`, by the action;
 * - edits: `models` an array of ids (required); for links, `tags` and `lists` (ids or names, as a link's),
 *   `tags_mode` and `lists_mode` (append or replace; required when tags or lists are given, which the action
 *   adds in field order); `visibility` 1-3, where 0 (or null) leaves it as it is;
 * - delete: `type` (links, lists or tags) and `models` ids, both required.
 */
import { isObject, objectOf, optional } from '../../kit/declare.js';
import type { JsonSchema } from '../../kit/declare.js';
import { ValidationError, type Problems } from '../../kit/errors.js';
import { array, ids as idsOf, nullableRule, normalizeBody, oneOf, refs as refsOf, rule, visibilityOf } from '../fields.js';
import { ATTACH_MODES, BULK_DELETE_TYPES, MAX_BULK_MODELS, VISIBILITIES, type Visibility } from '../validate.js';
import { newLinkBody } from './links.js';
import { collectionBodyFor } from './collections.js';
import type { CollectionKind } from '../store/collections.js';

const OVER_CAP = `The models must not have more than ${MAX_BULK_MODELS} items.`;

/** Refuses a `models` array over the cap, alone and before anything else. */
function refuseOverCap(input: Record<string, unknown>, problems: Problems): void {
  const models = input.models;
  if (Array.isArray(models) && models.length > MAX_BULK_MODELS) problems.add('models', OVER_CAP);
}

/** The same refusal for a JSON body whose `models` array has `count` items, before it is parsed (body-parsers.ts). */
export function refuseTooManyModels(count: number): void {
  if (count > MAX_BULK_MODELS) throw new ValidationError({ models: [OVER_CAP] });
}

function modelsOf(items: JsonSchema) {
  return rule({ type: 'array', items, maxItems: MAX_BULK_MODELS }, array, { required: true });
}
const ids = rule({ type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: MAX_BULK_MODELS }, idsOf, { required: true });
const refsSchema = { type: ['array', 'string'], items: { type: ['integer', 'string'] } };
const refs = optional(nullableRule(refsSchema, refsOf));
const mode = oneOf(ATTACH_MODES);
/** 0 (a JSON number) and null leave the visibility as it is. */
const visibilityEdit = optional(
  nullableRule<Visibility | null>({ type: ['integer', 'null'], enum: [...VISIBILITIES, null], description: 'null (or 0): left as it is' }, (v, fail) => (v === 0 ? null : visibilityOf(v, fail))),
);

function creates(items: JsonSchema) {
  return objectOf(
    { models: modelsOf(items) },
    {
      normalize: normalizeBody,
      precheck: refuseOverCap,
      refine(value, _input, problems) {
        value.models?.forEach((m, i) => {
          if (!isObject(m)) problems.add(`models.${i}`, `The models.${i} must be an object.`);
        });
      },
    },
  );
}

export const bulkLinksBody = creates(newLinkBody.schema);
const collectionCreates = { lists: creates(collectionBodyFor('lists', { create: true }).schema), tags: creates(collectionBodyFor('tags', { create: true }).schema) };
export const bulkCollectionsBody = (kind: CollectionKind) => collectionCreates[kind];

export const bulkLinkEditBody = objectOf(
  { models: ids, tags: refs, lists: refs, tags_mode: mode, lists_mode: mode, visibility: visibilityEdit },
  { normalize: normalizeBody, precheck: refuseOverCap },
);
export const bulkCollectionEditBody = objectOf({ models: ids, visibility: visibilityEdit }, { normalize: normalizeBody, precheck: refuseOverCap });
export const bulkDeleteBody = objectOf({ type: oneOf(BULK_DELETE_TYPES, { required: true }), models: ids }, { normalize: normalizeBody, precheck: refuseOverCap });
