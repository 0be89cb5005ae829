/** The incremental SQL engine: entry point. Placeholder until the engine issue lands. */
export * from './api.js';
import type { CompileResult, CompileOptions } from './api.js';

export function compile(_sql: string, _options: CompileOptions = {}): CompileResult {
  return { ok: false, errors: [{ message: 'The SQL engine is not implemented yet.', line: 1, column: 1, kind: 'unsupported' }] };
}
