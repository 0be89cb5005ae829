/**
 * The formats of an ad-hoc query's answer (Feldera's AdHocResultFormat, crates/feldera-types/src/query.rs) and
 * what the HTTP answer says of each: its content type, and for `parquet` the attachment's file name Feldera
 * gives (`results_YYYYMMDD_HHMMSS.parquet`, UTC). Nothing here encodes (adhoc.ts does, with arrow.ts, parquet.ts
 * and result-hash.ts), so the routes can read it without loading the encoders.
 */

/** In Feldera's order (its unknown-variant message lists them so). */
export const QUERY_FORMATS = ['text', 'json', 'parquet', 'arrow_ipc', 'hash'] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];
/** The formats whose answer is text. */
export type TextQueryFormat = 'json' | 'text' | 'hash';

/**
 * As Feldera's: text and hash exactly `text/plain` (its mime::TEXT_PLAIN, no charset: today's Python SDK reads an
 * answer as text only when the content type is exactly that, and decodes anything else as JSON, so `query_hash`
 * needs it), Arrow and Parquet octet streams (json kept as NDJSON, as before).
 */
export const QUERY_CONTENT_TYPES: Record<QueryFormat, string> = {
  text: 'text/plain',
  json: 'application/x-ndjson',
  parquet: 'application/octet-stream',
  arrow_ipc: 'application/octet-stream',
  hash: 'text/plain',
};

export function parquetFileName(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `results_${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}_${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}.parquet`;
}
