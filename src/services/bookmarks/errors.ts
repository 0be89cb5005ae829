/**
 * The bookmark service's error answers, as LinkAce's: the renderer of a ValidationError (Laravel's 422
 * `{message, errors}`) and the HttpErrors of the common refusals. The classes are the shared kit's.
 */
import { HttpError, type FieldErrors } from '../kit/errors.js';

export { HttpError, ValidationError, type FieldErrors } from '../kit/errors.js';

/** Laravel's 422 body: the first message, "(and N more errors)", and every message per field. */
export function validationBody(errors: FieldErrors): { message: string; errors: FieldErrors } {
  const all = Object.values(errors).flat();
  const more = all.length - 1;
  const message = more > 0 ? `${all[0]} (and ${more} more error${more === 1 ? '' : 's'})` : (all[0] ?? 'The given data was invalid.');
  return { message, errors };
}

export const unauthenticated = () => new HttpError(401, { message: 'Unauthenticated.' });
export const forbidden = () => new HttpError(403, { message: 'This action is unauthorized.' });
/** The sub-collection endpoints (links of a list/tag, notes of a link) answer 403 with `[]`. */
export const forbiddenEmpty = () => new HttpError(403, []);
export const notFound = (model: string, id?: number | string) => new HttpError(404, { message: `No query results for model [App\\Models\\${model}]${id === undefined ? '.' : ` ${id}`}` });
