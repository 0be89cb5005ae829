/** The ParseErrors response of ingress (Feldera's shape, plus the 1-based `line` of each bad event). */
import { FelderaError } from '../../shared/errors.js';

export interface ParseErrorEntry {
  description: string;
  event_number: number;
  line: number;
  field: string | null;
  invalid_bytes: null;
  invalid_text: string | null;
  suggestion: string | null;
}

export const MAX_REPORTED_ERRORS = 1000;

export function parseErrorsResponse(errors: ParseErrorEntry[], total = errors.length): FelderaError {
  const shown = errors.slice(0, MAX_REPORTED_ERRORS);
  const lines = shown.map((e) => `    Parse error (event #${e.event_number}, line ${e.line}): ${e.description}` + (e.invalid_text !== null ? `\nInvalid fragment: '${e.invalid_text}'` : ''));
  const message =
    `Errors parsing input data (${total} errors):\n${lines.join('\n')}` +
    (total > shown.length ? `\n    ... ${total - shown.length} more errors not shown` : '') +
    '\nNothing from this request was applied.';
  return new FelderaError(400, 'ParseErrors', message, { errors: shown, num_errors: total });
}
