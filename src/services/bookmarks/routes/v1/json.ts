/** v1 shapes: `is_private` (visibility 3) instead of `visibility`. */
export function v1(obj: Record<string, unknown>): Record<string, unknown> {
  const { visibility, ...rest } = obj;
  const out: Record<string, unknown> = { ...rest, is_private: visibility === 3 };
  for (const k of ['lists', 'tags', 'links'] as const) if (Array.isArray(out[k])) out[k] = (out[k] as Record<string, unknown>[]).map(v1);
  return out;
}
