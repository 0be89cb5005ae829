/** HTTP errors with the JSON bodies LinkAce answers. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${statusCode}`);
  }
}

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends HttpError {
  constructor(readonly errors: FieldErrors) {
    super(422, validationBody(errors));
  }
}

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
