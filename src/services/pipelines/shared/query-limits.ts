/**
 * The limits of an ad-hoc query (`/query?sql=`, and the SELECT of an ad-hoc INSERT): how long it may run in
 * its pipeline's worker, how many rows it may build, how many bytes its answer may take. A query holds its
 * pipeline's worker while it runs (ingress, stats and other queries of that pipeline wait behind it), so a
 * runaway one (a cross join of two big tables, a long computation per row) is cancelled at its limit and
 * answered 400 AdHocQueryError naming the limit and the flag that sets it; nothing of it is applied and the
 * pipeline goes on with what waited.
 *
 * Rules: set for the whole server by `ops serve --query-timeout SECONDS --query-max-rows N --query-max-mb
 * MIB` (ServeOptions queryTimeoutMs, queryMaxRows, queryMaxBytes), defaults DEFAULT_QUERY_LIMITS; a value
 * that is not a positive number keeps the default. The time runs from when the worker takes the query up
 * (not while it waits its turn). Rows built are the rows the query's step builds (its input rows, the pairs
 * its joins look at, the rows its operators make: engine stepRowsBuilt) and, apart, the rows of its answer.
 * The checks run at the guard's calls (query-memory.ts): every 16,384 rows built or written out and every
 * 4 Mi characters of string work, so a limit is noticed within milliseconds of being passed.
 */

export interface QueryLimits {
  /** Milliseconds a query may run in the worker. */
  timeoutMs: number;
  /** Rows a query may build (and, apart, rows its answer may have). */
  maxRows: number;
  /** Bytes (UTF-16 code units, the size of ASCII text in bytes) the answer's body may have. */
  maxBytes: number;
}

export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = {
  timeoutMs: 30_000,
  maxRows: 100_000_000,
  maxBytes: 256 * 1024 * 1024,
};

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** The limits set by the server's options (ServeOptions queryTimeoutMs, queryMaxRows, queryMaxBytes), else the defaults. */
export function queryLimitsOf(options: { queryTimeoutMs?: unknown; queryMaxRows?: unknown; queryMaxBytes?: unknown }): QueryLimits {
  return {
    timeoutMs: positive(options.queryTimeoutMs) ?? DEFAULT_QUERY_LIMITS.timeoutMs,
    maxRows: positive(options.queryMaxRows) ?? DEFAULT_QUERY_LIMITS.maxRows,
    maxBytes: positive(options.queryMaxBytes) ?? DEFAULT_QUERY_LIMITS.maxBytes,
  };
}

const NARROW = 'nothing was changed. Narrow it (a WHERE, a LIMIT, an aggregate) or raise the limit';
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/** Why a query was stopped at one of its limits, and the details of its 400 (which limit, its value). */
export const limitReasons = {
  time: (limits: QueryLimits) => ({
    message: `The query was cancelled: it ran past the time limit of ${seconds(limits.timeoutMs)} for an ad-hoc query (ops serve --query-timeout); ${NARROW}`,
    details: { limit: 'query_timeout', value_ms: limits.timeoutMs },
  }),
  rows: (limits: QueryLimits, rows: number) => ({
    message: `The query was cancelled: it built ${rows} rows, past the limit of ${limits.maxRows} rows for an ad-hoc query (ops serve --query-max-rows); ${NARROW}`,
    details: { limit: 'query_max_rows', value: limits.maxRows },
  }),
  answerRows: (limits: QueryLimits) => ({
    message: `The answer is too large: more than ${limits.maxRows} rows, the limit for an ad-hoc query (ops serve --query-max-rows); ${NARROW}`,
    details: { limit: 'query_max_rows', value: limits.maxRows },
  }),
  answerBytes: (limits: QueryLimits) => ({
    message: `The answer is too large: more than ${limits.maxBytes} bytes, the limit for an ad-hoc query's answer (ops serve --query-max-mb); ${NARROW}`,
    details: { limit: 'query_max_bytes', value: limits.maxBytes },
  }),
};
