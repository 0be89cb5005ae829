/**
 * A ParseErrors answer of an ingress request (the server's list of bad records) as lines for people, the same
 * for every input format: `record 1503: failed to deserialize JSON record: ...`, at most SHOWN_PARSE_ERRORS
 * lines and a count of the rest. The server numbers the events of one request; `first` maps them back to the
 * records of the whole input. Pure.
 */
import type { ApiError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';

const SHOWN_PARSE_ERRORS = 10;

interface ParseErrorEntry {
  event_number?: unknown;
  description?: unknown;
  suggestion?: unknown;
}

/** The entries of a ParseErrors answer, or undefined when the error is something else. */
export function parseErrorsOf(err: ApiError): { errors: ParseErrorEntry[]; total: number } | undefined {
  const body = err.body as { details?: { errors?: unknown; num_errors?: unknown } } | undefined;
  const errors = body?.details?.errors;
  if (err.code !== 'ParseErrors' || !Array.isArray(errors) || errors.length === 0) return undefined;
  const total = typeof body?.details?.num_errors === 'number' ? body.details.num_errors : errors.length;
  return { errors: errors as ParseErrorEntry[], total };
}

/** A ParseErrors answer as lines naming the records of the input, its first record numbered `first`. */
export function badRecords(err: ApiError, first: number): { headline: string; lines: string[] } | undefined {
  const parsed = parseErrorsOf(err);
  if (!parsed) return undefined;
  const { errors, total } = parsed;
  const lines = errors.slice(0, SHOWN_PARSE_ERRORS).map((e) => {
    const where = typeof e.event_number === 'number' ? `record ${first + e.event_number - 1}` : 'a record';
    return `  ${where}: ${sanitize(String(e.description ?? 'cannot be parsed'))}`;
  });
  if (total > lines.length) lines.push(`  ... and ${total - lines.length} more`);
  return { headline: `${total} bad record${total === 1 ? '' : 's'} (ParseErrors):`, lines };
}
