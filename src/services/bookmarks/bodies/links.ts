/**
 * The link bodies, declared once (services/kit/declare.ts): POST, PATCH and PUT /api/v2/links and /api/v1/links,
 * and each model of POST /api/v2/bulk/links. From each declaration come its format rules (LinkAce's, in
 * fields.ts's words), its openapi.json schema and its TypeScript type.
 *
 * Rules, in the order their problems are reported: url (required on create; on update it may be left out but not
 * cleared), title, description, icon, visibility (v2) or is_private (v1), check_disabled, lists, tags. null (or a
 * blank string) is kept as null: on update it clears the field. The database rules (the lists and tags named
 * exist, the url is not taken) are the action's (actions/links.ts), added to the same problems.
 */
import { objectOf, optional, type Declared } from '../../kit/declare.js';
import { bool, nullableRule, normalizeBody, refs as refsOf, rule, text as textOf, urlOf, visibilityOf } from '../fields.js';
import { LIMITS, type Ref, type Visibility } from '../validate.js';
import { visibility as visibilitySchema } from '../routes/schemas.js';

function text(max: number) {
  return optional(nullableRule({ type: ['string', 'null'], maxLength: max }, textOf(max)));
}
function flag() {
  return optional(nullableRule({ type: 'boolean' }, bool));
}
function refs(what: 'list' | 'tag') {
  const schema = {
    description: `${what} ids or names (array or comma-separated string)`,
    type: ['array', 'string'],
    items: { type: ['integer', 'string'], maxLength: LIMITS.name },
  };
  return optional(nullableRule(schema, refsOf));
}
/** Required: absent, null and blank answer "The url field is required.". */
const url = rule({ type: 'string', format: 'uri', maxLength: LIMITS.url }, urlOf, { required: true });
const visibility = optional(nullableRule(visibilitySchema, visibilityOf));

function linkBody<V extends object>(opts: { create: boolean }, visibilityField: V) {
  return objectOf(
    {
      url: opts.create ? url : optional(url),
      title: text(LIMITS.title),
      description: text(LIMITS.description),
      icon: text(LIMITS.icon),
      ...visibilityField,
      check_disabled: flag(),
      lists: refs('list'),
      tags: refs('tag'),
    },
    { normalize: normalizeBody },
  );
}

export const newLinkBody = linkBody({ create: true }, { visibility });
export const linkUpdateBody = linkBody({ create: false }, { visibility });
export const newLinkV1Body = linkBody({ create: true }, { is_private: flag() });
export const linkUpdateV1Body = linkBody({ create: false }, { is_private: flag() });

/** The link fields of any link body, as the actions read them. */
export interface LinkBody {
  url?: string;
  title?: string | null;
  description?: string | null;
  icon?: string | null;
  visibility?: Visibility | null;
  is_private?: boolean | null;
  check_disabled?: boolean | null;
  lists?: Ref[] | null;
  tags?: Ref[] | null;
}

/** The declaration of a link body: new or an update, v2 or v1. */
export function linkBodyFor(opts: { create: boolean; v1?: boolean }): Declared<LinkBody> {
  if (opts.v1) return opts.create ? newLinkV1Body : linkUpdateV1Body;
  return opts.create ? newLinkBody : linkUpdateBody;
}
