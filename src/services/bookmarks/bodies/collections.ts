/**
 * The list and tag bodies, declared once (services/kit/declare.ts): POST, PATCH and PUT /api/v2/lists|tags and
 * /api/v1/lists|tags, and each model of POST /api/v2/bulk/lists|tags: format rules (fields.ts's words),
 * openapi.json schema and type.
 *
 * Rules, in the order their problems are reported: `name` (required on create; on update it may be left out but
 * not cleared; commas are removed and a name left empty is "required"), `description` (lists only), `visibility`
 * (v2) or `is_private` (v1). The database rule (the name is not taken by another of the user's lists or tags,
 * trash included) is the action's (actions/collections.ts), reported with the name's problems.
 */
import { objectOf, optional, type Declared } from '../../kit/declare.js';
import { bool, nullableRule, normalizeBody, REQUIRED, rule, text, visibilityOf } from '../fields.js';
import { LIMITS, type Visibility } from '../validate.js';
import { visibility as visibilitySchema } from '../routes/schemas.js';
import type { CollectionKind } from '../store/collections.js';

/** A list or tag name as stored: commas removed, trimmed. */
export function cleanName(name: string): string {
  return name.replace(/,/g, '').trim();
}

/** Required: absent, null, blank and commas only answer "The name field is required.". */
const nameText = text(LIMITS.name);
const name = rule(
  { type: 'string', maxLength: LIMITS.name },
  (v, fail) => {
    const given = nameText(v, fail);
    if (given === undefined) return undefined;
    return cleanName(given) || fail(REQUIRED);
  },
  { required: true },
);
const description = optional(nullableRule({ type: ['string', 'null'], maxLength: LIMITS.description }, text(LIMITS.description)));
const visibility = optional(nullableRule(visibilitySchema, visibilityOf));
const isPrivate = optional(nullableRule({ type: 'boolean' }, bool));

/** The fields of any list or tag body, as the actions read them. */
export interface CollectionBody {
  name?: string;
  description?: string | null;
  visibility?: Visibility | null;
  is_private?: boolean | null;
}

function declare(kind: CollectionKind, create: boolean, v1: boolean): Declared<CollectionBody> {
  return objectOf(
    {
      name: create ? name : optional(name),
      ...(kind === 'lists' ? { description } : {}),
      ...(v1 ? { is_private: isPrivate } : { visibility }),
    },
    { normalize: normalizeBody },
  );
}

const declared = new Map<string, Declared<CollectionBody>>();

/** The declaration of a list or tag body: new or an update, v2 or v1. */
export function collectionBodyFor(kind: CollectionKind, opts: { create: boolean; v1?: boolean }): Declared<CollectionBody> {
  const key = `${kind} ${opts.create} ${!!opts.v1}`;
  let d = declared.get(key);
  if (!d) declared.set(key, (d = declare(kind, opts.create, !!opts.v1)));
  return d;
}
