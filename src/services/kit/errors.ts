/**
 * The errors every service's routes raise, one class a kind (services/kit).
 *
 * - `ValidationError`: a request's input broke its declaration; it holds the problems per field, in the order
 *   they were found. It knows no status and no body: each service renders it in its real system's shape
 *   (LinkAce's 422 `{message, errors}`, the notification service's 400 `{error, message, errors}`).
 * - `HttpError`: an answer already decided, status, body and headers, sent as it is.
 */

/** Messages per field (`field` or `a.b` for a nested one), each field's in the order found. */
export type FieldErrors = Record<string, string[]>;

export class ValidationError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(
      Object.entries(errors)
        .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
        .join('; '),
    );
    this.name = 'ValidationError';
  }

  /** Throws one naming a single field. */
  static of(field: string, message: string): never {
    throw new ValidationError({ [field]: [message] });
  }
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${statusCode}`);
    this.name = 'HttpError';
  }
}

/** Collects problems per field; `throwIfAny` raises them as one ValidationError. */
export class Problems {
  /** `errors`: an existing collection to add to (shared, not copied). */
  constructor(readonly errors: FieldErrors = {}) {}

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.errors).length > 0 : field in this.errors;
  }

  /** The first problem found: its field and its first message. */
  first(): { field: string; message: string } | undefined {
    const [field, messages] = Object.entries(this.errors)[0] ?? [];
    return field === undefined ? undefined : { field, message: messages![0]! };
  }

  throwIfAny(): void {
    if (this.has()) throw new ValidationError(this.errors);
  }
}
