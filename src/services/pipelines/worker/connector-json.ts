/**
 * A connector declaration's parts as plain JSON, for what the API shows of them (program_info's endpoint
 * configs, a running pipeline's /stats): the engine keeps a configuration's integers beyond ±2^53 exact, as
 * bigints (a datagen range up to i64::MAX), which JSON.stringify cannot write; here they are the JS numbers
 * JSON.parse would have read. Pure.
 */
import type { ConnectorDecl, JsonValue } from '../../../engine/index.js';

export function plainJson(v: JsonValue): JsonValue {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plainJson);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJson(x)]));
  return v;
}

/** `{name, config}` of a declaration's transport or format, config plain (absent: `{}`). */
export function plainPart(part: ConnectorDecl['transport']): { name: string; config: JsonValue } {
  return { name: part.name, config: plainJson(part.config ?? {}) };
}
