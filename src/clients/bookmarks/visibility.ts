/** Visibility and status codes as words, and words (or numbers) as codes. */
import type { Visibility } from './types.js';

export const VISIBILITY_NAMES: Record<Visibility, string> = { 1: 'public', 2: 'internal', 3: 'private' };
export const STATUS_NAMES: Record<number, string> = { 1: 'ok', 2: 'moved', 3: 'broken' };

export class VisibilityError extends Error {}

/** "public" | "internal" | "private" | "1" | "2" | "3" (any case, prefixes like "priv" not accepted). */
export function parseVisibility(value: string | number): Visibility {
  const text = String(value).trim().toLowerCase();
  for (const [code, name] of Object.entries(VISIBILITY_NAMES)) {
    if (text === name || text === code) return Number(code) as Visibility;
  }
  throw new VisibilityError(`visibility must be public, internal or private (or 1, 2, 3), not "${value}"`);
}

export function visibilityName(code: unknown): string {
  return VISIBILITY_NAMES[Number(code) as Visibility] ?? (code === undefined || code === null ? '' : String(code));
}

export function statusName(code: unknown): string {
  return STATUS_NAMES[Number(code)] ?? (code === undefined || code === null ? '' : String(code));
}

/** "ok" | "moved" | "broken" | 1..3 */
export function parseStatus(value: string): number {
  const text = value.trim().toLowerCase();
  for (const [code, name] of Object.entries(STATUS_NAMES)) if (text === name || text === code) return Number(code);
  throw new VisibilityError(`status must be ok, moved or broken (or 1, 2, 3), not "${value}"`);
}
