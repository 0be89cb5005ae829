/**
 * The note bodies, declared once (services/kit/declare.ts): POST /api/v2/notes and /api/v1/notes, PATCH and PUT
 * /api/v2/notes/{id} and /api/v1/notes/{id}: their format rules (fields.ts's words), openapi.json schema and type.
 *
 * Rules: `note` a string of at most LIMITS.note characters, required on create (on update it may be left out but
 * not cleared); `visibility` (v2) or `is_private` (v1; a v1 `visibility` is ignored). A v1 `is_private` that is
 * not a boolean is answered alone, before the other fields (as ops has answered it). `link_id` is documented, not
 * checked here: the action authorizes against the link it names before any validation (LinkAce's
 * NoteStoreRequest), so an unusable one answers 403.
 */
import { field, objectOf, optional, type Declared } from '../../kit/declare.js';
import { bool, nullableRule, normalizeBody, rule, text, visibilityOf } from '../fields.js';
import { LIMITS, type Visibility } from '../validate.js';
import { visibility as visibilitySchema } from '../routes/schemas.js';

const linkId = optional(field<unknown>({ type: 'integer', description: 'a link the caller can see (403 otherwise)' }, (v) => v));
const noteSchema = { type: 'string', maxLength: LIMITS.note };
/** Required: absent, null and blank answer "The note field is required.". */
const note = rule(noteSchema, text(LIMITS.note), { required: true });
const visibility = optional(nullableRule(visibilitySchema, visibilityOf));
const isPrivate = optional(nullableRule({ type: 'boolean' }, bool));

const v2Fields = (create: boolean) => ({ link_id: linkId, note: create ? note : optional(note), visibility });
const v1Fields = (create: boolean) => ({ link_id: linkId, note: create ? note : optional(note), is_private: isPrivate });
const v1Rules = {
  normalize: normalizeBody,
  precheck(input: Record<string, unknown>, problems: { add(field: string, message: string): void }) {
    if (input.is_private !== undefined) isPrivate.read(input.is_private, (message) => problems.add('is_private', message) as undefined, 'is_private');
  },
};

export const newNoteBody = objectOf(v2Fields(true), { normalize: normalizeBody });
export const noteUpdateBody = objectOf(v2Fields(false), { normalize: normalizeBody });
export const newNoteV1Body = objectOf(v1Fields(true), v1Rules);
export const noteUpdateV1Body = objectOf(v1Fields(false), v1Rules);

/** The fields of any note body, as the actions read them. */
export interface NoteBody {
  note?: string;
  visibility?: Visibility | null;
  is_private?: boolean | null;
}

/** The declaration of a note body: new or an update, v2 or v1. */
export function noteBodyFor(opts: { create: boolean; v1?: boolean }): Declared<NoteBody> {
  if (opts.v1) return opts.create ? newNoteV1Body : noteUpdateV1Body;
  return opts.create ? newNoteBody : noteUpdateBody;
}
